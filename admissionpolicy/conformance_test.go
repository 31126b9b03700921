// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package admissionpolicy

import (
	"testing"

	"github.com/apply-overrides/apply-overrides/internal/conformancetest"
)

// TestConformance runs the MutatingAdmissionPolicy conformance cases
// (testdata/conformance/admissionpolicy) through this dialect alone, with
// the expectations of the binary's harness (test/conformance_test.go).
func TestConformance(t *testing.T) {
	for _, c := range conformancetest.Load(t, "../testdata/conformance", "admissionpolicy") {
		t.Run(c.ID, func(t *testing.T) {
			t.Parallel()
			conformancetest.RunDialect(t, c, Dialect{})
		})
	}
}
