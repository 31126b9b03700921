// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package resourcelist is the codec of the KRM ResourceList: it reads the
// list the function gets on stdin, checks it before any of it reaches a
// dialect or the patch engine, and writes the list the function returns.
//
// Reading (read.go, split.go, check.go): ReadAll reads at most
// MaxInputBytes, Normalize strips a byte order mark and CRLF line ends
// (Encoding.Apply restores them on output), and Parse returns a List whose
// items are all mappings with an identity, with every YAML alias expanded
// under MaxAliasNodes and MaxDepth, no duplicate key and no duplicate item;
// an input that fails a check is reported as Errors, which name the item,
// field and line. Split and SplitList.Parse read a list in the layout every
// orchestrator writes one group of items at a time, for a caller that
// drops each group once written; Peek reads an item's apiVersion and kind
// from its text without parsing it.
//
// Writing (write.go): a Writer writes a list exactly as kyaml's
// kio.ByteWriter would, but item by item, on all cores, and an item whose
// input text still says what it holds as that text, byte for byte;
// WriteList writes a whole list through one, WriteFailure the item-less
// list of a failed run.
//
// The package knows nothing of policies or of the function's own
// configuration: the caller says, through Options, what its functionConfig
// may be.
package resourcelist
