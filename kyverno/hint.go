// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyverno

import (
	"slices"
	"strings"

	"github.com/apply-overrides/apply-overrides/policy"
)

// unmatchedHint says what a rule selects, for the warning about a rule
// that matched no resource: its match's kinds, names and namespaces, the
// other conditions it sets, and the kinds and names of the rendered
// resources that are a near miss of those it names. afterOthers marks a
// rule of a policy with spec.applyRules One that other rules precede.
func unmatchedHint(r *Rule, afterOthers bool, seen policy.Seen) string {
	var kinds, names, namespaces, other []string
	for _, f := range filtersOf("match", &r.Match) {
		d := &f.filter.Resources
		kinds = appendNew(kinds, d.Kinds...)
		if d.Name != "" {
			names = appendNew(names, d.Name)
		}
		names = appendNew(names, d.Names...)
		namespaces = appendNew(namespaces, d.Namespaces...)
		if d.Selector != nil {
			other = appendNew(other, "a label selector")
		}
		if d.NamespaceSelector != nil {
			other = appendNew(other, "a namespace selector")
		}
		if len(d.Annotations) > 0 {
			other = appendNew(other, "annotations")
		}
		if len(d.Operations) > 0 {
			other = appendNew(other, "operations "+strings.Join(d.Operations, ", "))
		}
	}
	if r.Exclude != nil {
		other = appendNew(other, "an exclude block")
	}
	if r.Preconditions != nil {
		other = appendNew(other, "preconditions")
	}
	var parts []string
	for _, l := range []struct {
		what string
		list []string
	}{{"kinds", kinds}, {"names", names}, {"namespaces", namespaces}} {
		switch len(l.list) {
		case 0:
		case 1:
			parts = append(parts, strings.TrimSuffix(l.what, "s")+" "+l.list[0])
		default:
			parts = append(parts, l.what+" "+strings.Join(l.list, ", "))
		}
	}
	msg := "it matches " + strings.Join(parts, "; ")
	if len(parts) == 0 {
		msg = "it matches no kind"
	}
	if len(other) > 0 {
		msg += ", with " + strings.Join(other, ", ")
	}
	var near []string
	for _, k := range kinds {
		kind := k[strings.LastIndex(k, "/")+1:]
		if !strings.ContainsAny(kind, "*?") && !slices.Contains(seen.Kinds, kind) {
			for _, n := range policy.Near(kind, seen.Kinds) {
				near = appendNew(near, "kind "+n)
			}
		}
	}
	for _, name := range names {
		if !strings.ContainsAny(name, "*?") && !slices.Contains(seen.Names, name) {
			for _, n := range policy.Near(name, seen.Names) {
				near = appendNew(near, "name "+n)
			}
		}
	}
	if len(near) > 0 {
		msg += "; near misses in the input: " + strings.Join(near, ", ")
	}
	if afterOthers {
		msg += "; spec.applyRules is One, so it is tried only on resources no earlier rule changed"
	}
	return msg + ": check the rule's match, exclude and preconditions"
}

// appendNew appends the values list does not hold yet.
func appendNew(list []string, values ...string) []string {
	for _, v := range values {
		if !slices.Contains(list, v) {
			list = append(list, v)
		}
	}
	return list
}
