// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package test

import (
	"path/filepath"
	"testing"

	"github.com/apply-overrides/apply-overrides/internal/conformancetest"
)

// TestConformance runs every case of testdata/conformance (see
// testdata/conformance/FORMAT.md) through the binary. The same cases run
// in process in package fn, and per dialect in packages karmada and
// kubeadmiral; the case loading, the ResourceList and the expectations
// (the divergences from upstream included) are
// internal/conformancetest's.
func TestConformance(t *testing.T) {
	for _, c := range conformancetest.SplitAll(conformancetest.Load(t, filepath.Join(repoRoot, "testdata", "conformance"))) {
		t.Run(c.ID, func(t *testing.T) {
			t.Parallel()
			c.Diverge(t)
			stdout, stderr, code := runBinary(t, conformancetest.ResourceList(t, c))
			conformancetest.CheckOutput(t, c, stdout, stderr, code)
		})
	}
}
