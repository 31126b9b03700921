// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package smp

import (
	"sigs.k8s.io/kustomize/kyaml/openapi"
	"sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/kustomize/kyaml/yaml/merge2"
	"sigs.k8s.io/kustomize/kyaml/yaml/walk"

	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
)

// prepend is how kustomize's patchstrategicmerge.Filter merges.
var prepend = yaml.MergeOptions{ListIncreaseDirection: yaml.MergeOptionsListPrepend}

// keeper is kyaml's merge2.Merger adjusted for a destination that was not
// parsed from JSON, so that merging into the real resource node gives the
// JSON result upstream gets through its JSON round trip, while editing
// existing nodes in place instead of replacing them:
//
//   - a scalar is updated in place (its comments stay); a string field
//     patched with a number or bool becomes that text as a string, because
//     upstream's destination strings are double-quoted and kyaml gives the
//     new value the old value's style;
//   - a null the patch does not mention is kept even when written as an
//     empty value (upstream's nulls always read "null", which kyaml keeps);
//   - a list replaced as a whole is reconciled, keeping unchanged items.
type keeper struct{ merge2.Merger }

var _ walk.Visitor = keeper{}

// VisitMap keeps destination nulls the patch does not mention.
func (k keeper) VisitMap(nodes walk.Sources, s *openapi.ResourceSchema) (*yaml.RNode, error) {
	dest := nodes.Dest()
	if nodes.Origin().IsNil() && !dest.IsNil() && yaml.IsMissingOrNull(dest) {
		dest.ShouldKeep = true
		return dest, nil
	}
	return k.Merger.VisitMap(nodes, s)
}

// VisitScalar sets a patched scalar in place.
func (k keeper) VisitScalar(nodes walk.Sources, s *openapi.ResourceSchema) (*yaml.RNode, error) {
	dest, origin := nodes.Dest(), nodes.Origin()
	if dest.IsNil() || yaml.IsMissingOrNull(origin) ||
		dest.YNode().Kind != yaml.ScalarNode || origin.YNode().Kind != yaml.ScalarNode {
		return k.Merger.VisitScalar(nodes, s)
	}
	d, o := dest.YNode(), origin.YNode()
	switch {
	case isStringScalar(o) || (isStringScalar(d) && d.ShortTag() != yaml.NodeTagNull):
		yamlpatch.SetString(d, o.Value)
	default:
		d.Tag, d.Value, d.Style = o.ShortTag(), o.Value, 0
	}
	return dest, nil
}

// VisitList reconciles a list the patch replaces as a whole.
func (k keeper) VisitList(nodes walk.Sources, s *openapi.ResourceSchema, kind walk.ListKind) (*yaml.RNode, error) {
	dest, origin := nodes.Dest(), nodes.Origin()
	if kind != walk.NonAssociateList || dest.IsNil() || origin.IsNil() ||
		dest.YNode().Kind != yaml.SequenceNode || origin.YNode().Kind != yaml.SequenceNode {
		return k.Merger.VisitList(nodes, s, kind)
	}
	if err := yamlpatch.Reconcile(dest.YNode(), origin.YNode()); err != nil {
		return nil, err
	}
	return dest, nil
}

// isStringScalar reports whether a scalar reads as a JSON string.
func isStringScalar(n *yaml.Node) bool {
	switch n.ShortTag() {
	case yaml.NodeTagNull, yaml.NodeTagBool, yaml.NodeTagInt, yaml.NodeTagFloat:
		return false
	}
	return true
}

// mergeNodes merges a patch into a destination with the keeper; inputs
// gives both (see mergeWith).
func mergeNodes(inputs func() (dest, patch *yaml.RNode, err error)) (*yaml.RNode, error) {
	return mergeWith(keeper{}, inputs)
}

// restyle gives nodes parsed from JSON a block YAML look: block
// collections, plain scalars, strings quoted only where YAML needs it.
func restyle(n *yaml.Node) {
	if n == nil {
		return
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if isStringScalar(n) {
			n.Style = 0
			yamlpatch.SetString(n, n.Value)
		} else {
			n.Style = 0
		}
	case yaml.MappingNode, yaml.SequenceNode, yaml.DocumentNode:
		n.Style = 0
		for _, c := range n.Content {
			restyle(c)
		}
	}
}
