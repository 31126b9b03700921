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
// leading "/" silently loses its first segment. Error messages are the same
// strings evanphx returns, so users can match them against upstream
// documentation. The differential and fuzz tests in this package hold the
// engine to that promise.
package yamlpatch
