// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubeadmiral

import (
	"testing"

	"github.com/apply-overrides/apply-overrides/internal/conformancetest"
)

// TestConformance runs the KubeAdmiral conformance cases
// (testdata/conformance/kubeadmiral) through this
// dialect alone: Claims, Compile for the case's cluster, and policy.Apply
// on each resource, with the expectations of the binary's harness
// (test/conformance_test.go). A failure here that the binary does not show
// is in fn; one both show is most likely here.
func TestConformance(t *testing.T) {
	for _, c := range conformancetest.Load(t, "../testdata/conformance", "kubeadmiral") {
		t.Run(c.ID, func(t *testing.T) {
			t.Parallel()
			conformancetest.RunDialect(t, c, Dialect{})
		})
	}
}

// TestPlacementConformance runs the KubeAdmiral placement cases
// (testdata/conformance/placement, system kubeadmiral) through this dialect
// alone, one run per cluster (conformancetest.RunDialectPlacement).
func TestPlacementConformance(t *testing.T) {
	conformancetest.RunPlacementCases(t, "../testdata/conformance", "kubeadmiral", Dialect{})
}
