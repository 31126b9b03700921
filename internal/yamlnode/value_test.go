// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlnode

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// viaText is what ObjectValue must equal: the JSON text decoded.
func viaText(t testing.TB, n *yaml.Node) (map[string]any, bool) {
	b, err := MarshalJSON(n)
	if err != nil {
		return nil, false
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil || m == nil {
		return nil, false
	}
	return m, true
}

var objectValueSeeds = []string{
	"a: b\nc: [1, 2.5, -3, 1e3, .5, true, False, ~, null, '', \"x\"]\n",
	"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web # c\n  labels: {a: 'yes', b: \"1\"}\nspec:\n  replicas: 3\n  template: {}\n  list: []\n",
	"a: 007\nb: 0x1F\nc: 1_000\nd: -0\ne: +5\nf: .inf\ng: .nan\nh: 2024-01-01\ni: !!binary aGk=\nj: !custom x\n",
	"a: &x {b: 1}\nc: *x\n",
	"a: 1\na: 2\n",
	"<<: {a: 1}\nb: 2\n",
	"1: a\n",
	"a: 123456789012345678\nb: -0.0\nc: 1.\nd: 1e400\n",
	"a: |\n  text\nb: >\n  folded\n",
	"- a\n",
	"a: !!str 1\nb: !!int \"1\"\n",
}

// TestObjectValue: where ObjectValue answers, it is the JSON text decoded.
func TestObjectValue(t *testing.T) {
	answered := 0
	for _, doc := range objectValueSeeds {
		n, err := yaml.Parse(doc)
		require.NoError(t, err, doc)
		got, ok := ObjectValue(n.YNode())
		if !ok {
			continue
		}
		answered++
		want, wok := viaText(t, n.YNode())
		require.True(t, wok, "ObjectValue answers where the JSON text fails: %s", doc)
		assert.Equal(t, want, got, doc)
		checkInt64(t, n.YNode(), got)
	}
	assert.GreaterOrEqual(t, answered, 3)
	n, err := yaml.Parse("a: 1\nb: x\n")
	require.NoError(t, err)
	n.YNode().Content[1].Style = yaml.DoubleQuotedStyle // a quoted !!int: the text path's business
	_, ok := ObjectValue(n.YNode())
	assert.False(t, ok)
}

func FuzzObjectValue(f *testing.F) {
	for _, s := range objectValueSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		n, err := yaml.Parse(doc)
		if err != nil {
			return
		}
		got, ok := ObjectValue(n.YNode())
		if !ok {
			return
		}
		want, wok := viaText(t, n.YNode())
		require.True(t, wok, "ObjectValue answers where the JSON text fails")
		require.Equal(t, want, got)
		checkInt64(t, n.YNode(), got)
	})
}

// checkInt64: ObjectValueInt64 answers where ObjectValue does, with
// every integral float64 of its answer an int64 (what Kyverno's engine
// holds) and everything else the same.
func checkInt64(t testing.TB, n *yaml.Node, floats map[string]any) {
	ints, ok := ObjectValueInt64(n)
	require.True(t, ok)
	var want func(v any) any
	want = func(v any) any {
		switch v := v.(type) {
		case float64:
			if v == math.Trunc(v) && v >= math.MinInt64 && v < math.MaxInt64 {
				return int64(v)
			}
		case map[string]any:
			out := make(map[string]any, len(v))
			for k, e := range v {
				out[k] = want(e)
			}
			return out
		case []any:
			out := make([]any, len(v))
			for i, e := range v {
				out[i] = want(e)
			}
			return out
		}
		return v
	}
	require.Equal(t, want(floats), any(ints))
}
