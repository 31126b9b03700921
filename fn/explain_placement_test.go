// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExplainPlacement: with explain, each resource a placement policy
// sends to the cluster gets an info result naming the policy and, for a
// divided workload, the replicas written.
func TestExplainPlacement(t *testing.T) {
	data, err := os.ReadFile("../examples/kubeadmiral-placement/resourcelist.yaml")
	require.NoError(t, err)
	in := strings.Replace(string(data), "    cluster: kubeadmiral-member-1\n", "    cluster: kubeadmiral-member-1\n    explain: \"true\"\n", 1)
	require.Contains(t, in, `explain: "true"`)
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, Main(nil, strings.NewReader(in), &stdout, &stderr), stderr.String())
	out := stdout.String()
	assert.Contains(t, out, "cluster kubeadmiral-member-1: apps/v1 Deployment shop/web: placed by PropagationPolicy shop/web (scheduled), with 4 replica(s) written to spec.replicas")
	assert.Contains(t, out, "cluster kubeadmiral-member-1: apps/v1 StatefulSet shop/batch: placed by PropagationPolicy shop/prod-only (scheduled)")
	assert.NotContains(t, out, "ConfigMap shop/web-settings: placed", "a follower is placed by no policy of its own")
}
