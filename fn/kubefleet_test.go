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

// TestKubeFleetNeedsNoClusterForNamespaces: a Namespace is a resource a
// KubeFleet placement reads, not a KubeFleet object, so an input of
// Kyverno policies, Namespaces and resources still renders without a
// cluster.
func TestKubeFleetNeedsNoClusterForNamespaces(t *testing.T) {
	in := `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: Namespace
  metadata: {name: prod}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: c, namespace: prod}
- apiVersion: kyverno.io/v1
  kind: ClusterPolicy
  metadata: {name: p}
  spec:
    rules:
    - name: r
      match: {any: [{resources: {kinds: [ConfigMap]}}]}
      mutate: {patchStrategicMerge: {metadata: {labels: {x: y}}}}
`
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, Main(nil, strings.NewReader(in), &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), `labels: {x: "y"}`)
}

// TestKubeFleetExampleFanOut: fan-out renders both MemberClusters of the
// KubeFleet example in one run, each with its own region, and the Delete
// override keeps the debug ConfigMap out of member1 only.
func TestKubeFleetExampleFanOut(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nfunctionConfig:\n  apiVersion: apply-overrides.dev/v1alpha1\n  kind: ApplyOverrides\n  metadata: {name: x}\n  spec: {render: {clusters: ['*']}}\nitems:\n")
	for _, f := range []string{"clusters.yaml", "policies.yaml", "resources.yaml"} {
		data, err := os.ReadFile("../examples/kubefleet/" + f)
		require.NoError(t, err)
		for _, doc := range strings.Split(string(data), "\n---\n") {
			b.WriteString("- " + strings.ReplaceAll(strings.TrimSpace(doc), "\n", "\n  ") + "\n")
		}
	}
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, Main(nil, strings.NewReader(b.String()), &stdout, &stderr), stderr.String())
	out := stdout.String()
	assert.Contains(t, out, "value: eastus # the cluster's region label")
	assert.Contains(t, out, "value: westus # the cluster's region label")
	assert.Contains(t, out, "path: 'member2/shop/configmap_debug-settings.yaml'")
	assert.NotContains(t, out, "path: 'member1/shop/configmap_debug-settings.yaml'", "the Delete override keeps it out of member1")
}
