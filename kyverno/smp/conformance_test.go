// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package smp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// conformanceFile is one file of testdata/conformance: the SMP part of an
// upstream-confirmed conformance case.
type conformanceFile struct {
	Name  string `yaml:"name"`
	Steps []struct {
		Resource any   `yaml:"resource"`
		Patches  []any `yaml:"patches"`
		Expected any   `yaml:"expected"`
	} `yaml:"steps"`
}

// TestConformance applies the patches of each case in order and compares
// the result with upstream's as parsed YAML (list order and scalar types
// significant).
func TestConformance(t *testing.T) {
	files, err := filepath.Glob("testdata/conformance/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	start := fallbacks.Load()
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			raw, err := os.ReadFile(file)
			require.NoError(t, err)
			var c conformanceFile
			require.NoError(t, yaml.Unmarshal(raw, &c))
			for i, step := range c.Steps {
				node := nodeOf(t, step.Resource)
				changed := false
				for _, p := range step.Patches {
					ch, err := Apply(node, jsonOf(t, p))
					require.NoError(t, err, "step %d", i)
					changed = changed || ch
				}
				got := valueOf(t, node)
				want := jsonOf(t, step.Expected)
				assert.Equal(t, want, got, "step %d", i)
				assert.Equal(t, !assert.ObjectsAreEqual(jsonOf(t, step.Resource), want), changed, "step %d changed", i)
			}
		})
	}
	assert.Equal(t, start, fallbacks.Load(), "the in-place merge must agree with upstream's on every case")
}

// nodeOf renders v as block YAML and parses it.
func nodeOf(t *testing.T, v any) *yaml.RNode {
	t.Helper()
	b, err := yaml.Marshal(v)
	require.NoError(t, err)
	n, err := yaml.Parse(string(b))
	require.NoError(t, err)
	return n
}

// jsonOf converts a YAML-decoded value to a JSON value.
func jsonOf(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	var out any
	require.NoError(t, json.Unmarshal(b, &out))
	return out
}

// valueOf is the JSON value of a node.
func valueOf(t *testing.T, n *yaml.RNode) any {
	t.Helper()
	b, err := n.MarshalJSON()
	require.NoError(t, err)
	var out any
	require.NoError(t, json.Unmarshal(b, &out))
	return out
}
