// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package smp

import "sigs.k8s.io/kustomize/kyaml/yaml"

// comments holds the comments of a tree's nodes by node identity.
//
// kyaml's merge replaces a field's value by copying the new node INTO the
// old node (FieldSetter: *old = *new), so a node keeps its identity while
// its comments are overwritten. Taking all comments off before the merge
// and putting them back on the surviving nodes afterwards keeps them, and
// also keeps comments out of kyaml's reach (it reads schema hints such as
// {"$openapi": ...} from comments, which upstream never sees).
type comments map[*yaml.Node][3]string

// takeComments removes the comments of every node under root and returns
// them. It also makes implicit scalar tags explicit, as kyaml tests tags
// literally (a tagless "null" is not null to it).
func takeComments(root *yaml.Node) comments {
	c := comments{}
	var visit func(n *yaml.Node)
	visit = func(n *yaml.Node) {
		if n == nil {
			return
		}
		if _, seen := c[n]; seen {
			return
		}
		c[n] = [3]string{n.HeadComment, n.LineComment, n.FootComment}
		n.HeadComment, n.LineComment, n.FootComment = "", "", ""
		if n.Kind == yaml.ScalarNode && n.Tag == "" {
			n.Tag = n.ShortTag()
		}
		for _, ch := range n.Content {
			visit(ch)
		}
	}
	visit(root)
	return c
}

// restore puts the comments back on the nodes of root that had them, and
// moves line comments of map entries to where the encoder prints them
// (placeLineComment).
func (c comments) restore(root *yaml.Node) {
	var visit func(n *yaml.Node)
	done := map[*yaml.Node]bool{}
	visit = func(n *yaml.Node) {
		if n == nil || done[n] {
			return
		}
		done[n] = true
		if s, ok := c[n]; ok {
			n.HeadComment, n.LineComment, n.FootComment = s[0], s[1], s[2]
		}
		for _, ch := range n.Content {
			visit(ch)
		}
		if n.Kind == yaml.MappingNode {
			placeMapComments(n)
		}
	}
	visit(root)
}

// placeMapComments gives map m's empty values flow style and puts the
// line comments of its entries where the encoder prints them.
func placeMapComments(m *yaml.Node) {
	flowEmpty(m)
	for i := 0; i+1 < len(m.Content); i += 2 {
		placeLineComment(m.Content[i], m.Content[i+1])
	}
}

// flowEmpty gives the empty map and list values of a map flow style: they
// print as {} and [] either way, but the yaml.v3 encoder writes an empty
// BLOCK map after a key's line comment on a line of its own, which does not
// parse back.
func flowEmpty(m *yaml.Node) {
	for i := 1; i < len(m.Content); i += 2 {
		v := m.Content[i]
		if (v.Kind == yaml.MappingNode || v.Kind == yaml.SequenceNode) && len(v.Content) == 0 {
			v.Style |= yaml.FlowStyle
		}
	}
}

// placeLineComment puts the line comment of a map entry where the yaml.v3
// encoder prints it after "key:": on the key when the value is a block map
// or list (which starts on the next line), on the value otherwise. A
// comment left on the wrong node is printed elsewhere (or breaks the
// output) once a merge changes the value's kind or emptiness.
func placeLineComment(k, v *yaml.Node) {
	block := (v.Kind == yaml.MappingNode || v.Kind == yaml.SequenceNode) && v.Style&yaml.FlowStyle == 0 && len(v.Content) > 0
	switch {
	case block && v.LineComment != "" && k.LineComment == "":
		k.LineComment, v.LineComment = v.LineComment, ""
	case !block && k.LineComment != "" && v.LineComment == "":
		v.LineComment, k.LineComment = k.LineComment, ""
	}
}
