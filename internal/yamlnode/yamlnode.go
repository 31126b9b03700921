// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlnode

import "sigs.k8s.io/kustomize/kyaml/yaml"

// MaxAliasHops bounds the alias and document nodes Resolve and Deref step
// through before giving up. A parsed tree needs at most two (a document,
// then one alias: go-yaml gives an alias the anchored node itself, and an
// alias cannot carry an anchor, so aliases never chain); longer chains and
// cycles only come from nodes built by hand, and the bound keeps those from
// hanging a caller. Past it the node counts as a broken alias: nil.
const MaxAliasHops = 64

// Resolve follows alias nodes and unwraps document nodes, returning the
// node that holds the value: nil for nil, an empty document, an alias
// without a target, or a chain longer than MaxAliasHops.
func Resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && i < MaxAliasHops; i++ {
		switch n.Kind {
		case yaml.AliasNode:
			n = n.Alias
		case yaml.DocumentNode:
			if len(n.Content) == 0 {
				return nil
			}
			n = n.Content[0]
		default:
			return n
		}
	}
	if n != nil && (n.Kind == yaml.AliasNode || n.Kind == yaml.DocumentNode) {
		return nil
	}
	return n
}

// Deref follows alias nodes only (a document node is returned as it is),
// with Resolve's limit: nil for a chain longer than MaxAliasHops or an
// alias without a target.
func Deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && i < MaxAliasHops; i++ {
		if n.Kind != yaml.AliasNode {
			return n
		}
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return nil
	}
	return n
}

// IsNull reports whether n, resolved, is absent or a YAML null (`~`,
// `null`, nothing).
func IsNull(n *yaml.Node) bool {
	n = Resolve(n)
	return n == nil || IsNullScalar(n)
}

// IsNullScalar reports whether n itself is an explicit YAML null (`~`,
// `null`, empty): unlike IsNull it follows no alias and a nil n is not null.
func IsNullScalar(n *yaml.Node) bool {
	return n != nil && n.Kind == yaml.ScalarNode && n.ShortTag() == yaml.NodeTagNull
}

// MapGet returns the value of key in mapping m, or nil when m is not a
// mapping or has no such key. It reads keys the way a JSON object would:
// the first of duplicate keys counts. m and the value are Deref'd.
func MapGet(m *yaml.Node, key string) *yaml.Node {
	m = Deref(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return Deref(m.Content[i+1])
		}
	}
	return nil
}

// MaxExpandedNodes caps alias expansion, so an alias bomb (anchors that
// nest aliases of each other) cannot blow up memory.
const MaxExpandedNodes = 1 << 20

// JSONKind names the JSON type n stands for, the way the API server's
// validation messages name a value of the wrong type: object, array,
// boolean, number, null, or string for any other scalar.
func JSONKind(n *yaml.Node) string {
	switch {
	case n.Kind == yaml.MappingNode:
		return "object"
	case n.Kind == yaml.SequenceNode:
		return "array"
	case n.ShortTag() == yaml.NodeTagBool:
		return "boolean"
	case n.ShortTag() == yaml.NodeTagInt, n.ShortTag() == yaml.NodeTagFloat:
		return "number"
	case n.ShortTag() == yaml.NodeTagNull:
		return "null"
	}
	return "string"
}
