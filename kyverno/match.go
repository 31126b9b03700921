// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyverno

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/apply-overrides/apply-overrides/internal/wildcard"
)

// operation is the admission operation of an offline render: every
// resource is being created.
const operation = "CREATE"

// object is what rule matching reads of the current resource. The GVK is
// fixed from the resource as it entered the policy; the rest is re-read
// after every rule, as upstream matches later rules on earlier output.
type object struct {
	group, version, kind string
	name, namespace      string
	// meta is the resource's metadata, whose labels and annotations
	// (strings only) are read when a filter needs them.
	meta                map[string]any
	labels, annotations map[string]string
	read                bool
	// nsLabels are the labels of the resource's namespace (from a Namespace
	// object of the input; empty for a cluster-scoped resource); nsKnown is
	// false when the input has no such Namespace.
	nsLabels map[string]string
	nsKnown  bool
	// namespaceNeeded records that a namespaceSelector was reached (every
	// other criterion of its filter held) while nsKnown is false.
	namespaceNeeded bool
}

// matches reports whether rule r selects o (match, then exclude), as
// upstream's MatchesResourceDescription does without admission user info.
func (r *Rule) matches(o *object) bool {
	m := r.Match
	matched := false
	switch {
	case len(m.Any) > 0:
		for _, f := range m.Any {
			if f.Resources.empty() {
				continue // "match cannot be empty": user info is dropped offline
			}
			if o.matchesDescription(&f.Resources) {
				matched = true
				break
			}
		}
	case len(m.All) > 0:
		matched = true
		for _, f := range m.All {
			if f.Resources.empty() || !o.matchesDescription(&f.Resources) {
				matched = false
				break
			}
		}
	default:
		matched = !m.Resources.empty() && o.matchesDescription(&m.Resources)
	}
	if !matched || r.Exclude == nil {
		return matched
	}
	return !o.excluded(r.Exclude)
}

// mayMatchKind is matches on the kind criteria alone (exclude ignored): a
// rule that matches o also passes it, so false means it cannot match.
func (r *Rule) mayMatchKind(o *object) bool {
	return r.Match.holds(func(f ResourceFilter) bool {
		return !f.Resources.empty() && (len(f.Resources.Kinds) == 0 || o.kindMatches(f.Resources.Kinds))
	})
}

// excluded reports whether an exclude block excludes o. Offline there is no
// user info, so a filter with user criteria never matches.
func (o *object) excluded(x *MatchResources) bool {
	return x.holds(func(f ResourceFilter) bool {
		if f.Resources.empty() && !f.hasUserInfo() {
			return false
		}
		return !f.hasUserInfo() && o.matchesDescription(&f.Resources)
	})
}

// holds applies a filter test the way a match or exclude block combines
// its filters: any of any, all of all, else the block's own filter.
func (x *MatchResources) holds(test func(ResourceFilter) bool) bool {
	switch {
	case len(x.Any) > 0:
		return slices.ContainsFunc(x.Any, test)
	case len(x.All) > 0:
		for _, f := range x.All {
			if !test(f) {
				return false
			}
		}
		return true
	default:
		return test(ResourceFilter{Resources: x.Resources, Subjects: x.Subjects, Roles: x.Roles, ClusterRoles: x.ClusterRoles})
	}
}

func (f ResourceFilter) hasUserInfo() bool {
	return f.Subjects != nil || len(f.Roles) > 0 || len(f.ClusterRoles) > 0
}

func (d *ResourceDescription) empty() bool {
	return len(d.Kinds) == 0 && d.Name == "" && len(d.Names) == 0 && len(d.Namespaces) == 0 &&
		len(d.Annotations) == 0 && d.Selector == nil && d.NamespaceSelector == nil && len(d.Operations) == 0
}

// matchesDescription is upstream's doesResourceMatchConditionBlock.
func (o *object) matchesDescription(d *ResourceDescription) bool {
	if len(d.Operations) > 0 && !slices.Contains(d.Operations, operation) {
		return false
	}
	if len(d.Kinds) > 0 && !o.kindMatches(d.Kinds) {
		return false
	}
	name := o.name
	if d.Name != "" && !wildcard.Match(d.Name, name) {
		return false
	}
	if len(d.Names) > 0 && !slices.ContainsFunc(d.Names, func(p string) bool { return wildcard.Match(p, name) }) {
		return false
	}
	if len(d.Namespaces) > 0 {
		ns := o.namespace
		if o.kind == "Namespace" {
			ns = o.name
		}
		if !slices.ContainsFunc(d.Namespaces, func(p string) bool { return wildcard.Match(p, ns) }) {
			return false
		}
	}
	if (len(d.Annotations) > 0 || d.Selector != nil) && !o.read && o.meta != nil {
		o.labels, o.annotations, o.read = stringMap(o.meta["labels"]), stringMap(o.meta["annotations"]), true
	}
	if len(d.Annotations) > 0 && !annotationsMatch(d.Annotations, o.annotations) {
		return false
	}
	if d.Selector != nil && !selectorMatches(d.Selector, o.labels) {
		return false
	}
	if d.NamespaceSelector != nil {
		if o.kind == "Namespace" {
			return false // not applicable to a Namespace
		}
		if !o.nsKnown {
			o.namespaceNeeded = true
			return false
		}
		if !selectorMatches(d.NamespaceSelector, o.nsLabels) {
			return false
		}
	}
	return true
}

// versionPattern is the version part of a kind selector (Kyverno v1.19.1:
// one digit after "v" and after alpha/beta).
var versionPattern = regexp.MustCompile(`^(v\d((alpha|beta)\d)?|\*)$`)

// parseKindSelector splits a kinds entry into group, version, kind and
// subresource patterns: Kind, version/Kind, group/version/Kind,
// Kind/subresource, Kind.subresource and the four-part form.
func parseKindSelector(s string) (group, version, kind, sub string) {
	parts := strings.Split(s, "/")
	parts = append(parts[:len(parts)-1], strings.Split(parts[len(parts)-1], ".")...)
	switch len(parts) {
	case 1:
		return "*", "*", parts[0], ""
	case 2:
		switch {
		case parts[0] == "*" && parts[1] == "*":
			return "*", "*", "*", "*"
		case parts[0] == "*" && strings.ToLower(parts[1]) == parts[1]:
			return "*", "*", parts[0], parts[1]
		case versionPattern.MatchString(parts[0]):
			return "*", parts[0], parts[1], ""
		}
		return "*", "*", parts[0], parts[1]
	case 3:
		if versionPattern.MatchString(parts[0]) {
			return "*", parts[0], parts[1], parts[2]
		}
		return parts[0], parts[1], parts[2], ""
	case 4:
		return parts[0], parts[1], parts[2], parts[3]
	}
	return "", "", "", ""
}

// kindSelector is parseKindSelector, remembered: kinds entries come from
// policies, a few per run, and are read for every resource.
func kindSelector(s string) (group, version, kind, sub string) {
	kindSelectors.RLock()
	p, ok := kindSelectors.m[s]
	kindSelectors.RUnlock()
	if !ok {
		p[0], p[1], p[2], p[3] = parseKindSelector(s)
		kindSelectors.Lock()
		kindSelectors.m[s] = p
		kindSelectors.Unlock()
	}
	return p[0], p[1], p[2], p[3]
}

var kindSelectors = struct {
	sync.RWMutex
	m map[string][4]string
}{m: map[string][4]string{}}

// kindMatches is upstream's CheckKind for a resource (no subresource).
func (o *object) kindMatches(kinds []string) bool {
	for _, k := range kinds {
		g, v, kind, sub := kindSelector(k)
		if wildcard.Match(g, o.group) && wildcard.Match(v, o.version) && wildcard.Match(kind, o.kind) && wildcard.Match(sub, "") {
			return true
		}
	}
	return false
}

// annotationsMatch: every expected pair wildcard-matches some actual pair.
func annotationsMatch(expected, actual map[string]string) bool {
	for k, v := range expected {
		found := false
		for k1, v1 := range actual {
			if wildcard.Match(k, k1) && wildcard.Match(v, v1) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// selectorMatches is upstream's CheckSelector: wildcards in matchLabels are
// first replaced by a matching label of the object (or by "0"), then the
// selector is evaluated as Kubernetes does. An invalid selector matches
// nothing (it was reported when the policy was compiled).
func selectorMatches(s *LabelSelector, actual map[string]string) bool {
	expanded := &LabelSelector{MatchLabels: map[string]string{}, MatchExpressions: s.MatchExpressions}
	for k, v := range s.MatchLabels {
		if strings.ContainsAny(k, "*?") || strings.ContainsAny(v, "*?") {
			k, v = expandWildcards(k, v, actual)
		}
		expanded.MatchLabels[k] = v
	}
	sel, err := expanded.selector()
	if err != nil {
		return false
	}
	return sel.Matches(labels.Set(actual))
}

// selector is the Kubernetes selector s describes.
func (s *LabelSelector) selector() (labels.Selector, error) {
	ls := &metav1.LabelSelector{MatchLabels: s.MatchLabels}
	for _, e := range s.MatchExpressions {
		ls.MatchExpressions = append(ls.MatchExpressions, metav1.LabelSelectorRequirement{
			Key: e.Key, Operator: metav1.LabelSelectorOperator(e.Operator), Values: e.Values,
		})
	}
	return metav1.LabelSelectorAsSelector(ls)
}

// selectorHasWildcard is upstream's LabelSelectorContainsWildcard: such
// selectors are only resolved against a resource.
func selectorHasWildcard(s *LabelSelector) bool {
	for k, v := range s.MatchLabels {
		if strings.ContainsAny(k, "*?") || strings.ContainsAny(v, "*?") {
			return true
		}
	}
	return false
}

// expandWildcards picks the object's label matching pattern k=v. Upstream
// ranges over a Go map, so which of several matching labels wins is
// unspecified there; this takes the smallest key, which gives the same
// match result.
func expandWildcards(k, v string, actual map[string]string) (string, string) {
	keys := make([]string, 0, len(actual))
	for k1 := range actual {
		keys = append(keys, k1)
	}
	slices.Sort(keys)
	for _, k1 := range keys {
		if wildcard.Match(k, k1) && wildcard.Match(v, actual[k1]) {
			return k1, actual[k1]
		}
	}
	r := strings.NewReplacer("*", "0", "?", "0")
	return r.Replace(k), r.Replace(v)
}
