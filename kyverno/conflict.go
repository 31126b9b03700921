// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyverno

import (
	"encoding/json"
	"reflect"
	"slices"

	"github.com/apply-overrides/apply-overrides/internal/wildcard"
)

// matchesEmptySet is upstream's Rule.ValidateMatchExcludeConflict: whether
// the exclude block provably removes everything the match block selects.
// It compares the inline forms field by field, so (as upstream) a rule
// whose match is inline and whose exclude uses any always "matches an
// empty set": the exclude's inline part is empty and every check passes.
func (r *Rule) matchesEmptySet() bool {
	x, m := r.Exclude, &r.Match
	if x == nil || len(x.All) > 0 || len(m.All) > 0 {
		return false
	}
	if len(m.Any) > 0 && len(x.Any) > 0 {
		for _, a := range m.Any {
			if slices.ContainsFunc(x.Any, func(b ResourceFilter) bool { return reflect.DeepEqual(a, b) }) {
				return true
			}
		}
		return false
	}
	if reflect.DeepEqual(*x, MatchResources{}) {
		return false
	}
	md, xd := &m.Resources, &x.Resources
	if !coveredBy(x.Roles, m.Roles) || !coveredBy(x.ClusterRoles, m.ClusterRoles) || !coveredBy(jsonItems(x.Subjects), jsonItems(m.Subjects)) {
		return false
	}
	if xd.Name != "" && !wildcard.Match(xd.Name, md.Name) {
		return false
	}
	if len(xd.Names) > 0 {
		for _, mn := range md.Names {
			for _, xn := range xd.Names {
				if wildcard.Match(xn, mn) {
					return true
				}
			}
		}
		return false
	}
	if !coveredBy(xd.Namespaces, md.Namespaces) || !coveredBy(xd.Kinds, md.Kinds) {
		return false
	}
	if !selectorCovered(md.Selector, xd.Selector) || !selectorCovered(md.NamespaceSelector, xd.NamespaceSelector) {
		return false
	}
	if (md.Annotations == nil) != (xd.Annotations == nil) {
		return false
	}
	return md.Annotations == nil || reflect.DeepEqual(md.Annotations, xd.Annotations)
}

// coveredBy: when the exclude lists values, the match must list some and
// all of them must be among the exclude's.
func coveredBy(exclude, match []string) bool {
	if len(exclude) == 0 {
		return true
	}
	if len(match) == 0 {
		return false
	}
	for _, v := range match {
		if !slices.Contains(exclude, v) {
			return false
		}
	}
	return true
}

// selectorCovered compares a match and an exclude selector as upstream.
func selectorCovered(m, x *LabelSelector) bool {
	if (m == nil) != (x == nil) {
		return false
	}
	if m == nil {
		return true
	}
	if !coveredBy(jsonItems(x.MatchExpressions), jsonItems(m.MatchExpressions)) {
		return false
	}
	if len(x.MatchLabels) > 0 {
		if len(m.MatchLabels) == 0 {
			return false
		}
		for k, v := range m.MatchLabels {
			if x.MatchLabels[k] != v {
				return false
			}
		}
	}
	return true
}

// jsonItems renders list items as JSON text, for set comparisons.
func jsonItems(v any) []string {
	var items []any
	if err := convertJSON(v, &items); err != nil {
		return nil
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		b, err := json.Marshal(it)
		if err == nil {
			out = append(out, string(b))
		}
	}
	return out
}
