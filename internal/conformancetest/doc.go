// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package conformancetest loads the conformance cases of
// testdata/conformance and the golden cases of testdata/golden, builds the
// ResourceList each conformance case runs on (testdata/conformance/FORMAT.md)
// and holds the expectations every runner asserts: the built binary
// (package test), the function in process (package fn) and the dialect
// packages' own runners (karmada, kubeadmiral). It is for tests only.
package conformancetest
