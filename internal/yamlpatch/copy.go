// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlpatch

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
)

// deepCopy returns an independent copy of n with every alias expanded (and
// anchors dropped), so the copy never shares nodes with its source. An alias
// node's own comments go to the copy of its target. A document node is
// unwrapped. It fails only on a cyclic structure.
func deepCopy(n *yaml.Node) (*yaml.Node, error) {
	return copyTree(n, map[*yaml.Node]bool{})
}

func copyTree(n *yaml.Node, onStack map[*yaml.Node]bool) (*yaml.Node, error) {
	if n == nil {
		return nil, nil
	}
	src := n
	if n.Kind == yaml.AliasNode || n.Kind == yaml.DocumentNode {
		if src = yamlnode.Resolve(n); src == nil {
			return newNull(), nil
		}
	}
	if onStack[src] {
		return nil, errCycle
	}
	onStack[src] = true
	defer delete(onStack, src)

	cp := &yaml.Node{
		Kind:        src.Kind,
		Style:       src.Style,
		Tag:         src.Tag,
		Value:       src.Value,
		HeadComment: src.HeadComment,
		LineComment: src.LineComment,
		FootComment: src.FootComment,
		Line:        src.Line,
		Column:      src.Column,
	}
	if n.Kind == yaml.AliasNode {
		takeComments(cp, n)
	}
	if len(src.Content) > 0 {
		cp.Content = make([]*yaml.Node, len(src.Content))
		for i, c := range src.Content {
			if src.Kind == yaml.MappingNode && i%2 == 0 {
				cp.Content[i] = copyKey(c)
				continue
			}
			cc, err := copyTree(c, onStack)
			if err != nil {
				return nil, err
			}
			cp.Content[i] = cc
		}
	}
	return cp, nil
}

// copyKey copies a mapping key. A key that is an alias or a collection
// (which may even refer back to its own mapping) becomes the string scalar
// it reads as in the JSON view.
func copyKey(k *yaml.Node) *yaml.Node {
	if k == nil {
		return nil
	}
	if k.Kind == yaml.ScalarNode {
		cp := *k
		cp.Anchor, cp.Content = "", nil
		return &cp
	}
	s := newString(keyString(k))
	takeComments(s, k)
	return s
}

// takeComments gives dst the comments of src; used when dst takes src's
// place, because comments describe the position rather than the value.
func takeComments(dst, src *yaml.Node) {
	dst.HeadComment = src.HeadComment
	dst.LineComment = src.LineComment
	dst.FootComment = src.FootComment
}

// dropComments clears n's own comments (not those of its children).
func dropComments(n *yaml.Node) {
	n.HeadComment, n.LineComment, n.FootComment = "", "", ""
}

// hasAlias reports whether the tree under n contains an alias node.
func hasAlias(n *yaml.Node) bool {
	return aliasBelow(n, 0)
}

// aliasBelow scans n's tree without bookkeeping: documents without aliases
// are trees, and this runs before every operation, so it must be cheap. A
// tree deeper than maxScanDepth (only a document that contains itself) is
// reported as aliased, which sends it down the careful path.
func aliasBelow(n *yaml.Node, depth int) bool {
	if n == nil {
		return false
	}
	if n.Kind == yaml.AliasNode || depth > maxScanDepth {
		return true
	}
	for _, c := range n.Content {
		if aliasBelow(c, depth+1) {
			return true
		}
	}
	return false
}

const maxScanDepth = 10000

// walk calls fn(parent, index, child) for every node below n, depth first,
// visiting each node once (documents can share nodes after a move of the
// root's self, see applier.self) and not descending into aliases. fn returns
// false to stop the walk.
func walk(n *yaml.Node, fn func(parent *yaml.Node, i int, child *yaml.Node) bool) {
	seen := map[*yaml.Node]bool{}
	var rec func(p *yaml.Node) bool
	rec = func(p *yaml.Node) bool {
		if p == nil || seen[p] {
			return true
		}
		seen[p] = true
		for i := 0; i < len(p.Content); i++ {
			c := p.Content[i]
			if c == nil {
				continue
			}
			if !fn(p, i, c) {
				return false
			}
			if c = p.Content[i]; c.Kind != yaml.AliasNode && !rec(c) {
				return false
			}
		}
		return true
	}
	rec(n)
}
