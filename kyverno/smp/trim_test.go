// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package smp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// applyBothWays applies patch to two parses of resource, with and without
// list trimming, and requires the same outcome: error text, changed flag,
// YAML text and in-place merge fallbacks.
func applyBothWays(t *testing.T, resource string, patch any) {
	t.Helper()
	run := func(trim bool) (out string, changed bool, errText string, fell int64) {
		trimming = trim
		defer func() { trimming = true }()
		node, err := yaml.Parse(resource)
		require.NoError(t, err)
		start := fallbacks.Load()
		changed, err = Apply(node, patch)
		if err != nil {
			errText = err.Error()
		}
		return node.MustString(), changed, errText, fallbacks.Load() - start
	}
	wantOut, wantChanged, wantErr, wantFell := run(false)
	gotOut, gotChanged, gotErr, gotFell := run(true)
	require.Equal(t, wantErr, gotErr, "error\nresource:\n%s\npatch: %v", resource, patch)
	require.Equal(t, wantOut, gotOut, "output\nresource:\n%s\npatch: %v", resource, patch)
	require.Equal(t, wantChanged, gotChanged, "changed")
	require.Equal(t, wantFell, gotFell, "fallbacks")
}

// TestTrimmingMatchesKyaml compares the trimmed merge with kyaml's own on
// every oracle case.
func TestTrimmingMatchesKyaml(t *testing.T) {
	for _, file := range []string{"testdata/oracle.jsonl", "testdata/oracle_random.jsonl", "testdata/oracle_yaml.jsonl"} {
		for _, c := range readOracle(t, file) {
			resource := c.YAML
			if resource == "" {
				resource = nodeOf(t, c.Resource).MustString()
			}
			applyBothWays(t, resource, c.Patch)
		}
	}
	f, err := os.ReadFile("testdata/oracle_steps.jsonl")
	require.NoError(t, err)
	dec := json.NewDecoder(bytes.NewReader(f))
	for dec.More() {
		var c struct {
			Resource any   `json:"resource"`
			Patches  []any `json:"patches"`
		}
		require.NoError(t, dec.Decode(&c))
		for _, p := range c.Patches {
			applyBothWays(t, nodeOf(t, c.Resource).MustString(), p)
		}
	}
}

// TestTrimmingRandom compares the trimmed merge with kyaml's own on
// generated Pods (duplicate, missing and null names, nested lists,
// nulls, YAML 1.1 words, comments, flow style) and patches (new and
// existing elements, $patch directives, nulls, nested lists).
func TestTrimmingRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 27))
	for range 800 {
		applyBothWays(t, randomPod(r), randomPatch(r))
	}
}

var (
	randomNames  = []string{"a", "b", "c", "d", "e", "f", "g", "yes", "1", "on", "x:y"}
	randomValues = []string{"v", "yes", "on", "1", "1.0", "~", "null", "x:y", "app:1.2", "a b", "true", "0x10", "nginx"}
)

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

func randomScalar(r *rand.Rand) string {
	v := pick(r, randomValues)
	switch r.IntN(4) {
	case 0:
		return fmt.Sprintf("%q", v)
	case 1:
		if v == "a b" || strings.Contains(v, ":") {
			return "'" + v + "'"
		}
	}
	return v
}

func randomPod(r *rand.Rand) string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n")
	for _, list := range []string{"containers", "volumes"} {
		n := r.IntN(8)
		if n == 0 && r.IntN(2) == 0 {
			continue
		}
		fmt.Fprintf(&b, "  %s:", list)
		if n == 0 {
			b.WriteString(" []\n")
			continue
		}
		b.WriteString("\n")
		names := r.Perm(len(randomNames))
		for i := range n {
			name := randomNames[names[i%len(names)]]
			if r.IntN(12) == 0 {
				name = pick(r, randomNames) // maybe a duplicate
			}
			switch r.IntN(20) {
			case 0:
				b.WriteString("  - image: nameless\n")
				continue
			case 1:
				b.WriteString("  - name: null\n")
				continue
			case 2:
				fmt.Fprintf(&b, "  - {name: %s, image: flow}\n", yamlWord(name))
				continue
			}
			fmt.Fprintf(&b, "  - name: %s", yamlWord(name))
			if r.IntN(5) == 0 {
				b.WriteString(" # a comment")
			}
			b.WriteString("\n")
			if list == "volumes" {
				fmt.Fprintf(&b, "    emptyDir: {medium: %s}\n", randomScalar(r))
				continue
			}
			if r.IntN(2) == 0 {
				fmt.Fprintf(&b, "    image: %s\n", randomScalar(r))
			}
			switch r.IntN(6) {
			case 0:
				b.WriteString("    tty: null\n")
			case 1:
				b.WriteString("    tty:\n")
			case 2:
				b.WriteString("    tty: ~\n")
			}
			if r.IntN(3) == 0 {
				b.WriteString("    env:\n")
				for range 1 + r.IntN(3) {
					fmt.Fprintf(&b, "    - name: %s\n      value: %s\n", pick(r, []string{"A", "B", "C"}), randomScalar(r))
				}
			}
			if r.IntN(4) == 0 {
				fmt.Fprintf(&b, "    args: [%s, %s]\n", randomScalar(r), randomScalar(r))
			}
			if r.IntN(4) == 0 {
				fmt.Fprintf(&b, "    ports:\n    - containerPort: %d\n", 80+r.IntN(2))
				if r.IntN(2) == 0 {
					b.WriteString("      protocol: TCP\n")
				}
			}
			if r.IntN(5) == 0 {
				fmt.Fprintf(&b, "    resources: {limits: {cpu: %s}}\n", randomScalar(r))
			}
		}
	}
	return b.String()
}

func yamlWord(s string) string {
	if strings.Contains(s, ":") {
		return "'" + s + "'"
	}
	return s
}

func randomPatch(r *rand.Rand) any {
	spec := map[string]any{}
	for _, list := range []string{"containers", "volumes"} {
		if r.IntN(3) == 0 {
			continue
		}
		var elems []any
		for range 1 + r.IntN(3) {
			e := map[string]any{}
			switch r.IntN(12) {
			case 0: // no name
			case 1:
				e["name"] = nil
			default:
				e["name"] = pick(r, randomNames)
			}
			switch r.IntN(10) {
			case 0:
				e["$patch"] = "delete"
			case 1:
				e["$patch"] = "replace"
			}
			if list == "volumes" {
				e["emptyDir"] = map[string]any{"medium": pick(r, randomValues)}
			} else {
				if r.IntN(2) == 0 {
					e["imagePullPolicy"] = pick(r, []any{"Always", nil, "yes", 1.0})
				}
				if r.IntN(3) == 0 {
					e["env"] = []any{map[string]any{"name": pick(r, []string{"A", "B", "D"}), "value": pick(r, randomValues)}}
				}
				if r.IntN(4) == 0 {
					e["tty"] = pick(r, []any{true, nil})
				}
			}
			elems = append(elems, e)
		}
		if r.IntN(15) == 0 {
			elems = append(elems, map[string]any{"$patch": "replace"})
		}
		spec[list] = elems
	}
	return map[string]any{"spec": spec}
}

// TestPlainWord checks that plainWord never calls a string a string where
// YAML 1.1 reads something else.
func TestPlainWord(t *testing.T) {
	words := []string{"c5", "registry.example.com/app:1.5", "a:", "yes", "Off", "x:y", "e5", "inf", "NaN", "nan", "a_b-c", "a:b:", "z", "n", "on"}
	chars := []byte("aeEnyxo0._/-: ")
	var gen func(prefix string, depth int)
	gen = func(prefix string, depth int) {
		if depth == 0 {
			return
		}
		for _, c := range chars {
			w := prefix + string(c)
			words = append(words, w)
			gen(w, depth-1)
		}
	}
	gen("", 4)
	for _, w := range words {
		if plainWord(w) {
			assert.False(t, yaml.IsValueNonString(w), "%q", w)
		}
	}
	assert.True(t, plainWord("registry.example.com/app:1.5"))
	assert.False(t, plainWord("yes"))
}
