// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

import (
	"testing"

	"github.com/apply-overrides/apply-overrides/internal/conformancetest"
)

// TestConformance runs the Karmada and ACK One conformance cases
// (testdata/conformance/karmada, testdata/conformance/ack-one) through this
// dialect alone: Claims, Compile for the case's cluster, and policy.Apply
// on each resource, with the expectations of the binary's harness
// (test/conformance_test.go). A failure here that the binary does not show
// is in fn; one both show is most likely here.
func TestConformance(t *testing.T) {
	for _, c := range conformancetest.Load(t, "../testdata/conformance", "karmada", "ack-one") {
		t.Run(c.ID, func(t *testing.T) {
			t.Parallel()
			conformancetest.RunDialect(t, c, Dialect{})
		})
	}
}

// TestPlacementConformance runs the placement cases
// (testdata/conformance/placement) through this dialect alone, one run per
// cluster: Compile, For with the fleet and the resources, the Placer, the
// revision and policy.Apply (conformancetest.RunDialectPlacement).
func TestPlacementConformance(t *testing.T) {
	conformancetest.RunPlacementCases(t, "../testdata/conformance", "karmada", Dialect{})
}
