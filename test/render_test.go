// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// TestRenderCommand runs apply-overrides render through the binary on the
// examples: its stdout is what `kpt fn eval -o unwrap` prints, its -o DIR
// what `kpt fn eval --output DIR` writes.
func TestRenderCommand(t *testing.T) {
	out, stderr, code := runBinary(t, nil, "render", "--cluster", "member1", filepath.Join(repoRoot, "examples", "kpt-eval"))
	require.Equal(t, 0, code, "stderr:\n%s", stderr)
	assert.Empty(t, string(stderr))
	want, err := os.ReadFile(expected("kpt-eval", "member1.yaml"))
	require.NoError(t, err)
	assert.Equal(t, string(want), string(out))

	dir := filepath.Join(t.TempDir(), "fan-out")
	out, stderr, code = runBinary(t, nil, "render", "--all", "-o", dir, filepath.Join(repoRoot, "examples", "fan-out"))
	require.Equal(t, 0, code, "stderr:\n%s", stderr)
	assert.Empty(t, string(out))
	for _, c := range []string{"member1", "member2", "staging"} {
		want, err := os.ReadFile(expected("fan-out", "by-cluster", c, "resources.yaml"))
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join(dir, c, "resources.yaml"))
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), c)
	}

	_, stderr, code = runBinary(t, nil, "render", "--cluster", "member9", filepath.Join(repoRoot, "examples", "kpt-eval"))
	assert.Equal(t, 1, code)
	assert.Equal(t, "[error] cluster \"member9\" is not in the inventory; known clusters: member1, member2\n", string(stderr))
	_, _, code = runBinary(t, nil, "render", "--bogus")
	assert.Equal(t, 2, code)

	version, _, code := runBinary(t, nil, "--version")
	assert.Equal(t, 0, code)
	assert.Regexp(t, regexp.MustCompile(`^apply-overrides v\d+\.\d+\.\d+\S*\n$`), string(version))
}

// TestRenderKeepsBlockScalars runs render on plain manifests whose block
// scalars go-yaml's emitter writes wrongly (the resources of
// testdata/golden/block-scalars): every path that encodes them again
// (stdout and -o DIR) keeps their values.
func TestRenderKeepsBlockScalars(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "in", "resources.yaml")
	require.NoError(t, os.MkdirAll(filepath.Dir(file), 0o755))
	require.NoError(t, os.WriteFile(file, []byte(blockScalarManifests), 0o644))
	data := func(text []byte) map[string]string {
		t.Helper()
		nodes, err := kio.FromBytes(text)
		require.NoError(t, err, string(text))
		got := map[string]string{}
		for _, n := range nodes {
			if n.GetKind() == "ConfigMap" {
				got[n.GetName()] = dataOf(t, n)
			}
		}
		return got
	}
	want := data([]byte(blockScalarManifests))
	require.Len(t, want, 2)
	require.Contains(t, want["changed"], `"first line\n  more indented\nlast\n"`)

	out, stderr, code := runBinary(t, nil, "render", "--cluster", "member1", file)
	require.Equal(t, 0, code, "stderr:\n%s", stderr)
	assert.Equal(t, want, data(out), string(out))
	outDir := filepath.Join(dir, "out")
	_, stderr, code = runBinary(t, nil, "render", "--cluster", "member1", "-o", outDir, file)
	require.Equal(t, 0, code, "stderr:\n%s", stderr)
	written, err := os.ReadFile(filepath.Join(outDir, "resources.yaml"))
	require.NoError(t, err)
	assert.Equal(t, want, data(written), string(written))
}

const blockScalarManifests = `apiVersion: v1
kind: ConfigMap
metadata:
  name: changed # a label is added
  namespace: default
data:
  # head comment on a folded scalar with a more-indented line
  script: >
    first line
      more indented
    last
  kept: >+ # keep chomping: two trailing line breaks
    a

  tab: |2-
    	starts with a tab
  plain: >- # folds fine, stays folded
    one
    two
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: untouched # no policy selects it
  namespace: default
data:
  script: >
    first line
      more indented
    last
---
apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata:
  name: label
  namespace: default
spec:
  resourceSelectors:
  - apiVersion: v1
    kind: ConfigMap
    name: changed
  overrideRules:
  - targetCluster:
      clusterNames: [member1]
    overriders:
      labelsOverrider:
      - operator: add
        value: {tier: web}
---
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: member1
`

// dataOf is a ConfigMap's data as JSON (the values, whatever their style),
// decoded from the nodes (kyaml's MarshalJSON would encode them as YAML
// first).
func dataOf(t *testing.T, n *yaml.RNode) string {
	t.Helper()
	data, err := n.Pipe(yaml.Lookup("data"))
	require.NoError(t, err)
	require.NotNil(t, data)
	var v map[string]string
	require.NoError(t, data.YNode().Decode(&v))
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}
