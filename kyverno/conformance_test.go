// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyverno

import (
	"testing"

	"github.com/apply-overrides/apply-overrides/internal/conformancetest"
)

// TestConformance runs the Kyverno conformance cases
// (testdata/conformance/kyverno) through this dialect alone: Claims,
// Compile, For without a cluster, and policy.Apply on each resource, with
// the expectations of the binary's harness (test/conformance_test.go).
func TestConformance(t *testing.T) {
	for _, c := range conformancetest.Load(t, "../testdata/conformance", "kyverno") {
		t.Run(c.ID, func(t *testing.T) {
			t.Parallel()
			conformancetest.RunDialect(t, c, Dialect{})
		})
	}
}
