// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package test holds the tests that run the built apply-overrides binary:
// the upstream-derived conformance cases (testdata/conformance), the golden
// ResourceLists (testdata/golden) and the examples (examples/).
package test
