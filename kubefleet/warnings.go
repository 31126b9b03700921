// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubefleet

import (
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/apply-overrides/apply-overrides/policy"
)

// This file feeds the run's warnings about what matches nothing: the
// override rules that select no cluster of the inventory, the rules bound
// to a cluster (policy.Binding.Rules), the placements
// (policy.Binding.Placements) and which of them claim a resource
// (policy.Claimer).

// unmatchedSelectors warns about the override rules whose clusterSelector
// selects no cluster of the inventory: most often a misspelt label, which
// would otherwise render silently as "not for this cluster". A rule
// without clusterSelector selects no cluster at all (IsClusterMatched).
func (ps *policies) unmatchedSelectors(fleet []*policy.Cluster) []error {
	if len(fleet) == 0 {
		return nil
	}
	var warnings []error
	for _, d := range ps.overrides.List {
		for i, r := range d.Policy.rules {
			path := fmt.Sprintf("spec.policy.overrideRules[%d].clusterSelector", i)
			var err error
			switch {
			case r.ClusterSelector == nil:
				err = fmt.Errorf("%s is not set, and KubeFleet selects no cluster for a rule without one, so the rule applies nowhere: set clusterSelector, with clusterSelectorTerms: [] for every cluster", path)
			case anyCluster(fleet, r.ClusterSelector):
				continue
			default:
				err = fmt.Errorf("%s (%s) matches no cluster of the inventory (%s), so the rule applies nowhere: check its labels against the MemberClusters' labels", path, describeClusters(r.ClusterSelector), policy.FleetNames(fleet))
			}
			warnings = append(warnings, &policy.Error{Policy: d.Ref, Field: path, Err: &policy.Warning{Err: err}})
		}
	}
	return warnings
}

func anyCluster(fleet []*policy.Cluster, cs *clusterSelector) bool {
	for _, c := range fleet {
		if clusterMatches(c, cs) {
			return true
		}
	}
	return false
}

// describeClusters spells a clusterSelector's terms as label selectors,
// e.g. "env=prd or region in (eu)".
func describeClusters(cs *clusterSelector) string {
	if len(cs.ClusterSelectorTerms) == 0 {
		return "every cluster"
	}
	terms := make([]string, len(cs.ClusterSelectorTerms))
	for i, t := range cs.ClusterSelectorTerms {
		var ls *metav1.LabelSelector
		if t.LabelSelector != nil {
			ls = t.LabelSelector.metav1()
		}
		terms[i] = metav1.FormatLabelSelector(ls)
	}
	return "labels " + strings.Join(terms, " or ")
}

// boundRules are the rules bound to the cluster, for the warning about
// a rule that matched no resource while its override matched some: a
// JSON patch rule matches what the Set applies it to, a Delete rule what
// the Placer keeps away (policy.Placement.Rule).
func (b *binding) boundRules() []policy.BoundRule {
	var out []policy.BoundRule
	for _, list := range [][]*bound{b.cros, b.ros} {
		for _, bo := range list {
			for _, r := range bo.rules {
				cs := bo.o.rules[r.index].ClusterSelector
				out = append(out, policy.BoundRule{
					Policy: bo.ref, Rule: fmt.Sprintf("spec.policy.overrideRules[%d]", r.index), Hint: unplacedHint(cs),
				})
			}
		}
	}
	return out
}

// unplacedHint says why a rule may match nothing while its override
// matches resources: every rule applies to the resources the override
// selects, in the clusters its clusterSelector selects, so no placement
// sent them there, or a Delete rule kept them away.
func unplacedHint(cs *clusterSelector) func(policy.Seen) string {
	where := "the clusters its clusterSelector selects (" + describeClusters(cs) + ")"
	return func(policy.Seen) string {
		return "its override selects resources, but no placement sends them to " + where + ", or a Delete rule keeps them from there: check the rule's clusterSelector against the placements"
	}
}

// placementRefs are the placements the Placer decides with.
func (pl *plan) placementRefs() []policy.Ref {
	out := make([]policy.Ref, len(pl.list))
	for i, d := range pl.list {
		out[i] = d.p.ref
	}
	return out
}

var _ policy.Claimer = (*binding)(nil)

// Claim says which placements select res: KubeFleet lets every placement
// that selects a resource place it, so the first claims it and the others
// claim it too (Also); none loses it.
func (b *binding) Claim(res *policy.Resource) policy.Claim {
	var c policy.Claim
	if !b.plan.places {
		return c
	}
	k := resourceKey(res)
	for _, d := range b.plan.list {
		if !d.selected[k] {
			continue
		}
		if c.By == nil {
			c.By = &d.p.ref
		} else {
			c.Also = append(c.Also, d.p.ref)
		}
	}
	return c
}

// Unclaimed says why a placement selects no resource of the input.
func (Dialect) Unclaimed(ref policy.Ref) string {
	if ref.Kind == KindResourcePlacement {
		return fmt.Sprintf("its resourceSelectors select no resource of the input in namespace %s (a ResourcePlacement selects only resources of its own namespace): check their group, version, kind, name and labelSelector", ref.Namespace)
	}
	return "its resourceSelectors select no resource of the input: check their group, version, kind, name and labelSelector (a Namespace selector needs the Namespace in the input)"
}
