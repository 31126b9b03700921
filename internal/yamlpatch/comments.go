// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlpatch

import (
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// placed fixes up c.Content[i], a value just put into the last container c
// of chain, for the yaml.v3 encoder: its comments (see placeComments) and,
// in flow context, its empty nulls and comments (see fitFlow). swapped says
// whether the value took over the comments of the node it replaced.
func (a *applier) placed(chain []*yaml.Node, i int, swapped bool) {
	c := chain[len(chain)-1]
	if inFlow(chain) {
		a.fitFlow(c.Content[i], true, !swapped)
		return
	}
	a.placeComments(c, i)
	a.fitFlow(c.Content[i], false, false)
}

// fitFlow adjusts the nodes under n (and n itself) that end up in flow
// context: null values written as nothing (`k:`) are spelled "null", as the
// yaml.v3 encoder would write them as an empty quoted string, and comments,
// which would print as noise inside the brackets, are dropped (n's own only
// if dropOwn is set: after a swap they are the replaced node's).
func (a *applier) fitFlow(n *yaml.Node, inFlow, dropOwn bool) {
	fit := func(c *yaml.Node, flow, isKey, dropComments bool) {
		if !flow {
			return
		}
		emptyNull := !isKey && c.Kind == yaml.ScalarNode && c.Value == "" && kindOf(c) == kindNull
		commented := dropComments && c.HeadComment+c.LineComment+c.FootComment != ""
		if emptyNull || commented {
			a.touch(c)
		}
		if emptyNull {
			c.Value = "null"
		}
		if commented {
			c.HeadComment, c.LineComment, c.FootComment = "", "", ""
		}
	}
	flowAt := map[*yaml.Node]bool{n: inFlow || n.Style&yaml.FlowStyle != 0}
	fit(n, inFlow, false, dropOwn)
	walk(n, func(p *yaml.Node, i int, c *yaml.Node) bool {
		flow := flowAt[p]
		fit(c, flow, p.Kind == yaml.MappingNode && i%2 == 0, true)
		flowAt[c] = flow || c.Style&yaml.FlowStyle != 0
		return true
	})
}

// placeComments moves the own comments of c.Content[i], a value just put in
// place, to spots where the yaml.v3 encoder prints them next to it. The
// encoder only handles the placements its parser produces; others come out
// after the following entry (or, for a key's line comment before an empty
// collection, as invalid YAML):
//
//   - a block collection cannot carry line or foot comments: they join its
//     head comment, which for a mapping value goes to its first key, where
//     the parser would put it;
//   - a key's line comment cannot precede an inline collection: a non-empty
//     flow value is turned to block style, and an empty one ({} or []) takes
//     the comment as its own line comment, the one case where a key's
//     comment moves (it still prints on the key's line);
//   - an inline mapping value cannot carry a head comment, and an inline
//     sequence item no foot comment: they join its line comment.
func (a *applier) placeComments(c *yaml.Node, i int) {
	v := c.Content[i]
	inMap := c.Kind == yaml.MappingNode
	collection := v.Kind == yaml.MappingNode || v.Kind == yaml.SequenceNode
	if inMap && collection && (v.Style&yaml.FlowStyle != 0 || len(v.Content) == 0) {
		if key := c.Content[i-1]; key.LineComment != "" {
			a.touch(v)
			if len(v.Content) > 0 {
				v.Style &^= yaml.FlowStyle
			} else {
				a.keyCommentToValue(key, v)
			}
		}
	}
	switch {
	case collection && len(v.Content) > 0 && v.Style&yaml.FlowStyle == 0:
		if v.LineComment == "" && v.FootComment == "" && (v.HeadComment == "" || !inMap) {
			return
		}
		a.touch(v)
		v.HeadComment = joinComments("\n", v.HeadComment, v.LineComment, v.FootComment)
		v.LineComment, v.FootComment = "", ""
		if inMap && v.Kind == yaml.MappingNode {
			first := v.Content[0]
			a.touch(first)
			first.HeadComment = joinComments("\n", v.HeadComment, first.HeadComment)
			v.HeadComment = ""
		}
	case inMap && v.HeadComment != "":
		a.touch(v)
		v.LineComment = joinComments(" ", oneLine(v.HeadComment), v.LineComment)
		v.HeadComment = ""
	case !inMap && v.FootComment != "":
		a.touch(v)
		v.LineComment = joinComments(" ", v.LineComment, oneLine(v.FootComment))
		v.FootComment = ""
	}
}

// emptied handles a container, the last of chain, that a removal may have
// left empty: an empty collection prints inline ({} or []), after which the
// yaml.v3 encoder cannot place its key's line comment (it writes invalid
// YAML), so the comment moves onto the collection, still on the key's line.
func (a *applier) emptied(chain []*yaml.Node) {
	c := chain[len(chain)-1]
	if len(c.Content) > 0 || len(chain) < 2 || inFlow(chain) {
		return
	}
	p := chain[len(chain)-2]
	if p.Kind != yaml.MappingNode {
		return
	}
	for j := 1; j < len(p.Content); j += 2 {
		if p.Content[j] == c && p.Content[j-1] != nil && p.Content[j-1].LineComment != "" {
			a.touch(c)
			a.keyCommentToValue(p.Content[j-1], c)
		}
	}
}

// keyCommentToValue moves key's line comment in front of v's.
func (a *applier) keyCommentToValue(key, v *yaml.Node) {
	a.touch(key)
	v.LineComment = joinComments(" ", key.LineComment, v.LineComment)
	key.LineComment = ""
}

// joinComments joins the non-empty comments with sep.
func joinComments(sep string, comments ...string) string {
	var out []string
	for _, c := range comments {
		if c != "" {
			out = append(out, c)
		}
	}
	return strings.Join(out, sep)
}

// oneLine folds a multi-line comment into one line.
func oneLine(c string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(c, "\n", " ")), " ")
}
