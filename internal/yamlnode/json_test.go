// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlnode

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// TestMarshalMatchesKyaml compares with RNode.MarshalJSON on every item of
// the repository's test inputs and on YAML corner cases. RNode.MarshalJSON
// encodes the node as YAML first, so it goes through BlockScalarsSafe,
// without which it changes some block scalars' values (MarshalJSON reads
// the nodes and has no such trouble).
func TestMarshalMatchesKyaml(t *testing.T) {
	docs := []string{
		"a: 1\nb: 1.5\nc: 0x1F\nd: 1_000\ne: .inf\nf: ~\ng: ''\nh: yes\ni: 2001-12-14\nj: !!str 3\nk: [1, {x: y}]\n",
		"base: &b {x: 1}\nuse: *b\nmerged:\n  <<: *b\n  y: 2\n",
		"- 1\n- two\n- {three: 3}\n",
		"{}\n",
		"[]\n",
		"key: |\n  multi\n  line\n",
		"n: null\nempty:\nlist: []\n",
		"1: numeric key\n",
	}
	files, err := filepath.Glob("../../testdata/*/*/*.yaml")
	require.NoError(t, err)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		nodes, err := kio.FromBytes(b)
		if err != nil {
			continue
		}
		for _, n := range nodes {
			docs = append(docs, yaml.NewRNode(BlockScalarsSafe(n.YNode())).MustString())
		}
	}
	require.Greater(t, len(docs), 100)
	for _, d := range docs {
		n, err := yaml.Parse(d)
		require.NoError(t, err)
		want, wantErr := yaml.NewRNode(BlockScalarsSafe(n.YNode())).MarshalJSON()
		got, gotErr := MarshalJSON(n.YNode())
		if wantErr != nil {
			assert.Error(t, gotErr, d)
			continue
		}
		require.NoError(t, gotErr, d)
		assert.JSONEq(t, string(want), string(got), d)
		assert.Equal(t, string(want), string(got), d)
	}
}

// TestMarshalEditedNodes: nodes whose tag and style disagree read as the
// text they print.
func TestMarshalEditedNodes(t *testing.T) {
	n := yaml.MustParse("a: x\nb: 1\n")
	n.YNode().Content[1].Tag, n.YNode().Content[1].Value, n.YNode().Content[1].Style = yaml.NodeTagBool, "true", yaml.DoubleQuotedStyle
	n.YNode().Content[3].Style = yaml.SingleQuotedStyle
	want, err := n.MarshalJSON()
	require.NoError(t, err)
	got, err := MarshalJSON(n.YNode())
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))
	assert.JSONEq(t, `{"a":"true","b":"1"}`, string(got))
}
