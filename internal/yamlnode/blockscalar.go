// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlnode

import (
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// BlockScalarsSafe returns n ready to be encoded by go-yaml without
// changing a block scalar's value: n itself when nothing in it needs a
// change (the common case, with nothing copied), otherwise a deep copy in
// which each block scalar go-yaml's emitter would write wrongly has another
// style. The emitter
//   - misplaces line breaks, in a folded (`>`) scalar, around more-indented
//     lines ("a\n  b" comes back as "a\n\n  b", " a\nb\nc" as " a\nb c")
//     and at the end of a value that ends in blank lines ("a\n\n" comes
//     back as "a\n\n\n"): such a scalar is written literal (`|`), which
//     keeps them;
//   - writes a folded or literal value that starts with a tab without the
//     indentation indicator it needs, so the text does not parse back: such
//     a scalar is written double-quoted.
//
// kyaml, kpt and kustomize write such values wrongly when they write a
// resource. n is never changed, so nodes that several goroutines encode at
// once may be passed.
func BlockScalarsSafe(n *yaml.Node) *yaml.Node {
	if !hasLossyBlock(n, 0) {
		return n
	}
	c := yaml.CopyYNode(n)
	restyle(c, 0)
	return c
}

// BlockScalarsSafeRNodes is BlockScalarsSafe over a list: the list itself
// when no item changes, otherwise a new list with the changed items' copies.
func BlockScalarsSafeRNodes(items []*yaml.RNode) []*yaml.RNode {
	var out []*yaml.RNode
	for i, it := range items {
		n := BlockScalarsSafe(it.YNode())
		if n == it.YNode() {
			if out != nil {
				out = append(out, it)
			}
			continue
		}
		if out == nil {
			out = append(make([]*yaml.RNode, 0, len(items)), items[:i]...)
		}
		out = append(out, yaml.NewRNode(n))
	}
	if out == nil {
		return items
	}
	return out
}

// safeStyle is the style a scalar of style s holding v is written in: s
// itself unless go-yaml's emitter would write v wrongly in it.
func safeStyle(s yaml.Style, v string) yaml.Style {
	block := s & (yaml.FoldedStyle | yaml.LiteralStyle)
	switch {
	case block == 0:
		return s
	case strings.HasPrefix(v, "\t"):
		return s&^block | yaml.DoubleQuotedStyle
	case block&yaml.FoldedStyle != 0 && (strings.HasPrefix(v, " ") || strings.Contains(v, "\n ") || strings.Contains(v, "\n\t") || strings.HasSuffix(v, "\n\n")):
		return s&^block | yaml.LiteralStyle
	}
	return s
}

func hasLossyBlock(n *yaml.Node, depth int) bool {
	if n == nil || depth > maxDepth {
		return false
	}
	if n.Kind == yaml.ScalarNode {
		return safeStyle(n.Style, n.Value) != n.Style
	}
	for _, c := range n.Content {
		if hasLossyBlock(c, depth+1) {
			return true
		}
	}
	return false
}

func restyle(n *yaml.Node, depth int) {
	if n == nil || depth > maxDepth {
		return
	}
	if n.Kind == yaml.ScalarNode {
		n.Style = safeStyle(n.Style, n.Value)
		return
	}
	for _, c := range n.Content {
		restyle(c, depth+1)
	}
}

// maxDepth bounds the walk (an alias node's target is not followed, so a
// parsed tree has no cycle; hand-built ones stop here).
const maxDepth = 10000
