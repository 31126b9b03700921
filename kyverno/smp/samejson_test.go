// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package smp

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
)

// TestSameJSON checks that sameJSON is true only where the JSON views are
// equal, and true for the usual case: the same values written in
// different YAML styles and key orders.
func TestSameJSON(t *testing.T) {
	docs := []string{
		`{a: 1, b: [x, "y"], c: {d: null}}`,
		"c:\n  d: null\nb:\n- 'x'\n- y\na: 1 # one\n",
		`{a: 1.0, b: [x, y], c: {d: null}}`,
		`{a: "1", b: [x, y], c: {d: null}}`,
		`{a: 0x1, b: [x, y], c: {d: null}}`,
		`{a: 1, b: [y, x], c: {d: null}}`,
		`{a: 1, b: [x, y], c: {d: }}`,
		`{a: 1, b: [x, y], c: {d: null, e: 1}}`,
		`{a: 1, a2: &x [x, y], b: *x, c: {d: null}}`,
		`{a: 1, b: [x, y], c: {<<: {d: null}}}`,
		`{a: 1, b: [x, y], c: {d: null}, 1: z}`,
		`{"1": z, a: 1, b: [x, y], c: {d: null}}`,
		`{a: !!str 1, b: [x, y], c: {d: null}}`,
		`{a: true, b: [x, y], c: {d: null}}`,
		`{a: yes, b: [x, y], c: {d: null}}`,
		`{a: 1, b: [x, y], c: {d: !!binary aGk=}}`,
	}
	nodes := make([]*yaml.Node, len(docs))
	texts := make([]string, len(docs))
	for i, d := range docs {
		n, err := yaml.Parse(d)
		require.NoError(t, err)
		nodes[i] = n.YNode()
		if b, err := yamlnode.MarshalJSON(nodes[i]); err == nil {
			texts[i] = string(b)
		}
	}
	for i := range docs {
		for j := range docs {
			if sameJSON(nodes[i], nodes[j]) {
				assert.True(t, texts[i] != "" && texts[i] == texts[j], "%s vs %s", docs[i], docs[j])
			}
		}
	}
	assert.True(t, sameJSON(nodes[0], nodes[1]))
	assert.True(t, sameJSON(nodes[1], nodes[0]))
}
