// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/conformancetest"
)

var update = flag.Bool("update", false, "rewrite golden files from the actual output")

// TestGolden runs every testdata/golden/<case>/input.yaml ResourceList
// through the binary and compares stdout byte for byte with expected.yaml
// (comments included). A case that must fail has an expected exit code in
// exit-code.txt.
func TestGolden(t *testing.T) {
	for _, g := range conformancetest.LoadGolden(t, filepath.Join(repoRoot, "testdata", "golden")) {
		t.Run(g.Name, func(t *testing.T) {
			stdout, stderr, code := runBinary(t, g.Input)
			assert.Equal(t, g.WantCode, code, "stderr:\n%s", stderr)
			compareGolden(t, g.ExpectedPath, string(stdout))
		})
	}
}

// resourceListExamples are the examples that are a ResourceList to pipe in.
var resourceListExamples = []string{"stdin", "kubeadmiral", "kyverno", "admissionpolicy"}

// TestExampleResourceLists runs the examples that are a ResourceList (the
// `docker run -i` way) and compares with testdata/examples/<example>/output.yaml.
func TestExampleResourceLists(t *testing.T) {
	for _, ex := range resourceListExamples {
		t.Run(ex, func(t *testing.T) {
			input, err := os.ReadFile(filepath.Join(repoRoot, "examples", ex, "resourcelist.yaml"))
			require.NoError(t, err)
			stdout, stderr, code := runBinary(t, input)
			require.Equal(t, 0, code, "stderr:\n%s", stderr)
			compareGolden(t, expected(ex, "output.yaml"), string(stdout))
		})
	}
}

// TestIdempotent runs every example's input twice with keepPolicies: the
// second run must not change a single item.
func TestIdempotent(t *testing.T) {
	inputs := map[string][]byte{}
	for _, ex := range resourceListExamples {
		b, err := os.ReadFile(filepath.Join(repoRoot, "examples", ex, "resourcelist.yaml"))
		require.NoError(t, err)
		inputs[ex] = b
	}
	for _, pkg := range []string{"kpt-eval", "kpt-render", "kustomize"} {
		inputs[pkg] = packageResourceList(t, filepath.Join(repoRoot, "examples", pkg), "member1")
	}
	inputs["placement"] = packageResourceList(t, filepath.Join(repoRoot, "examples", "placement"), "c2b8f4e3a0d1")
	// Kyverno alone, no cluster: a JSON patch that appends must not append
	// twice.
	inputs["kyverno without a cluster"] = []byte(`apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: a, namespace: x}
- apiVersion: kyverno.io/v1
  kind: ClusterPolicy
  metadata: {name: p}
  spec:
    rules:
    - name: r
      match: {any: [{resources: {kinds: [ConfigMap]}}]}
      mutate:
        patchesJson6902: |-
          - op: add
            path: /metadata/finalizers/-
            value: x
functionConfig:
  apiVersion: apply-overrides.dev/v1alpha1
  kind: ApplyOverrides
  metadata: {name: f}
  spec: {}
`)
	for name, input := range inputs {
		t.Run(name, func(t *testing.T) {
			input = withKeepPolicies(t, input)
			first, stderr, code := runBinary(t, input)
			require.Equal(t, 0, code, "stderr:\n%s", stderr)
			second, stderr, code := runBinary(t, first)
			require.Equal(t, 0, code, "stderr:\n%s", stderr)
			assert.Equal(t, itemsOf(t, first), itemsOf(t, second))
			assert.NotEqual(t, itemsOf(t, input), itemsOf(t, first), "the example must change something")
		})
	}
}

// packageResourceList reads the YAML files of a package (as kpt fn source
// would) into a ResourceList with a ConfigMap functionConfig for member1.
func packageResourceList(t *testing.T, dir, cluster string) []byte {
	t.Helper()
	var nodes []*yaml.RNode
	for _, f := range []string{"resources.yaml", "policies.yaml", "clusters.yaml"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		require.NoError(t, err)
		ns, err := kio.FromBytes(b)
		require.NoError(t, err)
		nodes = append(nodes, ns...)
	}
	fc, err := yaml.Parse("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: function-input\ndata:\n  cluster: " + cluster + "\n")
	require.NoError(t, err)
	var out strings.Builder
	w := kio.ByteWriter{Writer: &out, WrappingAPIVersion: "config.kubernetes.io/v1", WrappingKind: "ResourceList", FunctionConfig: fc}
	require.NoError(t, w.Write(nodes))
	return []byte(out.String())
}

// withKeepPolicies sets keepPolicies in either form of functionConfig.
func withKeepPolicies(t *testing.T, rl []byte) []byte {
	t.Helper()
	n, err := yaml.Parse(string(rl))
	require.NoError(t, err)
	fc := n.Field("functionConfig").Value
	if fc.GetKind() == "ConfigMap" {
		require.NoError(t, fc.PipeE(yaml.LookupCreate(yaml.MappingNode, "data"), yaml.SetField("keepPolicies", yaml.NewStringRNode("true"))))
	} else {
		require.NoError(t, fc.PipeE(yaml.Lookup("spec"), yaml.SetField("keepPolicies", yaml.NewRNode(&yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagBool, Value: "true"}))))
	}
	return []byte(n.MustString())
}

func itemsOf(t *testing.T, rl []byte) string {
	t.Helper()
	n, err := yaml.Parse(string(rl))
	require.NoError(t, err)
	items := n.Field("items")
	require.NotNil(t, items)
	s, err := items.Value.String()
	require.NoError(t, err)
	return s
}

func compareGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file (run go test ./test -update)")
	assert.Equal(t, string(want), got)
}
