// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/resourcelist"
)

// packageList reads the YAML files of an example package into a
// ResourceList with the given functionConfig, each item with the path and
// index annotations kpt gives it.
func packageList(t *testing.T, dir, fc string) []byte {
	t.Helper()
	nodes, err := (&kio.LocalPackageReader{PackagePath: dir, PreserveSeqIndent: true}).Read()
	require.NoError(t, err)
	fcNode, err := yaml.Parse(fc)
	require.NoError(t, err)
	var out strings.Builder
	w := kio.ByteWriter{Writer: &out, KeepReaderAnnotations: true, WrappingAPIVersion: "config.kubernetes.io/v1", WrappingKind: "ResourceList", FunctionConfig: fcNode}
	require.NoError(t, w.Write(nodes))
	return []byte(out.String())
}

// fanOutConfig is a typed functionConfig with the given spec.
func fanOutConfig(spec string) string {
	return "apiVersion: apply-overrides.dev/v1alpha1\nkind: ApplyOverrides\nmetadata: {name: fan-out}\nspec:\n" + spec
}

// outputItems runs the whole-list path and returns the output's items as
// nodes and the results' messages.
func outputItems(t *testing.T, data []byte) ([]*yaml.RNode, []string) {
	t.Helper()
	in, err := resourcelist.Parse(data, listOptions)
	require.NoError(t, err)
	var buf bytes.Buffer
	results, ok := executeList(in, &buf)
	require.True(t, ok, "%v", results)
	var messages []string
	for _, r := range results {
		messages = append(messages, r.Message)
	}
	return listOf(t, buf.String()), messages
}

func listOf(t *testing.T, list string) []*yaml.RNode {
	t.Helper()
	out, err := yaml.Parse(list)
	require.NoError(t, err)
	items, err := out.Pipe(yaml.Lookup("items"))
	require.NoError(t, err)
	var nodes []*yaml.RNode
	for _, n := range items.Content() {
		nodes = append(nodes, yaml.NewRNode(n))
	}
	return nodes
}

// withoutPathAnnotations is an item's text, comments included, without the
// four annotations fan-out rewrites.
func withoutPathAnnotations(t *testing.T, n *yaml.RNode) string {
	t.Helper()
	n = n.Copy()
	for _, k := range append(append([]string{}, pathAnnotations...), indexAnnotations...) {
		require.NoError(t, n.PipeE(yaml.ClearAnnotation(k)))
	}
	require.NoError(t, yaml.ClearEmptyAnnotations(n))
	return n.MustString()
}

// TestFanOutMatchesSingleRuns renders every cluster of two examples in one
// fan-out run and holds each cluster's copies to a run of that cluster on
// its own, item for item and comments included, once the path and index
// annotations fan-out rewrites are set aside; those must say
// <cluster>/<path> with indexes unique in each file.
func TestFanOutMatchesSingleRuns(t *testing.T) {
	stdin, err := os.ReadFile("../examples/stdin/resourcelist.yaml")
	require.NoError(t, err)
	cases := map[string]struct {
		data     []byte
		clusters []string
	}{
		"stdin": {
			data:     bytes.Replace(stdin, []byte("    cluster: member1\n"), []byte("    render: {clusters: [member2, member1]}\n"), 1),
			clusters: []string{"member2", "member1"},
		},
		"fan-out": {
			data:     packageList(t, "../examples/fan-out", fanOutConfig("  render: {clusters: ['*']}\n")),
			clusters: []string{"member1", "member2", "staging"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			items, _ := outputItems(t, tc.data)
			byCluster := map[string][]*yaml.RNode{}
			var order []string
			for _, n := range items {
				p := n.GetAnnotations()[pathAnnotations[0]]
				cluster, path, ok := strings.Cut(p, "/")
				require.True(t, ok, "%s: path %q", n.GetName(), p)
				assert.Equal(t, p, n.GetAnnotations()[pathAnnotations[1]], "both path annotations agree")
				assert.NotEmpty(t, path)
				if len(order) == 0 || order[len(order)-1] != cluster {
					require.NotContains(t, order, cluster, "each cluster's copies are together")
					order = append(order, cluster)
				}
				byCluster[cluster] = append(byCluster[cluster], n)
			}
			assert.Equal(t, tc.clusters, order, "clusters in the order given")
			for _, cluster := range tc.clusters {
				single := renderSingle(t, tc.data, cluster)
				got := byCluster[cluster]
				require.Len(t, got, len(single), cluster)
				seen := map[string]bool{}
				for i := range single {
					assert.Equal(t, withoutPathAnnotations(t, single[i]), withoutPathAnnotations(t, got[i]), "%s item %d", cluster, i)
					annos := got[i].GetAnnotations()
					key := annos[pathAnnotations[0]] + "#" + annos[indexAnnotations[0]]
					assert.False(t, seen[key], "%s: path and index %s twice", cluster, key)
					seen[key] = true
					assert.Equal(t, annos[indexAnnotations[0]], annos[indexAnnotations[1]])
				}
			}
		})
	}
}

// renderSingle renders one cluster of a fan-out input as a single run:
// spec.render replaced by spec.cluster.
func renderSingle(t *testing.T, data []byte, cluster string) []*yaml.RNode {
	t.Helper()
	in, err := resourcelist.Parse(data, listOptions)
	require.NoError(t, err)
	spec := in.FunctionConfig.Field("spec").Value
	require.NoError(t, spec.PipeE(yaml.Clear("render")))
	require.NoError(t, spec.PipeE(yaml.SetField("cluster", yaml.NewStringRNode(cluster))))
	var buf bytes.Buffer
	results, ok := executeList(in, &buf)
	require.True(t, ok, "%v", results)
	return listOf(t, buf.String())
}

// TestFanOutLayout holds the rules of a fan-out run's output: local
// configuration and kept policies once, at their own paths, before the
// copies; a copy of an item without a path under kyaml's default name
// (a Secret no placement sends, kept under keepPolicies as a single run
// keeps it);
// the clusterSelector filtering the names; the results per cluster, then
// one summary; and the streaming path handing the run over.
func TestFanOutLayout(t *testing.T) {
	data := packageList(t, "../examples/fan-out", fanOutConfig(`  keepPolicies: true
  render:
    clusters: ["*"]
    clusterSelector: {matchLabels: {env: prod}}
    pathTemplate: "rendered/{cluster}/{path}"
`))
	// An item with no path, and a local-config one.
	data = bytes.Replace(data, []byte("functionConfig:\n"), []byte(`- apiVersion: v1
  kind: Secret
  metadata: {name: token, namespace: shop}
- apiVersion: kpt.dev/v1
  kind: Kptfile
  metadata:
    name: fan-out
    annotations:
      config.kubernetes.io/local-config: "true"
      config.kubernetes.io/path: Kptfile
functionConfig:
`), 1)
	items, messages := outputItems(t, data)
	var got []string
	for _, n := range items {
		got = append(got, n.GetKind()+" "+n.GetName()+" @ "+n.GetAnnotations()[pathAnnotations[1]]+"#"+n.GetAnnotations()[indexAnnotations[1]])
	}
	assert.Equal(t, []string{
		"Cluster member1 @ clusters.yaml#0",
		"Cluster member2 @ clusters.yaml#1",
		"Cluster staging @ clusters.yaml#2",
		"PropagationPolicy web @ policies.yaml#0",
		"PropagationPolicy web-settings @ policies.yaml#1",
		"OverridePolicy web-settings @ policies.yaml#2",
		"Kptfile fan-out @ Kptfile#",
		"Deployment web @ rendered/member1/resources.yaml#0",
		"ConfigMap web-settings @ rendered/member1/resources.yaml#1",
		"Secret token @ rendered/member1/shop/secret_token.yaml#0",
		"Deployment web @ rendered/member2/resources.yaml#0",
		"ConfigMap web-settings @ rendered/member2/resources.yaml#1",
		"Secret token @ rendered/member2/shop/secret_token.yaml#0",
	}, got)
	assert.Equal(t, "member2", items[11].GetAnnotations()[ClusterAnnotation], "marked under keepPolicies, as a single run marks it")
	assert.Equal(t, "true", items[12].GetAnnotations()[localConfigAnnotation], "left out, and kept under keepPolicies, as a single run keeps it")
	assert.Equal(t, []string{
		"placement: cluster(s) member1, member2, staging carry no status.apiEnablements, so every API is taken as enabled there (Karmada's scheduler places nothing on a cluster that reports none); export the Cluster objects with their status (kubectl get clusters.cluster.karmada.io -o yaml) to filter by API",
		"cluster member1: applied 0 override rule(s) to 0 resource(s)",
		"cluster member1: placement sends it 2 of 3 resource(s)",
		"cluster member2: applied 1 override rule(s) to 1 resource(s)",
		"cluster member2: placement sends it 2 of 3 resource(s)",
		"v1 Secret shop/token is not placed on clusters member1, member2: no PropagationPolicy or ClusterPropagationPolicy selects it",
		"fan-out: rendered 2 cluster(s) (member1, member2): 6 resource copies under rendered/{cluster}/{path}",
	}, messages)

	var buf bytes.Buffer
	_, ok := stream(data, &buf)
	assert.False(t, ok, "a fan-out run takes the whole-list path")
	assert.Zero(t, buf.Len())
}

// TestFanOutErrors: what a fan-out run refuses, naming the field.
func TestFanOutErrors(t *testing.T) {
	dir := filepath.Join("..", "examples", "fan-out")
	for name, tc := range map[string]struct{ spec, want string }{
		"unknown cluster": {
			spec: "  render: {clusters: [member1, member9]}\n",
			want: `spec.render.clusters: cluster "member9" is not in the inventory; known clusters: member1, member2, staging`,
		},
		"selector selects none": {
			spec: "  render: {clusters: [member1, member2], clusterSelector: {matchLabels: {env: staging}}}\n",
			want: "spec.render.clusterSelector (env=staging) selects none of the clusters member1, member2: loosen the selector or name other clusters",
		},
		"path taken": {
			spec: "  keepPolicies: true\n  render: {clusters: ['*'], pathTemplate: '{cluster}.yaml'}\n" +
				"  clusters: [{name: policies}]\n",
			want: `spec.render.pathTemplate "{cluster}.yaml" puts cluster policies's copy of apps/v1 Deployment shop/web at policies.yaml, where the input already keeps policy.karmada.io/v1alpha1 OverridePolicy shop/web-settings: change the template so that the copies land elsewhere`,
		},
	} {
		t.Run(name, func(t *testing.T) {
			in, err := resourcelist.Parse(packageList(t, dir, fanOutConfig(tc.spec)), listOptions)
			require.NoError(t, err)
			var buf bytes.Buffer
			results, ok := executeList(in, &buf)
			require.False(t, ok)
			require.NotEmpty(t, results)
			assert.Equal(t, tc.want, results[len(results)-1].Message)
		})
	}
}
