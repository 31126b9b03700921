// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"fmt"
	"reflect"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
	"github.com/apply-overrides/apply-overrides/internal/yamlvalue"
)

// root returns the mapping (or other) node at the top of rn, unwrapping a
// document node and aliases; nil if rn holds nothing.
func root(rn *yaml.RNode) *yaml.Node {
	return yamlnode.Resolve(rn.YNode())
}

// setString sets scalar n to s, leaving n untouched when it already holds
// that string (so a replace with the same value keeps the bytes).
func setString(n *yaml.Node, s string) {
	if n.Value == s && yamlpatch.IsString(n) {
		return
	}
	yamlpatch.SetString(n, s)
}

// editDoc runs apply on rn's document after expanding its aliases (see
// unshare). A failing filter returns a nil node and may leave rn
// half-edited: package fn writes no items of a failed run, so no filter
// copies the resource first (see the package comment).
func editDoc(rn *yaml.RNode, apply func(doc *yaml.Node) error) (*yaml.RNode, error) {
	doc := root(rn)
	if doc == nil {
		return rn, nil
	}
	if err := unshare(doc); err != nil {
		return nil, err
	}
	if err := apply(doc); err != nil {
		return nil, err
	}
	return rn, nil
}

// goKind names the reflect.Kind of n's unstructured value ("map", "slice",
// "string", "int64", "float64", "bool"), as apimachinery's converter
// prints it; "invalid" for null.
func goKind(n *yaml.Node) string {
	v := yamlvalue.ToUnstructured(n)
	if v == nil {
		return reflect.Invalid.String()
	}
	return reflect.TypeOf(v).Kind().String()
}

// describe formats n like apimachinery's accessor errors:
// "<value> is of the type <type>".
func describe(n *yaml.Node) string {
	v := yamlvalue.ToUnstructured(n)
	return fmt.Sprintf("%v is of the type %T", v, v)
}

// prefixed wraps err with a field path, e.g. "/spec/replicas: <err>".
func prefixed(path string, err error) error {
	if path == "" {
		path = `""`
	}
	return fmt.Errorf("%s: %w", path, err)
}

// settleLineComment moves the line comment of m's entry key between the
// key and value nodes so the encoder still prints it after an edit changed
// the value's shape: yaml.v3 prints the comment of a block collection only
// from its key (`labels: # c`), and that of a collection printed inline,
// such as an empty one, only from the value (`labels: {} # c`).
func settleLineComment(m *yaml.Node, key string) {
	m = yamlnode.Deref(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Value != key || (v.Kind != yaml.MappingNode && v.Kind != yaml.SequenceNode) {
			continue
		}
		inline := len(v.Content) == 0 || v.Style&yaml.FlowStyle != 0
		switch {
		case inline && k.LineComment != "" && v.LineComment == "":
			v.LineComment, k.LineComment = k.LineComment, ""
		case !inline && v.LineComment != "" && k.LineComment == "":
			k.LineComment, v.LineComment = v.LineComment, ""
		}
		return
	}
}

// unshare replaces every alias in doc with a copy of its anchor, so an
// in-place edit changes one place only, as a patch of the document's JSON
// view would. Documents without aliases (the usual case) are untouched.
func unshare(doc *yaml.Node) error {
	if doc == nil || !aliasBelow(doc, 0) {
		return nil
	}
	if n := expandedSize(doc, map[*yaml.Node]int{}, map[*yaml.Node]bool{}); n > yamlnode.MaxExpandedNodes {
		return fmt.Errorf("expanding the document's YAML aliases would exceed %d nodes", yamlnode.MaxExpandedNodes)
	}
	var walk func(n *yaml.Node, onPath map[*yaml.Node]bool)
	walk = func(n *yaml.Node, onPath map[*yaml.Node]bool) {
		if onPath[n] {
			return
		}
		onPath[n] = true
		defer delete(onPath, n)
		for i, c := range n.Content {
			if c.Kind == yaml.AliasNode && c.Alias != nil && !onPath[c.Alias] {
				cp := yaml.CopyYNode(yamlnode.Deref(c))
				clearAnchors(cp)
				if c.HeadComment != "" || c.LineComment != "" || c.FootComment != "" {
					cp.HeadComment, cp.LineComment, cp.FootComment = c.HeadComment, c.LineComment, c.FootComment
				}
				n.Content[i] = cp
			}
			walk(n.Content[i], onPath)
		}
	}
	walk(doc, map[*yaml.Node]bool{})
	return nil
}

// expandedSize counts the nodes of n with its aliases expanded, saturating
// just above yamlnode.MaxExpandedNodes.
func expandedSize(n *yaml.Node, memo map[*yaml.Node]int, onPath map[*yaml.Node]bool) int {
	if n == nil || onPath[n] {
		return 0
	}
	if n.Kind == yaml.AliasNode {
		return expandedSize(n.Alias, memo, onPath)
	}
	if size, ok := memo[n]; ok {
		return size
	}
	onPath[n] = true
	size := 1
	for _, c := range n.Content {
		if size += expandedSize(c, memo, onPath); size > yamlnode.MaxExpandedNodes {
			size = yamlnode.MaxExpandedNodes + 1
			break
		}
	}
	delete(onPath, n)
	memo[n] = size
	return size
}

// aliasBelow scans a tree without bookkeeping (it runs before every edit);
// a tree deeper than maxScanDepth can only contain itself and counts as
// aliased.
func aliasBelow(n *yaml.Node, depth int) bool {
	if n == nil {
		return false
	}
	if n.Kind == yaml.AliasNode || depth > 10000 {
		return true
	}
	for _, c := range n.Content {
		if aliasBelow(c, depth+1) {
			return true
		}
	}
	return false
}

func clearAnchors(n *yaml.Node) {
	n.Anchor = ""
	for _, c := range n.Content {
		clearAnchors(c)
	}
}
