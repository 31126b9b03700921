// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubefleet

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/apply-overrides/apply-overrides/policy"
)

// schedule decides, as KubeFleet's scheduler framework does
// (pkg/scheduler/framework @78e6ca7) on a first scheduling cycle (no
// bindings yet), which clusters of the fleet a placement picks: the
// picked clusters map to "", the others to why not.
func schedule(p *placement, fleet []*policy.Cluster) (map[string]string, error) {
	out := map[string]string{}
	pol := p.spec.Policy
	if p.typ() == pickFixed {
		for _, c := range fleet {
			out[c.Name] = "not in spec.policy.clusterNames"
		}
		for _, name := range pol.ClusterNames {
			c := find(fleet, name)
			switch {
			case c == nil:
				continue // "Specified cluster is not found"
			case ineligible(c) != "":
				out[name] = fmt.Sprintf("cluster %q is not eligible for resource placement yet: %s", name, ineligible(c))
			default:
				out[name] = ""
			}
		}
		return out, nil
	}
	var passed []*policy.Cluster
	for _, c := range fleet {
		why, err := filter(p, c)
		if err != nil {
			return nil, err
		}
		out[c.Name] = why
		if why == "" {
			passed = append(passed, c)
		}
	}
	if p.typ() == pickAll {
		return out, nil
	}
	scores, err := score(p, passed, fleet)
	if err != nil {
		return nil, err
	}
	n := int(*pol.NumberOfClusters)
	if len(pol.TopologySpreadConstraints) > 0 {
		return spread(pol.TopologySpreadConstraints, fleet, passed, scores, n, out), nil
	}
	// pickTopNScoredClusters sorts with sort.Reverse over a Less that
	// breaks ties by name, so among equal scores the names sort
	// descending: the lexicographically last names are picked first.
	sort.SliceStable(passed, func(i, j int) bool {
		a, b := scores[passed[i].Name], scores[passed[j].Name]
		if a != b {
			return a > b
		}
		return passed[i].Name > passed[j].Name
	})
	for i, c := range passed {
		if i >= n {
			out[c.Name] = fmt.Sprintf("not among the %d highest-scoring clusters (spec.policy.numberOfClusters; score %d)", n, scores[c.Name])
		}
	}
	return out, nil
}

func find(fleet []*policy.Cluster, name string) *policy.Cluster {
	for _, c := range fleet {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// filter runs the filter plugins: cluster eligibility, the required
// cluster affinity, taints and tolerations.
func filter(p *placement, c *policy.Cluster) (string, error) {
	if why := ineligible(c); why != "" {
		return why, nil
	}
	pol := p.spec.Policy
	if ca := clusterAffinityOf(pol); ca != nil && ca.Required != nil && len(ca.Required.ClusterSelectorTerms) > 0 {
		ok := false
		for i, t := range ca.Required.ClusterSelectorTerms {
			m, err := termMatches(t, c)
			if err != nil {
				return "", onField(p.ref, fmt.Sprintf("spec.policy.affinity.clusterAffinity.requiredDuringSchedulingIgnoredDuringExecution.clusterSelectorTerms[%d]", i), err)
			}
			if m {
				ok = true
				break
			}
		}
		if !ok {
			return "the cluster does not match any required cluster selector term", nil
		}
	}
	if pol != nil {
		for _, t := range c.Taints {
			if !slices.ContainsFunc(pol.Tolerations, func(tol toleration) bool { return tolerates(tol, t) }) {
				return fmt.Sprintf("taint %s=%s:%s is not tolerated (spec.policy.tolerations)", t.Key, t.Value, t.Effect), nil
			}
		}
	} else if len(c.Taints) > 0 {
		t := c.Taints[0]
		return fmt.Sprintf("taint %s=%s:%s is not tolerated (spec.policy.tolerations)", t.Key, t.Value, t.Effect), nil
	}
	return "", nil
}

// tolerates is the taint toleration plugin's canTolerationTolerateTaint:
// Equal (the CRD's default operator) compares key and value, even an
// empty key; Exists matches any key when its own is empty.
func tolerates(tol toleration, t policy.Taint) bool {
	effect := tol.Effect == t.Effect || tol.Effect == ""
	switch tol.Operator {
	case "Exists":
		return (tol.Key == "" || tol.Key == t.Key) && effect
	case "", "Equal":
		return tol.Key == t.Key && tol.Value == t.Value && effect
	}
	return false
}

// termMatches is the cluster affinity plugin's clusterRequirement.Matches:
// the label selector, then each property expression (a cluster without
// the property does not match).
func termMatches(t clusterSelectorTerm, c *policy.Cluster) (bool, error) {
	if t.LabelSelector != nil {
		s, err := metav1.LabelSelectorAsSelector(t.LabelSelector.metav1())
		if err != nil {
			return false, err
		}
		if !s.Matches(labels.Set(c.Labels)) {
			return false, nil
		}
	}
	if t.PropertySelector == nil {
		return true, nil
	}
	for _, e := range t.PropertySelector.MatchExpressions {
		q, err := propertyOf(c, e.Name)
		if err != nil || q == nil {
			return false, err
		}
		want, err := resource.ParseQuantity(e.Values[0])
		if err != nil {
			return false, err
		}
		cmp := q.Cmp(want)
		ok := map[string]bool{"Eq": cmp == 0, "Ne": cmp != 0, "Gt": cmp > 0, "Ge": cmp >= 0, "Lt": cmp < 0, "Le": cmp <= 0}[e.Operator]
		if !ok {
			return false, nil
		}
	}
	return true, nil
}

// score is the cluster affinity plugin's Score: each preferred term with
// a non-zero weight adds its weight to a cluster it matches, or with a
// property sorter the weight interpolated between the lowest and highest
// value that any cluster of the fleet reports (the cycle state lists
// every cluster, filtered or not).
func score(p *placement, passed, fleet []*policy.Cluster) (map[string]int32, error) {
	scores := map[string]int32{}
	ca := clusterAffinityOf(p.spec.Policy)
	if ca == nil {
		return scores, nil
	}
	for i, t := range ca.Preferred {
		if t.Weight == 0 {
			continue
		}
		field := fmt.Sprintf("spec.policy.affinity.clusterAffinity.preferredDuringSchedulingIgnoredDuringExecution[%d]", i)
		var lo, hi *resource.Quantity
		if s := t.Preference.PropertySorter; s != nil {
			for _, c := range fleet {
				q, err := propertyOf(c, s.Name)
				if err != nil {
					return nil, onField(p.ref, field, err)
				}
				if q == nil {
					continue
				}
				if lo == nil || q.Cmp(*lo) < 0 {
					lo = q
				}
				if hi == nil || q.Cmp(*hi) > 0 {
					hi = q
				}
			}
			if lo == nil {
				return nil, onField(p.ref, field+".preference.propertySorter", fmt.Errorf(
					"no cluster reports property %s in its MemberCluster status: add status.properties or status.resourceUsage to the MemberClusters, as their member agents report them", s.Name))
			}
		}
		for _, c := range passed {
			w, err := prefer(t, c, lo, hi)
			if err != nil {
				return nil, onField(p.ref, field, err)
			}
			scores[c.Name] += w
		}
	}
	return scores, nil
}

// prefer is clusterPreference.Scores.
func prefer(t preferredSelector, c *policy.Cluster, lo, hi *resource.Quantity) (int32, error) {
	if t.Preference.LabelSelector != nil {
		s, err := metav1.LabelSelectorAsSelector(t.Preference.LabelSelector.metav1())
		if err != nil {
			return 0, err
		}
		if !s.Matches(labels.Set(c.Labels)) {
			return 0, nil
		}
	}
	ps := t.Preference.PropertySorter
	if ps == nil {
		return t.Weight, nil
	}
	q, err := propertyOf(c, ps.Name)
	if err != nil || q == nil {
		return 0, err
	}
	f, minF, maxF := q.AsApproximateFloat64(), lo.AsApproximateFloat64(), hi.AsApproximateFloat64()
	if minF == maxF {
		return 0, nil
	}
	r := (f - minF) / (maxF - minF)
	if ps.SortOrder == "Ascending" {
		r = 1 - r
	}
	return int32(math.Round(r * float64(t.Weight))), nil
}
