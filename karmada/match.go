// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

import (
	"fmt"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"

	"github.com/apply-overrides/apply-overrides/policy"
)

// Implicit priorities of pkg/util.ResourceSelectorPriority.
const (
	priorityMismatch = iota
	priorityMatchAll
	priorityLabelSelector
	priorityName
)

// compiledSelector is a resourceSelector with its label selector parsed once.
type compiledSelector struct {
	resourceSelector
	// selector is nil when the selector has no labelSelector; invalid is set
	// when it cannot be parsed (it then never matches, as upstream).
	selector labels.Selector
	invalid  bool
}

func compileSelector(rs resourceSelector) compiledSelector {
	cs := compiledSelector{resourceSelector: rs}
	if rs.LabelSelector != nil {
		s, err := metav1.LabelSelectorAsSelector(toMetav1(rs.LabelSelector))
		cs.selector, cs.invalid = s, err != nil
	}
	return cs
}

// priority mirrors pkg/util.ResourceSelectorPriority.
func (cs *compiledSelector) priority(r *policy.Resource) int {
	if r.APIVersion != cs.APIVersion || r.Kind != cs.Kind || (cs.Namespace != "" && r.Namespace != cs.Namespace) {
		return priorityMismatch
	}
	if cs.Name != "" {
		if cs.Name == r.Name {
			return priorityName
		}
		return priorityMismatch
	}
	if cs.LabelSelector == nil {
		return priorityMatchAll
	}
	if cs.invalid || !cs.selector.Matches(labels.Set(r.Labels)) {
		return priorityMismatch
	}
	return priorityLabelSelector
}

func toMetav1(ls *labelSelector) *metav1.LabelSelector {
	out := &metav1.LabelSelector{MatchLabels: ls.MatchLabels}
	for _, r := range ls.MatchExpressions {
		out.MatchExpressions = append(out.MatchExpressions, metav1.LabelSelectorRequirement{
			Key: r.Key, Operator: metav1.LabelSelectorOperator(r.Operator), Values: r.Values,
		})
	}
	return out
}

// clusterMatches mirrors pkg/util.ClusterMatches @f8fdd02: exclude wins, then
// the label selector, the field selector (zone against spec.zones, provider
// and region as a node selector) and clusterNames, ANDed.
func clusterMatches(c *policy.Cluster, a *clusterAffinity) (bool, error) {
	if slices.Contains(a.Exclude, c.Name) {
		return false, nil
	}
	if a.LabelSelector != nil {
		s, err := metav1.LabelSelectorAsSelector(toMetav1(a.LabelSelector))
		if err != nil || !s.Matches(labels.Set(c.Labels)) {
			return false, nil
		}
	}
	if a.FieldSelector != nil {
		var others []requirement
		for _, e := range a.FieldSelector.MatchExpressions {
			if e.Key != "zone" {
				others = append(others, e)
				continue
			}
			if !matchZones(e, c.Zones) {
				return false, nil
			}
		}
		if len(others) > 0 {
			s, err := nodeSelector(others)
			if err != nil {
				return false, err
			}
			if s == nil || !s.Matches(clusterFields(c)) {
				return false, nil
			}
		}
	}
	return len(a.ClusterNames) == 0 || slices.Contains(a.ClusterNames, c.Name), nil
}

func matchZones(e requirement, zones []string) bool {
	switch e.Operator {
	case "In":
		for _, z := range zones {
			if slices.Contains(e.Values, z) {
				return true
			}
		}
		return false
	case "NotIn":
		for _, z := range zones {
			if slices.Contains(e.Values, z) {
				return false
			}
		}
		return true
	case "Exists":
		return len(zones) > 0
	case "DoesNotExist":
		return len(zones) == 0
	}
	return false
}

var nodeSelectorOps = map[string]selection.Operator{
	"In": selection.In, "NotIn": selection.NotIn, "Exists": selection.Exists,
	"DoesNotExist": selection.DoesNotExist, "Gt": selection.GreaterThan, "Lt": selection.LessThan,
}

// nodeSelector mirrors lifted.NodeSelectorRequirementsAsSelector. An unknown
// operator means no match (nil selector). An invalid requirement (e.g. In
// with no values) makes upstream dereference a nil pointer and panic; that
// is reported as an error instead.
func nodeSelector(reqs []requirement) (labels.Selector, error) {
	s := labels.NewSelector()
	unknownOp := false
	for _, e := range reqs {
		op, ok := nodeSelectorOps[e.Operator]
		if !ok {
			unknownOp = true
			continue
		}
		r, err := labels.NewRequirement(e.Key, op, e.Values)
		if err != nil {
			return nil, fmt.Errorf("fieldSelector requirement %s %s %v: %w (Karmada's controller panics on this requirement)", e.Key, e.Operator, e.Values, err)
		}
		s = s.Add(*r)
	}
	if unknownOp {
		return nil, nil
	}
	return s, nil
}

func clusterFields(c *policy.Cluster) labels.Set {
	set := labels.Set{}
	if c.Provider != "" {
		set["provider"] = c.Provider
	}
	if c.Region != "" {
		set["region"] = c.Region
	}
	return set
}
