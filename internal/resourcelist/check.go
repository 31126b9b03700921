// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package resourcelist

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// The limits every input is held to before any of it reaches a dialect or
// the patch engine. They are the one budget of the function: once the input
// is read, no node tree holds an alias, so every value a policy or an
// overrider sees is bounded by the input's size plus MaxAliasNodes.
const (
	// MaxInputBytes is the largest ResourceList the function reads (after
	// which it stops reading and reports the input as too large).
	MaxInputBytes = 256 << 20
	// MaxAliasNodes is how many nodes the input's YAML aliases may expand to,
	// in all: a larger expansion is an alias bomb, reported as an error.
	MaxAliasNodes = 1_000_000
)

// aliasBudget is what is left of MaxAliasNodes for one input; items are
// checked in parallel and share it.
type aliasBudget struct{ left atomic.Int64 }

func newAliasBudget() *aliasBudget {
	b := &aliasBudget{}
	b.left.Store(MaxAliasNodes)
	return b
}

// take reserves n nodes; false when the budget is spent.
func (b *aliasBudget) take(n int64) bool { return b.left.Add(-n) >= 0 }

// MaxDepth is how deeply values may nest, aliases expanded: the YAML
// parser's own limit, so that the output can always be read back.
const MaxDepth = 10000

// nodeProblem is what checkTree found wrong at a field of a tree.
type nodeProblem struct {
	field string // e.g. "spec.template.metadata.labels"
	line  int    // the node's line in the input, 0 when unknown
	msg   string
	// bomb: the alias budget ran out. Which item meets that first depends on
	// the order items are checked in, so the reader then checks them again
	// one after another.
	bomb bool
}

// checkTree walks a parsed tree once, in place: it replaces every alias
// with a copy of its anchor's value (so that editing one item never changes
// another, and no alias outlives an anchor of a dropped item), charging the
// copies to budget, merges YAML merge keys (<<) as YAML 1.1 and the
// Kubernetes API server's decoder do, and rejects duplicate mapping keys
// and nesting deeper than MaxDepth. It reports the first problem.
//
// base is the number of input lines before the tree's text (0 when its
// nodes carry lines of the whole input). expanded reports whether the tree
// held an alias or a merge key: its text then no longer says what its nodes
// hold.
func checkTree(n *yaml.Node, base int, budget *aliasBudget) (problem *nodeProblem, expanded bool) {
	c := treeChecker{budget: budget, base: base}
	c.walk(n, 1)
	return c.problem, c.expanded
}

// checkTop checks a ResourceList's top level as checkTree does, except its
// items, which are checked one by one.
func checkTop(root *yaml.Node, budget *aliasBudget) *nodeProblem {
	c := treeChecker{budget: budget}
	c.checkKeys(root)
	for i := 0; i+1 < len(root.Content) && c.problem == nil; i += 2 {
		if root.Content[i].Value == "items" {
			continue
		}
		c.path = append(c.path[:0], root.Content[i].Value)
		c.walk(root.Content[i+1], 2)
	}
	return c.problem
}

type treeChecker struct {
	budget   *aliasBudget
	base     int
	expanded bool
	path     []string // the field path of the node being walked
	problem  *nodeProblem
	copying  []*yaml.Node // the anchors being copied, outermost first
}

func (c *treeChecker) fail(line int, format string, args ...any) {
	if c.problem == nil {
		c.problem = &nodeProblem{field: fieldPath(c.path), line: c.line(line), msg: fmt.Sprintf(format, args...)}
	}
}

// line is a node's line in the input, 0 when unknown.
func (c *treeChecker) line(l int) int {
	if l == 0 {
		return 0
	}
	return c.base + l
}

// walk checks n, which sits at depth (the tree's root is at 1).
func (c *treeChecker) walk(n *yaml.Node, depth int) {
	if c.problem != nil {
		return
	}
	switch n.Kind {
	case yaml.AliasNode:
		c.expand(n, depth)
	case yaml.MappingNode:
		c.checkKeys(n)
		merges := false
		for i := 0; i+1 < len(n.Content) && c.problem == nil; i += 2 {
			c.path = append(c.path, n.Content[i].Value)
			c.walk(n.Content[i], depth+1)
			c.walk(n.Content[i+1], depth+1)
			c.path = c.path[:len(c.path)-1]
			merges = merges || isMergeKey(n.Content[i])
		}
		if merges && c.problem == nil {
			c.merge(n)
		}
	case yaml.SequenceNode, yaml.DocumentNode:
		for i, child := range n.Content {
			if c.problem != nil {
				return
			}
			if n.Kind == yaml.SequenceNode {
				c.path = append(c.path, "["+strconv.Itoa(i)+"]")
			}
			c.walk(child, depth+1)
			if n.Kind == yaml.SequenceNode {
				c.path = c.path[:len(c.path)-1]
			}
		}
	}
}

// checkKeys rejects a key that a mapping holds twice: YAML forbids it, and
// tools disagree on which value wins.
func (c *treeChecker) checkKeys(n *yaml.Node) {
	keys := len(n.Content) / 2
	if keys < 2 {
		return
	}
	if keys <= 16 {
		for i := 2; i < len(n.Content); i += 2 {
			for j := 0; j < i; j += 2 {
				if sameKey(n.Content[i], n.Content[j]) {
					c.duplicate(n.Content[j], n.Content[i])
					return
				}
			}
		}
		return
	}
	seen := make(map[string]*yaml.Node, keys)
	for i := 0; i < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Kind != yaml.ScalarNode {
			continue
		}
		if first, ok := seen[k.Value]; ok {
			c.duplicate(first, k)
			return
		}
		seen[k.Value] = k
	}
}

func sameKey(a, b *yaml.Node) bool {
	return a.Kind == yaml.ScalarNode && b.Kind == yaml.ScalarNode && a.Value == b.Value
}

func (c *treeChecker) duplicate(first, again *yaml.Node) {
	c.fail(again.Line, "key %q appears twice (lines %d and %d): YAML forbids duplicate keys and tools disagree on which value wins; keep one of them",
		again.Value, c.line(first.Line), c.line(again.Line))
}

// isMergeKey reports whether k is YAML's merge key, a plain <<.
func isMergeKey(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.Value == "<<" && k.Tag == "!!merge"
}

// merge replaces the merge keys of mapping n by the pairs they bring in: a
// key of n itself wins over a merged one, and of several merged mappings
// (<<: [*a, *b]) the earlier wins, as YAML 1.1 specifies.
func (c *treeChecker) merge(n *yaml.Node) {
	c.expanded = true
	own := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if !isMergeKey(n.Content[i]) {
			own[n.Content[i].Value] = true
		}
	}
	out := make([]*yaml.Node, 0, len(n.Content))
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !isMergeKey(k) {
			out = append(out, k, v)
			continue
		}
		sources := []*yaml.Node{v}
		if v.Kind == yaml.SequenceNode {
			sources = v.Content
		}
		for _, src := range sources {
			if src.Kind != yaml.MappingNode {
				c.fail(k.Line, "the merge key << takes a mapping or a list of mappings, not a YAML %s", kindName(src))
				return
			}
			for j := 0; j+1 < len(src.Content); j += 2 {
				if key := src.Content[j].Value; !own[key] {
					own[key] = true
					out = append(out, src.Content[j], src.Content[j+1])
				}
			}
		}
	}
	n.Content = out
}

// expand replaces the alias n, at depth, with a copy of its anchor's value,
// keeping the alias's own comments.
func (c *treeChecker) expand(n *yaml.Node, depth int) {
	c.expanded = true
	if n.Alias == nil {
		c.fail(n.Line, "alias *%s has no anchor", n.Value)
		return
	}
	cp := c.copyExpanded(n.Alias, n, depth)
	if cp == nil {
		return
	}
	cp.Anchor = ""
	cp.HeadComment, cp.LineComment, cp.FootComment = n.HeadComment, n.LineComment, n.FootComment
	cp.Line, cp.Column = n.Line, n.Column
	*n = *cp
}

// copyExpanded deep-copies n, to be placed at depth, with its aliases
// expanded, charging every new node to the budget; it reports the problem
// (at the alias being expanded) and returns nil when the budget runs out,
// the copy nests too deeply or an anchor contains an alias of itself.
func (c *treeChecker) copyExpanded(n, alias *yaml.Node, depth int) *yaml.Node {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	switch {
	case depth > MaxDepth:
		c.fail(alias.Line, "YAML aliases nest values deeper than %d levels: the output could not be read back; expand the aliases by hand or flatten the value", MaxDepth)
		return nil
	case slices.Contains(c.copying, n):
		c.fail(alias.Line, "alias *%s refers to a value that contains it: remove the alias or the anchor", alias.Value)
		return nil
	case !c.budget.take(1):
		c.fail(alias.Line, "YAML aliases expand to more than %d nodes (an alias bomb?): the function refuses inputs whose aliases multiply their size; expand the aliases by hand or remove them", MaxAliasNodes)
		c.problem.bomb = true
		return nil
	}
	cp := *n
	cp.Anchor = ""
	if len(n.Content) > 0 {
		c.copying = append(c.copying, n)
		cp.Content = make([]*yaml.Node, len(n.Content))
		for i, child := range n.Content {
			if cp.Content[i] = c.copyExpanded(child, alias, depth+1); cp.Content[i] == nil {
				return nil
			}
		}
		c.copying = c.copying[:len(c.copying)-1]
	}
	return &cp
}

// fieldPath joins path segments as a field path: "spec.containers[0].name".
// A path of more than 16 segments keeps its first and last 8.
func fieldPath(path []string) string {
	if len(path) > 16 {
		path = slices.Concat(path[:8], []string{"…"}, path[len(path)-8:])
	}
	var b strings.Builder
	for _, p := range path {
		if b.Len() > 0 && !strings.HasPrefix(p, "[") {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}
