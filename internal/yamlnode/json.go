// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlnode

import (
	"encoding/json"
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// MarshalJSON returns n's JSON text, equal to yaml.NewRNode(n).MarshalJSON()
// (where go-yaml's emitter writes every block scalar right: see
// BlockScalarsSafe), without kyaml's detour through YAML text: kyaml encodes the node to a
// string and parses it again before decoding, which for a policy engine
// that reads a resource as JSON after every rule is most of the cost. The
// node is decoded directly instead (go-yaml resolves scalars, anchors and
// aliases the same way on nodes as on text).
//
// This is the node → JSON direction. Package yamlpatch's kindOf only
// classifies a node as a JSON type for the patch engine; the JSON → node
// readers (kyverno/jsonpatch's valueNode, kyverno/smp's parseJSON) build
// nodes in the styles their callers need.
//
// A node edited in memory can carry a tag its style contradicts (a !!bool
// written quoted): the text detour turns it into a string, decoding the node
// would not. Such trees take kyaml's path, after BlockScalarsSafe.
func MarshalJSON(n *yaml.Node) ([]byte, error) {
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if !consistent(n, 0) {
		return yaml.NewRNode(BlockScalarsSafe(n)).MarshalJSON()
	}
	if n != nil && n.Kind == yaml.SequenceNode {
		var a []any
		if err := n.Decode(&a); err != nil {
			return nil, fmt.Errorf("decode the sequence: %w", err)
		}
		return json.Marshal(a)
	}
	m := map[string]any{}
	if n != nil && !(n.Kind == yaml.ScalarNode && n.ShortTag() == yaml.NodeTagNull) {
		if err := n.Decode(&m); err != nil {
			return nil, fmt.Errorf("decode the mapping: %w", err)
		}
	}
	return json.Marshal(m)
}

// consistent reports whether decoding the tree gives what encoding it to
// text and parsing that back would: no scalar is written in a style that
// changes its type, and no tag is forced.
func consistent(n *yaml.Node, depth int) bool {
	if n == nil || depth > 10000 {
		return n == nil
	}
	if n.Style&yaml.TaggedStyle != 0 {
		return false
	}
	if n.Kind == yaml.ScalarNode {
		quoted := n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0
		return !quoted || n.ShortTag() == yaml.NodeTagString
	}
	if n.Kind == yaml.AliasNode {
		return true // the anchored node is checked where it stands
	}
	for _, c := range n.Content {
		if !consistent(c, depth+1) {
			return false
		}
	}
	return true
}
