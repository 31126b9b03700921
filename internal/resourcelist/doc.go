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
// field and line. For a caller that drops each group of items once it is
// written, Split cuts a list in the layout every orchestrator writes into
// its items' texts, SplitList.Parse reads them a group at a time, and Peek
// reads an item's apiVersion and kind from its text without parsing it.
//
// Writing (write.go): a Writer writes a list exactly as kyaml's
// kio.ByteWriter would, but item by item, on all cores; an item whose input
// text still says what it holds is written as that text, byte for byte.
// WriteList writes a whole list through a Writer, WriteFailure the
// item-less list of a failed run.
//
// The package knows nothing of dialects or of the function's own
// configuration (it reads an item's identity as package policy does): the
// caller says, through Options, what its functionConfig may be.
package resourcelist
