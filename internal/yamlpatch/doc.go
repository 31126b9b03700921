// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package yamlpatch applies RFC 6902 JSON patches and resolves RFC 6901 JSON
// pointers directly on YAML nodes, in place, so that comments, key order,
// quoting and sequence indentation of everything the patch does not touch
// survive.
//
// Its observable behaviour on the JSON view of a document equals
// github.com/evanphx/json-patch/v5 (v5.9.11) applied with default options,
// which is what Karmada runs: negative indices are supported, a missing path
// on remove is an error, parents are never created, and a path without a
// leading "/" silently loses its first segment. Patch.ApplyWithOptions adds
// evanphx's EnsurePathExistsOnAdd and AllowMissingPathOnRemove (which
// Kyverno's patchesJson6902 turns on) with the same fidelity, and LegacyV4,
// evanphx's older v4 API, which KubeAdmiral uses; see Options.
// Error messages are the same strings evanphx returns, so users can match
// them against upstream documentation. The differential and fuzz tests in
// this package hold the engine to that promise, with and without options.
//
// # JSON view
//
// A mapping is an object (keys in document order), a sequence an array, and
// a scalar is typed by its resolved tag as yaml.v3 decodes it: !!null,
// !!bool, !!int and !!float keep their type, every other scalar is a string.
// Numbers compare by their JSON text (evanphx compares raw bytes, so 1 and
// 1.0 differ); spellings JSON lacks (0x1F, 1_000) are decoded first. Aliases
// are followed and document nodes unwrapped. Merge keys (<<) are ordinary
// keys, and of duplicate keys the first counts.
//
// # Nulls
//
// evanphx holds a null that comes from the document as a nil pointer but the
// null value of add, replace (and copies of it) as a "null" node, and test
// tells them apart: test of null matches a document null or a missing key,
// but not a null the patch put there. This package keeps that distinction.
//
// # Comments
//
// A value that takes another's place takes over its head, line and foot
// comments; keys keep theirs. Comments are then moved, where needed, to
// spots the yaml.v3 encoder prints next to the value (see placeComments);
// values placed inside flow collections ([...], {...}) drop their own.
// Removed entries take their own comments with them.
package yamlpatch
