// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubeadmiral

import (
	"fmt"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"

	"github.com/apply-overrides/apply-overrides/policy"
)

// clusterMatches mirrors override/util.go isClusterMatched: clusters, then
// clusterSelector, then clusterAffinity, ANDed and short-circuited, so an
// error in a later criterion is not raised when an earlier one failed.
func clusterMatches(c *policy.Cluster, t *targetClusters) (bool, error) {
	if t == nil {
		return true, nil
	}
	if len(t.Clusters) > 0 && !slices.Contains(t.Clusters, c.Name) {
		return false, nil
	}
	sel, err := metav1.LabelSelectorAsSelector(&metav1.LabelSelector{MatchLabels: t.ClusterSelector})
	if err != nil {
		return false, fmt.Errorf("failed to interpret clusterSelector: %w", err)
	}
	if !sel.Matches(labels.Set(c.Labels)) {
		return false, nil
	}
	if len(t.ClusterAffinity) == 0 {
		return true, nil
	}
	return matchTerms(c, t.ClusterAffinity)
}

// matchTerms mirrors clusterselector.MatchClusterSelectorTerms: terms are
// ORed in order, an empty term selects nothing.
func matchTerms(c *policy.Cluster, terms []clusterSelectorTerm) (bool, error) {
	for _, term := range terms {
		if len(term.MatchExpressions) == 0 && len(term.MatchFields) == 0 {
			continue
		}
		if len(term.MatchExpressions) > 0 {
			sel, err := labelSelector(term.MatchExpressions)
			if err != nil {
				return false, err
			}
			if !sel.Matches(labels.Set(c.Labels)) {
				continue
			}
		}
		if len(term.MatchFields) > 0 {
			sel, err := fieldSelector(term.MatchFields)
			if err != nil {
				return false, err
			}
			if !sel.Matches(fields.Set{"metadata.name": c.Name}) {
				continue
			}
		}
		return true, nil
	}
	return false, nil
}

var selectorOps = map[string]selection.Operator{
	"In": selection.In, "NotIn": selection.NotIn, "Exists": selection.Exists,
	"DoesNotExist": selection.DoesNotExist, "Gt": selection.GreaterThan, "Lt": selection.LessThan,
}

// labelSelector mirrors ClusterSelectorRequirementsAsSelector.
func labelSelector(reqs []requirement) (labels.Selector, error) {
	s := labels.NewSelector()
	for _, e := range reqs {
		op, ok := selectorOps[e.Operator]
		if !ok {
			return nil, fmt.Errorf("%q is not a valid cluster selector operator", e.Operator)
		}
		r, err := labels.NewRequirement(e.Key, op, e.Values)
		if err != nil {
			return nil, err
		}
		s = s.Add(*r)
	}
	return s, nil
}

// fieldSelector mirrors ClusterSelectorRequirementsAsFieldSelector: In and
// NotIn with exactly one value; the only field is metadata.name.
func fieldSelector(reqs []requirement) (fields.Selector, error) {
	var sels []fields.Selector
	for _, e := range reqs {
		switch e.Operator {
		case "In", "NotIn":
			if len(e.Values) != 1 {
				return nil, fmt.Errorf("unexpected number of value (%d) for cluster field selector operator %q", len(e.Values), e.Operator)
			}
			if e.Operator == "In" {
				sels = append(sels, fields.OneTermEqualSelector(e.Key, e.Values[0]))
			} else {
				sels = append(sels, fields.OneTermNotEqualSelector(e.Key, e.Values[0]))
			}
		default:
			return nil, fmt.Errorf("%q is not a valid cluster field selector operator", e.Operator)
		}
	}
	return fields.AndSelectors(sels...), nil
}
