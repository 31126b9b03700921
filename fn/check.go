// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"fmt"
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

// nodeProblem is what checkTree found wrong at a field of a tree.
type nodeProblem struct {
	field string // e.g. "spec.template.metadata.labels"
	line  int    // the node's line in the input, 0 when unknown
	msg   string
}

// checkTree walks a parsed tree once, in place: it replaces every alias
// with a copy of its anchor's value (so that editing one item never changes
// another, and no alias outlives an anchor of a dropped item), charging the
// copies to budget, and rejects duplicate mapping keys. It reports the first
// problem.
//
// base is the number of input lines before the tree's text (0 when its
// nodes carry lines of the whole input).
// expanded reports whether the tree held an alias: its text then no longer
// says what its nodes hold.
func checkTree(n *yaml.Node, base int, budget *aliasBudget) (problem *nodeProblem, expanded bool) {
	c := treeChecker{budget: budget, base: base}
	c.walk(n)
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
		c.walk(root.Content[i+1])
	}
	return c.problem
}

type treeChecker struct {
	budget   *aliasBudget
	base     int
	expanded bool
	path     []string // the field path of the node being walked
	problem  *nodeProblem
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

func (c *treeChecker) walk(n *yaml.Node) {
	if c.problem != nil {
		return
	}
	switch n.Kind {
	case yaml.AliasNode:
		c.expand(n)
	case yaml.MappingNode:
		c.checkKeys(n)
		for i := 0; i+1 < len(n.Content) && c.problem == nil; i += 2 {
			c.path = append(c.path, n.Content[i].Value)
			c.walk(n.Content[i])
			c.walk(n.Content[i+1])
			c.path = c.path[:len(c.path)-1]
		}
	case yaml.SequenceNode, yaml.DocumentNode:
		for i, child := range n.Content {
			if c.problem != nil {
				return
			}
			if n.Kind == yaml.SequenceNode {
				c.path = append(c.path, "["+strconv.Itoa(i)+"]")
			}
			c.walk(child)
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

// expand replaces the alias n with a copy of its anchor's value, keeping
// the alias's own comments.
func (c *treeChecker) expand(n *yaml.Node) {
	c.expanded = true
	target := n.Alias
	if target == nil {
		c.fail(n.Line, "alias *%s has no anchor", n.Value)
		return
	}
	cp, ok := c.copyExpanded(target)
	if !ok {
		c.fail(n.Line, "YAML aliases expand to more than %d nodes (an alias bomb?): the function refuses inputs whose aliases multiply their size; expand the aliases by hand or remove them", MaxAliasNodes)
		return
	}
	cp.Anchor = ""
	cp.HeadComment, cp.LineComment, cp.FootComment = n.HeadComment, n.LineComment, n.FootComment
	cp.Line, cp.Column = n.Line, n.Column
	*n = *cp
}

// copyExpanded deep-copies n with its aliases expanded, charging every new
// node to the budget; ok is false when the budget runs out.
func (c *treeChecker) copyExpanded(n *yaml.Node) (*yaml.Node, bool) {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		return c.copyExpanded(n.Alias)
	}
	if !c.budget.take(1) {
		return nil, false
	}
	cp := *n
	cp.Anchor = ""
	if len(n.Content) > 0 {
		cp.Content = make([]*yaml.Node, len(n.Content))
		for i, child := range n.Content {
			cc, ok := c.copyExpanded(child)
			if !ok {
				return nil, false
			}
			cp.Content[i] = cc
		}
	}
	return &cp, true
}

// fieldPath joins path segments as a field path: "spec.containers[0].name".
func fieldPath(path []string) string {
	var b strings.Builder
	for _, p := range path {
		if b.Len() > 0 && !strings.HasPrefix(p, "[") {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}
