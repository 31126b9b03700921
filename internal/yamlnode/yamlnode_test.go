// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlnode

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func TestResolveAndDeref(t *testing.T) {
	var doc yaml.Node
	require.NoError(t, yaml.Unmarshal([]byte("a: &x {k: v}\nb: *x\n"), &doc))
	m := doc.Content[0]
	alias := m.Content[3]
	require.Equal(t, yaml.AliasNode, alias.Kind)

	assert.Same(t, m, Resolve(&doc), "a document resolves to its content")
	assert.Same(t, &doc, Deref(&doc), "Deref leaves a document as it is")
	assert.Same(t, m.Content[1], Resolve(alias))
	assert.Same(t, m.Content[1], Deref(alias))
	assert.Nil(t, Resolve(nil))
	assert.Nil(t, Deref(nil))
	assert.Nil(t, Resolve(&yaml.Node{Kind: yaml.DocumentNode}), "an empty document")
	assert.Nil(t, Resolve(&yaml.Node{Kind: yaml.AliasNode}), "an alias without a target")
	assert.Nil(t, Deref(&yaml.Node{Kind: yaml.AliasNode}), "an alias without a target")
}

// TestHopLimit: a cycle of aliases, which only a hand-built tree can hold,
// ends at MaxAliasHops as a broken alias; a chain within the limit resolves.
func TestHopLimit(t *testing.T) {
	loop := &yaml.Node{Kind: yaml.AliasNode}
	loop.Alias = loop
	assert.Nil(t, Resolve(loop))
	assert.Nil(t, Deref(loop))
	assert.True(t, IsNull(loop))

	value := &yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagString, Value: "v"}
	chain := value
	for range MaxAliasHops {
		chain = &yaml.Node{Kind: yaml.AliasNode, Alias: chain}
	}
	assert.Same(t, value, Resolve(chain))
	assert.Same(t, value, Deref(chain))
	chain = &yaml.Node{Kind: yaml.AliasNode, Alias: chain}
	assert.Nil(t, Resolve(chain))
	assert.Nil(t, Deref(chain))
}

func TestIsNull(t *testing.T) {
	for in, want := range map[string]bool{"~": true, "null": true, "": true, "'null'": false, "0": false, "{}": false} {
		var doc yaml.Node
		require.NoError(t, yaml.Unmarshal([]byte("k: "+in+"\n"), &doc))
		assert.Equal(t, want, IsNull(doc.Content[0].Content[1]), in)
	}
	assert.True(t, IsNull(nil))
	assert.True(t, IsNull(&yaml.Node{Kind: yaml.DocumentNode}), "an empty document is null")
}

func TestJSONKind(t *testing.T) {
	for in, want := range map[string]string{"{}": "object", "[]": "array", "true": "boolean", "3": "number",
		"1.5": "number", "~": "null", "x": "string", "'3'": "string"} {
		var doc yaml.Node
		require.NoError(t, yaml.Unmarshal([]byte("k: "+in+"\n"), &doc))
		assert.Equal(t, want, JSONKind(doc.Content[0].Content[1]), in)
	}
}
