// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package smp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// oracleCase is one line of testdata/oracle.jsonl: a resource and a patch
// with what Kyverno v1.19.1's patch.ProcessStrategicMergePatch returned
// for them (its output, its error, or the panic it raised), recorded by
// running the upstream package on the case.
type oracleCase struct {
	Name     string          `json:"name"`
	Resource any             `json:"resource"`
	YAML     string          `json:"yaml"`     // oracle_yaml.jsonl: the resource as written
	Fallback bool            `json:"fallback"` // the in-place merge disagrees (see TestOracleYAML)
	Patch    any             `json:"patch"`
	Out      json.RawMessage `json:"out"`
	Err      string          `json:"err"`
	Panic    string          `json:"panic"`
}

func readOracle(t *testing.T, path string) []oracleCase {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer func() { require.NoError(t, f.Close()) }()
	var cases []oracleCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var c oracleCase
		require.NoError(t, json.Unmarshal(sc.Bytes(), &c))
		cases = append(cases, c)
	}
	require.NoError(t, sc.Err())
	return cases
}

// TestOracle checks Apply against upstream's recorded results: same JSON,
// same changed flag, same error text; an error where upstream panicked.
// oracle.jsonl holds hand-written cases (anchors, pattern operators, merge
// strategies, directives, quirks), oracle_random.jsonl generated ones. The
// resource is given as block YAML, so the in-place merge is exercised too,
// and it must agree with upstream's on every case.
func TestOracle(t *testing.T) {
	start := fallbacks.Load()
	for _, file := range []string{"testdata/oracle.jsonl", "testdata/oracle_random.jsonl"} {
		for _, c := range readOracle(t, file) {
			t.Run(c.Name, func(t *testing.T) {
				checkOracle(t, c, nodeOf(t, c.Resource))
			})
		}
	}
	assert.Equal(t, start, fallbacks.Load(), "the in-place merge must agree with upstream's")
}

// TestOracleYAML runs generated cases whose resources are written with
// comments, flow and quoted styles, ~ and empty nulls, hex numbers,
// anchors, aliases and merge keys (the oracle saw their JSON view). Only
// the cases marked fallback (hex numbers used as merge keys, where kyaml
// compares key texts) may need the reconcile fallback.
func TestOracleYAML(t *testing.T) {
	for _, c := range readOracle(t, "testdata/oracle_yaml.jsonl") {
		t.Run(c.Name, func(t *testing.T) {
			node, err := yaml.Parse(c.YAML)
			require.NoError(t, err)
			start := fallbacks.Load()
			checkOracle(t, c, node)
			assert.Equal(t, c.Fallback, fallbacks.Load() != start, "fallback")
		})
	}
}

func checkOracle(t *testing.T, c oracleCase, node *yaml.RNode) {
	t.Helper()
	before := valueOf(t, node)
	changed, err := Apply(node, c.Patch)
	switch {
	case c.Panic != "":
		require.Error(t, err)
		assert.ErrorIs(t, err, errUpstreamCrash)
		assert.Equal(t, before, valueOf(t, node), "resource unchanged on error")
	case c.Err != "":
		require.Error(t, err)
		assert.Equal(t, c.Err, err.Error())
		assert.Equal(t, before, valueOf(t, node), "resource unchanged on error")
	default:
		require.NoError(t, err)
		var want any
		require.NoError(t, json.Unmarshal(c.Out, &want))
		assert.Equal(t, want, valueOf(t, node))
		assert.Equal(t, !assert.ObjectsAreEqual(before, want), changed, "changed")
	}
}

// TestOracleSteps applies patches in sequence, each to the previous result,
// as foreach entries and successive rules do (e.g. foreach SMP in
// Descending order restores the list order, Ascending reverses it), and
// compares every step with upstream's.
func TestOracleSteps(t *testing.T) {
	f, err := os.ReadFile("testdata/oracle_steps.jsonl")
	require.NoError(t, err)
	dec := json.NewDecoder(bytes.NewReader(f))
	start := fallbacks.Load()
	for dec.More() {
		var c struct {
			Name     string `json:"name"`
			Resource any    `json:"resource"`
			Patches  []any  `json:"patches"`
			Steps    []struct {
				Out json.RawMessage `json:"out"`
			} `json:"steps"`
		}
		require.NoError(t, dec.Decode(&c))
		t.Run(c.Name, func(t *testing.T) {
			node := nodeOf(t, c.Resource)
			for i, p := range c.Patches {
				_, err := Apply(node, p)
				require.NoError(t, err, "step %d", i)
				var want any
				require.NoError(t, json.Unmarshal(c.Steps[i].Out, &want))
				assert.Equal(t, want, valueOf(t, node), "step %d", i)
			}
		})
	}
	assert.Equal(t, start, fallbacks.Load())
}
