// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package admissionpolicy

import (
	"strings"
	"testing"

	"github.com/apply-overrides/apply-overrides/internal/conformancetest"
)

// withKyverno reports whether a case has Kyverno policies besides the
// MutatingAdmissionPolicies.
func withKyverno(c *conformancetest.Case) bool {
	for _, p := range c.Policies {
		if v, _ := p["apiVersion"].(string); strings.HasPrefix(v, "kyverno.io/") || strings.HasPrefix(v, "policies.kyverno.io/") {
			return true
		}
	}
	return false
}

// TestConformance runs the MutatingAdmissionPolicy conformance cases
// (testdata/conformance/admissionpolicy) through this dialect alone, with
// the expectations of the binary's harness (test/conformance_test.go).
func TestConformance(t *testing.T) {
	for _, c := range conformancetest.Load(t, "../testdata/conformance", "admissionpolicy") {
		t.Run(c.ID, func(t *testing.T) {
			t.Parallel()
			if withKyverno(c) {
				t.Skip("the case runs Kyverno's webhook after the policies: packages fn and test run it with every dialect")
			}
			conformancetest.RunDialect(t, c, Dialect{})
		})
	}
}
