// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// kubefleetFiles are examples/kubefleet's fleet, policies and resources,
// the inputs of a render of every cluster (the package also holds two
// functionConfigs, one per cluster, which render --all does not take).
func kubefleetFiles() []string {
	dir := filepath.Join(repoRoot, "examples", "kubefleet")
	return []string{filepath.Join(dir, "clusters.yaml"), filepath.Join(dir, "policies.yaml"), filepath.Join(dir, "resources.yaml")}
}

// TestKubeFleetFanOutTree renders every MemberCluster of
// examples/kubefleet with render --all -o DIR and holds the tree, one
// folder per cluster, comments kept, to testdata/examples/kubefleet/fan-out:
// member1 gets three replicas, its region and no debug-settings (Delete
// override); member2 its region and debug-settings.
func TestKubeFleetFanOutTree(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	_, stderr, code := runBinary(t, nil, append([]string{"render", "--all", "-o", out}, kubefleetFiles()...)...)
	require.Equal(t, 0, code, "stderr:\n%s", stderr)
	assert.Empty(t, string(stderr))
	compareGoldenTree(t, expected("kubefleet", "fan-out"), out)
}

// TestKubeFleetDiffReports runs apply-overrides diff on the KubeFleet
// example: each cluster against the input, and the example's policies
// (base) against testdata/diff/kubefleet-head/policies.yaml, where the
// placement no longer tolerates the canary cluster's taint (member2
// loses everything) and production runs four replicas. The reports are
// held to testdata/diff/expected/kubefleet*.md (-update rewrites them).
func TestKubeFleetDiffReports(t *testing.T) {
	files := kubefleetFiles()
	head := []string{files[0], filepath.Join(repoRoot, "testdata", "diff", "kubefleet-head", "policies.yaml"), files[2]}
	var base []string
	for _, f := range files {
		base = append(base, "--base", f)
	}
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"kubefleet.md", append([]string{"--all"}, files...)},
		{"kubefleet-revisions.md", append(append([]string{"--all"}, base...), head...)},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			stdout, stderr, code := runBinary(t, nil, append([]string{"diff"}, tc.args...)...)
			require.Equal(t, 0, code, "stderr:\n%s", stderr)
			assert.Empty(t, string(stderr))
			compareGolden(t, filepath.Join(repoRoot, "testdata", "diff", "expected", tc.golden), string(stdout))
		})
	}
}
