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
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"
	"sigs.k8s.io/kustomize/kyaml/yaml"
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

// kubefleetExample is examples/kubefleet's fleet, policies and resources
// as a ResourceList with the path and index annotations kpt gives them,
// under a typed functionConfig with the given spec.
func kubefleetExample(t *testing.T, spec string) string {
	t.Helper()
	nodes, err := (&kio.LocalPackageReader{
		PackagePath: "../examples/kubefleet", PreserveSeqIndent: true,
		MatchFilesGlob: []string{"clusters.yaml", "policies.yaml", "resources.yaml"},
	}).Read()
	require.NoError(t, err)
	require.Len(t, nodes, 8)
	fc, err := yaml.Parse("apiVersion: apply-overrides.dev/v1alpha1\nkind: ApplyOverrides\nmetadata: {name: x}\nspec: " + spec + "\n")
	require.NoError(t, err)
	var b strings.Builder
	w := kio.ByteWriter{Writer: &b, KeepReaderAnnotations: true, WrappingAPIVersion: "config.kubernetes.io/v1", WrappingKind: "ResourceList", FunctionConfig: fc}
	require.NoError(t, w.Write(nodes))
	return b.String()
}

// mainItems runs Main on a ResourceList and returns the output's items.
func mainItems(t *testing.T, in string) []*yaml.RNode {
	t.Helper()
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, Main(nil, strings.NewReader(in), &stdout, &stderr), stderr.String())
	items, err := kio.FromBytes(stdout.Bytes())
	require.NoError(t, err)
	return items
}

// TestKubeFleetFanOutMatchesSingleRuns renders every MemberCluster of
// examples/kubefleet in one fan-out run and holds each cluster's copies
// to a run of that cluster on its own: the same items in the same order,
// comments included, once the path and index annotations that fan-out
// rewrites ({cluster}/{path}) are set aside.
func TestKubeFleetFanOutMatchesSingleRuns(t *testing.T) {
	pathKeys := []string{kioutil.PathAnnotation, kioutil.LegacyPathAnnotation, kioutil.IndexAnnotation, kioutil.LegacyIndexAnnotation}
	text := func(n *yaml.RNode) string {
		n = n.Copy()
		for _, k := range pathKeys {
			require.NoError(t, n.PipeE(yaml.ClearAnnotation(k)))
		}
		require.NoError(t, yaml.ClearEmptyAnnotations(n))
		return n.MustString()
	}
	byCluster := map[string][]string{}
	for _, n := range mainItems(t, kubefleetExample(t, "{render: {clusters: ['*']}}")) {
		p := n.GetAnnotations()[kioutil.PathAnnotation]
		cluster, _, ok := strings.Cut(p, "/")
		require.True(t, ok, "%s: path %q names its cluster", n.GetName(), p)
		byCluster[cluster] = append(byCluster[cluster], text(n))
	}
	require.Len(t, byCluster, 2)
	for _, cluster := range []string{"member1", "member2"} {
		var single []string
		for _, n := range mainItems(t, kubefleetExample(t, "{cluster: "+cluster+"}")) {
			single = append(single, text(n))
		}
		assert.Equal(t, single, byCluster[cluster], cluster)
	}
	assert.Contains(t, strings.Join(byCluster["member1"], ""), "value: eastus # the cluster's region label")
	assert.Contains(t, strings.Join(byCluster["member2"], ""), "value: westus # the cluster's region label")
	assert.Len(t, byCluster["member1"], 2, "the Delete override keeps debug-settings out of member1")
	assert.Len(t, byCluster["member2"], 3)
}

// TestKubeFleetWarningsSecondRun renders testdata/warnings/kubefleet.yaml
// for member1 with keepPolicies and renders the output again, as kpt fn
// render does: the second run changes no item and warns about nothing
// the first did not.
func TestKubeFleetWarningsSecondRun(t *testing.T) {
	data, err := os.ReadFile("../testdata/warnings/kubefleet.yaml")
	require.NoError(t, err)
	in := strings.Replace(string(data), "    render:\n      clusters: ['*']\n", "    cluster: member1\n    keepPolicies: true\n", 1)
	require.NotEqual(t, string(data), in)
	run := func(in string) (string, string) {
		var stdout, stderr bytes.Buffer
		require.Equal(t, 0, Main(nil, strings.NewReader(in), &stdout, &stderr), stderr.String())
		return stdout.String(), stderr.String()
	}
	first, firstWarnings := run(in)
	require.Contains(t, firstWarnings, "ResourcePlacement shop/cache claims no resource")
	second, secondWarnings := run(first)
	for _, line := range strings.SplitAfter(secondWarnings, "\n") {
		assert.Contains(t, firstWarnings, line, "a warning the first run did not give")
	}
	items := func(out string) string { return strings.Split(out, "\nresults:")[0] }
	assert.Equal(t, items(first), items(second), "the second run changes nothing")
}

// TestKubeFleetPlanErrorOnce: a placement's error is the fleet's, not a
// cluster's, so a fan-out run over two clusters reports it once.
func TestKubeFleetPlanErrorOnce(t *testing.T) {
	in := kubefleetExample(t, "{render: {clusters: ['*']}}")
	bad := strings.Replace(in, "- {group: \"\", version: v1, kind: Namespace, name: shop}", "- {group: apps, version: v1, kind: Deployment, name: web}", 1)
	require.NotEqual(t, in, bad)
	var stdout, stderr bytes.Buffer
	require.Equal(t, 1, Main(nil, strings.NewReader(bad), &stdout, &stderr))
	assert.Equal(t, "[error] ClusterResourcePlacement shop: spec.resourceSelectors[0]: cannot select namespace-scoped resource Deployment in a clusterResourcePlacement: select its Namespace, or use a ResourcePlacement (file policies.yaml)\n", stderr.String())
}
