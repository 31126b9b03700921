// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubefleet

import (
	"fmt"

	"github.com/apply-overrides/apply-overrides/policy"
)

// plan is what every placement decided, once per input.
type plan struct {
	places bool
	// enforce: spec.placement enforce, where what no placement selects
	// goes nowhere.
	enforce bool
	list    []*decision
	notes   []error
}

// decision is one placement's: the resources it selects (by resourceKey)
// and, per cluster, "" when it picks the cluster or why it does not.
type decision struct {
	p        *placement
	key      string
	selected map[string]bool
	clusters map[string]string
}

func newPlan(ps *policies, t policy.Target, places bool) (*plan, error) {
	pl := &plan{places: places, enforce: t.Placement == policy.PlacementEnforce}
	if !places {
		return pl, nil
	}
	in := readInput(t.Resources)
	for _, d := range ps.placements.List {
		sel, err := in.selectResources(d.Policy)
		if err != nil {
			return nil, err
		}
		clusters, err := schedule(d.Policy, t.Fleet)
		if err != nil {
			return nil, err
		}
		pl.list = append(pl.list, &decision{p: d.Policy, key: d.Key, selected: sel, clusters: clusters})
	}
	pl.notes = statusNotes(t.Fleet)
	return pl, nil
}

// via lists the placements that send res to the cluster.
func (pl *plan) via(res *policy.Resource, cluster string) []string {
	if !pl.places {
		return nil
	}
	var out []string
	k := resourceKey(res)
	for _, d := range pl.list {
		if d.selected[k] && d.clusters[cluster] == "" {
			out = append(out, d.key)
		}
	}
	return out
}

// Place is the binding's Placer: a resource some placement selects goes
// to the cluster when one of them picks it, stripped of what the hub
// strips before it sends a resource; a Delete override keeps it away.
func (b *binding) Place(res *policy.Resource) (policy.Placement, bool, error) {
	var by *decision
	var why string
	decided := false
	k := resourceKey(res)
	if b.plan.places {
		for _, d := range b.plan.list {
			if !d.selected[k] {
				continue
			}
			decided = true
			if r, ok := d.clusters[b.cluster.Name]; ok && r == "" {
				by = d
				break
			} else if why == "" {
				if !ok {
					r = "the cluster is not in the fleet"
				}
				why = fmt.Sprintf("%s (%s) does not pick the cluster: %s", d.p.ref, d.p.typ(), r)
			}
		}
	}
	if decided && by == nil {
		ref := b.plan.firstSelecting(k)
		return policy.Placement{By: ref, Reason: why}, true, nil
	}
	del, err := b.deleted(res)
	if err != nil {
		return policy.Placement{}, false, err
	}
	if del != nil {
		return policy.Placement{By: del.Policy, Rule: del.Field, Reason: fmt.Sprintf("%s %s has overrideType Delete for this cluster", del.Policy, del.Field)}, true, nil
	}
	if by == nil && b.plan.enforce && b.plan.places {
		return policy.Placement{Reason: "spec.placement is enforce, and no ClusterResourcePlacement or ResourcePlacement selects it"}, true, nil
	}
	if by == nil {
		return policy.Placement{}, false, nil
	}
	pl := policy.Placement{Placed: true, By: &by.p.ref, Reason: by.p.picked()}
	if needsStrip(res.Node) {
		pl.Revise = policy.Step{Field: "spec.resourceSelectors", Filter: stripFilter{}}
	}
	return pl, true, nil
}

func (pl *plan) firstSelecting(k string) *policy.Ref {
	for _, d := range pl.list {
		if d.selected[k] {
			return &d.p.ref
		}
	}
	return nil
}

// picked says why the placement picks a cluster it picks, by its type.
func (p *placement) picked() string {
	switch p.typ() {
	case pickFixed:
		return "PickFixed: the cluster is in spec.policy.clusterNames"
	case pickN:
		return fmt.Sprintf("PickN: the cluster is among the %d best-scoring clusters its spec.policy.numberOfClusters asks for", *p.spec.Policy.NumberOfClusters)
	}
	return "PickAll: the cluster is eligible and passes its required cluster affinity and tolerations"
}
