// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubefleet

import (
	"testing"

	"github.com/apply-overrides/apply-overrides/internal/conformancetest"
)

// TestConformance runs the KubeFleet conformance cases
// (testdata/conformance/kubefleet) through this dialect alone: a case with
// one cluster as RunDialect does, a fleet case (clusters,
// expectedClusters) once per cluster as RunDialectPlacement does.
func TestConformance(t *testing.T) {
	for _, c := range conformancetest.SplitAll(conformancetest.Load(t, "../testdata/conformance", "kubefleet")) {
		t.Run(c.ID, func(t *testing.T) {
			t.Parallel()
			if c.Clusters != nil {
				conformancetest.RunDialectPlacement(t, c, Dialect{})
				return
			}
			conformancetest.RunDialect(t, c, Dialect{})
		})
	}
}
