// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package smp

import (
	"errors"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/openapi"
	"sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/kustomize/kyaml/yaml/schema"
	"sigs.k8s.io/kustomize/kyaml/yaml/walk"
)

// This file keeps kyaml's merge of an associative list (containers by
// name, env by name, …) linear in the list's length. kyaml's walker
// (walk/associative_sequence.go) looks every element up by scanning the
// list, so merging a one-element patch into a list of n elements takes
// O(n²) steps, and a foreach over the list O(n³).
//
// A trimmer hands kyaml only the elements the patch names, plus one
// element it does not name (the sentinel, so that the list cannot become
// empty), and walks the others itself afterwards, one at a time, the way
// kyaml walks an element the patch does not mention, then appends them
// after the sentinel (skipping the walk where it would change nothing,
// see quiet). When every element of the list and of the patch has
// a distinct, non-empty scalar merge key, this is kyaml's result node for
// node:
//
//   - kyaml merges the elements in the order of their keys, the patch's
//     keys first and then the list's other keys in list order; its result
//     list is in that order, so the elements the patch does not name come
//     last, in list order, the sentinel first;
//   - an element the patch does not name is walked alone (no patch
//     element matches its key), it keeps its key so it is never deleted,
//     and no other element's lookup can match its key;
//   - the walks touch disjoint nodes.
//
// Anything else (several merge keys, missing, null, duplicate or
// non-scalar keys, a $patch directive element, a list that kyaml replaces
// or deletes) is left to kyaml whole.
type trimmer struct {
	walk.Visitor
	lists *[]trimmedList
}

// fieldSchemas caches ResourceSchema.Field, which resolves references
// anew on every call, for quiet.
type fieldSchemas map[fieldOf]*openapi.ResourceSchema

type fieldOf struct {
	s    *openapi.ResourceSchema
	name string
}

func (c fieldSchemas) field(s *openapi.ResourceSchema, name string) *openapi.ResourceSchema {
	if s == nil {
		return nil
	}
	k := fieldOf{s, name}
	f, ok := c[k]
	if !ok {
		f = s.Field(name)
		c[k] = f
	}
	return f
}

// trimmedList is an associative list given to kyaml without rest.
type trimmedList struct {
	list     *yaml.Node // the list node; kyaml's result is copied into it
	line     int        // list.Line, marked -1 until kyaml's result replaces it
	schema   *openapi.ResourceSchema
	sentinel *yaml.Node // the last element kyaml saw
	rest     []*yaml.Node
}

// errTrimmed reports a trimmed list whose merge did not end as expected;
// the caller merges again without trimming.
var errTrimmed = errors.New("internal error: trimmed list merge")

// trimming turns the trimming of associative lists off (tests compare
// with kyaml's own merge).
var trimming = true

// mergeWith runs kyaml's walk of a patch into a destination with
// visitor v, trimming associative lists, and completes them afterwards.
// inputs gives the destination and the patch (both consumed); it is
// called again, and the walk rerun without trimming, in the unexpected
// case that a trimmed list did not merge as planned.
func mergeWith(v walk.Visitor, inputs func() (dest, patch *yaml.RNode, err error)) (*yaml.RNode, error) {
	dest, patch, err := inputs()
	if err != nil {
		return nil, err
	}
	merged, err := walkTrimmed(v, dest, patch, trimming)
	if !errors.Is(err, errTrimmed) {
		return merged, err
	}
	if dest, patch, err = inputs(); err != nil {
		return nil, err
	}
	return walkTrimmed(v, dest, patch, false)
}

func walkTrimmed(v walk.Visitor, dest, patch *yaml.RNode, trim bool) (*yaml.RNode, error) {
	var lists []trimmedList
	if trim {
		v = trimmer{Visitor: v, lists: &lists}
	}
	merged, err := walk.Walker{Sources: []*yaml.RNode{dest, patch}, Visitor: v, MergeOptions: prepend}.Walk()
	if err != nil {
		return nil, err
	}
	schemas := fieldSchemas{}
	for i := 0; i < len(lists); i++ { // completing a list may trim more
		if err := lists[i].complete(v, schemas); err != nil {
			return nil, err
		}
	}
	return merged, nil
}

// VisitList trims an associative list that kyaml is about to merge.
func (t trimmer) VisitList(nodes walk.Sources, s *openapi.ResourceSchema, kind walk.ListKind) (*yaml.RNode, error) {
	dest, err := t.Visitor.VisitList(nodes, s, kind)
	if err != nil || kind != walk.AssociativeList || dest.IsNil() || nodes.Dest().IsNil() || dest.YNode() != nodes.Dest().YNode() {
		return dest, err
	}
	patch := nodes.Origin()
	if patch.IsNil() || patch.YNode().Kind != yaml.SequenceNode || dest.YNode().Kind != yaml.SequenceNode {
		return dest, nil
	}
	key, ok := mergeKey(nodes, s)
	if !ok {
		return dest, nil
	}
	named, ok := keyValues(patch.YNode(), key)
	if !ok {
		return dest, nil
	}
	list := dest.YNode()
	values, ok := keyValues(list, key)
	if !ok || len(values) != len(list.Content) {
		return dest, nil
	}
	tl := trimmedList{list: list}
	var kept []*yaml.Node
	for _, e := range list.Content {
		switch {
		case named[keyValue(e, key)]:
			kept = append(kept, e)
		case tl.sentinel == nil:
			tl.sentinel = e
			kept = append(kept, e)
		default:
			tl.rest = append(tl.rest, e)
		}
	}
	if len(tl.rest) == 0 {
		return dest, nil
	}
	if s != nil {
		tl.schema = s.Elements()
	}
	list.Content = kept
	tl.line, list.Line = list.Line, -1
	*t.lists = append(*t.lists, tl)
	return dest, nil
}

// mergeKey is the single merge key kyaml would use for the list
// (walkAssociativeSequence and elementKey).
func mergeKey(nodes walk.Sources, s *openapi.ResourceSchema) (string, bool) {
	var strategy string
	var keys []string
	if s != nil {
		strategy, keys = s.PatchStrategyAndKeyList()
	}
	if strategy == "" && len(keys) == 0 {
		key := ""
		for _, n := range nodes {
			if n == nil || len(n.Content()) == 0 {
				continue
			}
			k := n.GetAssociativeKey()
			if key != "" && key != k {
				return "", false
			}
			key = k
		}
		keys = []string{key}
	}
	if len(keys) != 1 || keys[0] == "" {
		return "", false
	}
	return keys[0], true
}

// keyValues returns the set of the elements' merge key values; ok is
// false unless every element is a map with exactly one key field, a
// non-null scalar with a non-empty value, and no two values are equal.
func keyValues(list *yaml.Node, key string) (map[string]bool, bool) {
	values := make(map[string]bool, len(list.Content))
	for _, e := range list.Content {
		if e.Kind != yaml.MappingNode {
			return nil, false
		}
		var v *yaml.Node
		for i := 0; i+1 < len(e.Content); i += 2 {
			if e.Content[i].Value != key {
				continue
			}
			if v != nil {
				return nil, false
			}
			v = e.Content[i+1]
		}
		if v == nil || v.Kind != yaml.ScalarNode || v.Value == "" || v.Tag == yaml.NodeTagNull || v.ShortTag() == yaml.NodeTagNull || values[v.Value] {
			return nil, false
		}
		values[v.Value] = true
	}
	return values, true
}

// keyValue is the value of a checked element's merge key.
func keyValue(e *yaml.Node, key string) string {
	for i := 0; i+1 < len(e.Content); i += 2 {
		if e.Content[i].Value == key {
			return e.Content[i+1].Value
		}
	}
	return ""
}

// complete walks the elements kyaml did not see, as kyaml walks an
// element the patch does not name, and appends them after the sentinel.
func (tl *trimmedList) complete(v walk.Visitor, schemas fieldSchemas) error {
	if tl.list.Line == -1 { // kyaml's result did not replace the list
		tl.list.Line = tl.line
		return errTrimmed
	}
	if n := len(tl.list.Content); n == 0 || tl.list.Content[n-1] != tl.sentinel {
		return errTrimmed
	}
	for _, e := range tl.rest {
		if quiet(e, tl.schema, schemas) {
			continue
		}
		val, err := walk.Walker{Sources: []*yaml.RNode{yaml.NewRNode(e), nil}, Visitor: v, Schema: tl.schema, MergeOptions: prepend}.Walk()
		if err != nil {
			return err
		}
		if val.IsNil() || val.YNode() != e {
			return errTrimmed
		}
	}
	tl.list.Content = append(tl.list.Content, tl.rest...)
	return nil
}

// quiet reports that kyaml's walk of n with nothing to merge into it
// (walk.Walker with sources n and nil, as for a list element the patch
// does not name) would leave n as it is, so the walk can be skipped:
//
//   - a comment may carry a kyaml field schema (fieldmeta), a map without
//     a schema but with apiVersion or kind gets its type's schema, and a
//     list whose schema has a merge strategy has its elements merged
//     with each other: all of these are walked;
//   - a null scalar may be replaced by an equal one, and a plain string
//     that YAML 1.1 reads as something else (yes, 1.0, …) is quoted by
//     kyaml's field setter: walked;
//   - other scalars, maps of quiet values with distinct keys and lists
//     kyaml does not merge by key (their elements are not walked) stay.
func quiet(n *yaml.Node, s *openapi.ResourceSchema, schemas fieldSchemas) bool {
	if n.HeadComment != "" || n.LineComment != "" || n.FootComment != "" {
		return false
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == yaml.NodeTagNull {
			return false
		}
		if (n.Tag == yaml.NodeTagString || n.Tag == yaml.NodeTagEmpty) && n.Style == 0 {
			return plainWord(n.Value) || !yaml.IsYaml1_1NonString(n)
		}
		return true
	case yaml.SequenceNode:
		return !schema.IsAssociative(s, nil, false)
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode || k.HeadComment != "" || k.LineComment != "" || k.FootComment != "" {
				return false
			}
			if s == nil && (k.Value == yaml.APIVersionField || k.Value == yaml.KindField) {
				return false
			}
			if repeatedKey(n, i) {
				return false
			}
			if !quiet(n.Content[i+1], schemas.field(s, k.Value), schemas) {
				return false
			}
		}
		return true
	}
	return false
}

// plainWord reports a string that YAML 1.1 reads as a string without
// asking a parser: a letter that starts no YAML 1.1 boolean or null
// (y, n, t, f, o in either case), then letters, digits and . _ / - :,
// not ending in a colon.
// repeatedKey reports that the key at index i of map n appeared before.
func repeatedKey(n *yaml.Node, i int) bool {
	for j := 0; j < i; j += 2 {
		if n.Content[j].Value == n.Content[i].Value {
			return true
		}
	}
	return false
}

func plainWord(v string) bool {
	if v == "" || v[len(v)-1] == ':' {
		return false
	}
	c := v[0]
	if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') || strings.IndexByte("yYnNtTfFoO", c) >= 0 {
		return false
	}
	for i := 1; i < len(v); i++ {
		c := v[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("._/-:", c) >= 0) {
			return false
		}
	}
	return true
}
