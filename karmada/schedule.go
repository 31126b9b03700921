// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/apply-overrides/apply-overrides/policy"
)

// This file is Karmada's scheduler (pkg/scheduler at v1.16.0) for a fresh
// binding, as far as YAML decides it: the filter plugins, the canonical
// order, the spread-constraint selection and the replica assignment.

// placed is where one resource goes.
type placed struct {
	policy  *propagationPolicy
	targets []assignment // the clusters that receive it, with their replicas
	// revise is whether the member manifests get the cluster's share
	// (binding replicas > 0: ensureWork's needReviseReplicas).
	revise bool
	// divided is whether Job completions are split (needReviseJobCompletions).
	divided bool
	// completions is each target's share of a Job's spec.completions.
	completions map[string]int32
	// why says, per cluster left out, why.
	why map[string]string
	// nowhere is why the resource goes to no cluster at all ("" when it goes
	// somewhere).
	nowhere string
}

// schedule places a claimed resource on the fleet (every cluster of the
// inventory, sorted by name).
func schedule(p *propagationPolicy, res *policy.Resource, w workload, fleet []*policy.Cluster) (*placed, error) {
	out := &placed{policy: p, why: map[string]string{}}
	if p.schedulerName != defaultSchedulerName {
		out.nowhere = fmt.Sprintf("%s names scheduler %q; only Karmada's default-scheduler is reproduced, and it leaves such bindings alone", p.ref, p.schedulerName)
		return out, nil
	}
	pl := &p.placement
	var affinities []*clusterAffinity
	var names []string
	switch {
	case pl.ClusterAffinity != nil:
		affinities, names = []*clusterAffinity{pl.ClusterAffinity}, []string{"clusterAffinity"}
	case pl.ClusterAffinities != nil:
		for i := range pl.ClusterAffinities {
			affinities = append(affinities, pl.ClusterAffinities[i].affinity())
			names = append(names, fmt.Sprintf("clusterAffinities[%d] (%s)", i, pl.ClusterAffinities[i].AffinityName))
		}
		if len(affinities) == 0 {
			out.nowhere = fmt.Sprintf("%s has an empty spec.placement.clusterAffinities: the scheduler tries no term", p.ref)
			return out, nil
		}
	default:
		affinities, names = []*clusterAffinity{nil}, []string{""}
	}
	// Each clusterAffinities term is a complete scheduling attempt; the
	// first that succeeds wins (scheduleResourceBindingWithClusterAffinities).
	var failures []string
	for i, a := range affinities {
		targets, why, err := attempt(p, res, w, a, fleet)
		if err == nil {
			out.targets, out.why = targets, why
			break
		}
		var missing *missingCapacity
		if errors.As(err, &missing) {
			return nil, err // the decision needs facts the input lacks
		}
		if names[i] != "" {
			err = fmt.Errorf("%s: %w", names[i], err)
		}
		failures = append(failures, err.Error())
		out.why = why
	}
	if out.targets == nil {
		out.nowhere = fmt.Sprintf("%s places it on no cluster: %s", p.ref, strings.Join(failures, "; "))
		return out, nil
	}
	out.revise = w.replicas > 0
	rs := pl.ReplicaScheduling
	out.divided = w.replicas > 0 && rs != nil && rs.ReplicaSchedulingType == schedulingDivided
	if out.divided {
		c, err := jobCompletions(res.Node, out.targets, w.uid)
		if err != nil {
			return nil, err
		}
		out.completions = c
	}
	return out, nil
}

// attempt is one run of the generic scheduler with one cluster affinity:
// filter, order, select, assign.
func attempt(p *propagationPolicy, res *policy.Resource, w workload, a *clusterAffinity, fleet []*policy.Cluster) ([]assignment, map[string]string, error) {
	why := map[string]string{}
	var feasible []*policy.Cluster
	for _, c := range fleet {
		if reason := filter(p, res, a, c); reason != "" {
			why[c.Name] = reason
			continue
		}
		feasible = append(feasible, c)
	}
	if len(feasible) == 0 {
		return nil, why, errors.New("no cluster fits (" + policy.Reasons(why) + ")")
	}
	if err := needCapacity(p, w, feasible); err != nil {
		return nil, why, err
	}
	// The canonical order: score (0 for a fresh binding), available
	// replicas descending, name ascending.
	avail := make(map[string]int64, len(feasible))
	for _, c := range feasible {
		avail[c.Name] = availableForOrdering(c, w.replicas, w.req)
	}
	sort.SliceStable(feasible, func(i, j int) bool {
		if avail[feasible[i].Name] != avail[feasible[j].Name] {
			return avail[feasible[i].Name] > avail[feasible[j].Name]
		}
		return feasible[i].Name < feasible[j].Name
	})
	selected, err := selectClusters(&p.placement, feasible, avail, w.replicas)
	if err != nil {
		return nil, why, err
	}
	for _, c := range feasible {
		if !slices.Contains(selected, c) {
			why[c.Name] = "not selected by spec.placement.spreadConstraints"
		}
	}
	s, err := replicaStrategy(&p.placement)
	if err != nil {
		return nil, why, err
	}
	targets, err := assignReplicas(selected, w.replicas, w.req, w.uid, s)
	if err != nil {
		return nil, why, err
	}
	for _, c := range selected {
		if !slices.ContainsFunc(targets, func(t assignment) bool { return t.name == c.Name }) {
			why[c.Name] = "assigned 0 replicas by spec.placement.replicaScheduling, so the cluster receives nothing"
		}
	}
	return targets, why, nil
}

// filter runs the filter plugins in the registry's order (apienablement,
// tainttoleration, clusteraffinity, spreadconstraint; clusterlocality and
// clustereviction pass every cluster of a fresh binding) and says why the
// first that rejects the cluster does, or "".
func filter(p *propagationPolicy, res *policy.Resource, a *clusterAffinity, c *policy.Cluster) string {
	if c.APIs != nil && !slices.Contains(c.APIs, res.APIVersion+"/"+res.Kind) {
		return fmt.Sprintf("its status.apiEnablements does not list %s %s", res.APIVersion, res.Kind)
	}
	if t := policy.Untolerated(c.Taints, p.placement.ClusterTolerations, "NoSchedule", "NoExecute"); t != nil {
		return fmt.Sprintf("taint %s=%s:%s is not tolerated by spec.placement.clusterTolerations", t.Key, t.Value, t.Effect)
	}
	if a != nil {
		if ok, why := placementMatches(c, a); !ok {
			return why
		}
	}
	for _, sc := range p.placement.SpreadConstraints {
		switch {
		case sc.SpreadByField == "provider" && c.Provider == "",
			sc.SpreadByField == "region" && c.Region == "",
			sc.SpreadByField == "zone" && len(placementZones(c)) == 0:
			return fmt.Sprintf("it has no %s, which spreadByField %s needs", sc.SpreadByField, sc.SpreadByField)
		}
	}
	return ""
}

// placementZones is the cluster's zones after the API server's Cluster
// mutation (pkg/apis/cluster/mutation MutateCluster): a legacy spec.zone
// becomes the only zone when spec.zones is empty.
func placementZones(c *policy.Cluster) []string {
	if len(c.Zones) == 0 && c.Zone != "" {
		return []string{c.Zone}
	}
	return c.Zones
}

// placementMatches is util.ClusterMatches at v1.16.0, which the scheduler's
// ClusterAffinity filter runs, with the reason of a mismatch. It differs
// from the override engine's (clusterMatches, Karmada f8fdd02) in one
// point: a zone In requirement needs every zone of the cluster among its
// values (matchZones at v1.16.0).
func placementMatches(c *policy.Cluster, a *clusterAffinity) (bool, string) {
	if slices.Contains(a.Exclude, c.Name) {
		return false, "excluded by clusterAffinity.exclude"
	}
	if a.LabelSelector != nil {
		s, err := metav1.LabelSelectorAsSelector(toMetav1(a.LabelSelector))
		if err != nil || !s.Matches(labels.Set(c.Labels)) {
			return false, "not matched by clusterAffinity.labelSelector"
		}
	}
	if a.FieldSelector != nil {
		zones := placementZones(c)
		var others []requirement
		for _, e := range a.FieldSelector.MatchExpressions {
			if e.Key != "zone" {
				others = append(others, e)
				continue
			}
			ok := matchZones(e, zones)
			if e.Operator == "In" {
				ok = len(zones) > 0
				for _, z := range zones {
					ok = ok && slices.Contains(e.Values, z)
				}
			}
			if !ok {
				return false, fmt.Sprintf("not matched by clusterAffinity.fieldSelector (zone %s %v; the cluster's zones: %v)", e.Operator, e.Values, zones)
			}
		}
		if len(others) > 0 {
			s, err := nodeSelector(others)
			if err != nil {
				return false, "clusterAffinity.fieldSelector: " + err.Error()
			}
			if s == nil || !s.Matches(clusterFields(c)) {
				return false, "not matched by clusterAffinity.fieldSelector"
			}
		}
	}
	if len(a.ClusterNames) > 0 && !slices.Contains(a.ClusterNames, c.Name) {
		return false, "not in clusterAffinity.clusterNames"
	}
	return true, ""
}

// selectClusters is SelectBestClusters for a fresh binding; feasible is in
// canonical order.
func selectClusters(pl *placement, feasible []*policy.Cluster, avail map[string]int64, replicas int32) ([]*policy.Cluster, error) {
	if len(pl.SpreadConstraints) == 0 || ignoreSpread(pl) {
		return feasible, nil
	}
	byField := map[string]spreadConstraint{}
	for _, c := range pl.SpreadConstraints {
		byField[c.SpreadByField] = c
	}
	// GroupClustersWithScore scores the provider, region and zone groups
	// before any selection, so its failure stops even the cluster
	// algorithm.
	clusters := make([]spreadCluster, len(feasible))
	for i, c := range feasible {
		clusters[i] = spreadCluster{cluster: c, avail: avail[c.Name]}
	}
	regions, err := scoreTopology(pl, byField, clusters, replicas)
	if err != nil {
		return nil, err
	}
	if r, ok := byField["region"]; ok {
		picked, err := selectByRegion(regions, r, byField["cluster"])
		if err != nil {
			return nil, err
		}
		out := make([]*policy.Cluster, len(picked))
		for i, c := range picked {
			out[i] = c.cluster
		}
		return out, nil
	}
	c, ok := byField["cluster"]
	if !ok {
		return nil, errors.New("just support cluster and region spread constraint")
	}
	if len(feasible) < c.MinGroups {
		return nil, errors.New("the number of feasible clusters is less than spreadConstraint.MinGroups")
	}
	need := min(c.MaxGroups, len(feasible))
	rs := pl.ReplicaScheduling
	if rs == nil || rs.ReplicaSchedulingType == schedulingDuplicated {
		return feasible[:need], nil
	}
	// selectClustersByAvailableResource: swap the picked clusters, from the
	// last, for the unpicked one with the most available replicas until
	// the picked ones hold the replicas.
	picked := slices.Clone(feasible)
	ret, rest := picked[:need], picked[need:]
	enough := func() bool {
		var total int64
		for _, c := range ret {
			total += avail[c.Name]
		}
		return total >= int64(replicas)
	}
	for i := len(ret) - 1; !enough() && i >= 0; i-- {
		best, most := -1, avail[ret[i].Name]
		for j, c := range rest {
			if avail[c.Name] > most {
				best, most = j, avail[c.Name]
			}
		}
		if best >= 0 {
			ret[i], rest[best] = rest[best], ret[i]
		}
	}
	if !enough() {
		return nil, fmt.Errorf("no enough resource when selecting %d clusters", need)
	}
	return ret, nil
}

// ignoreSpread is shouldIgnoreSpreadConstraint: static weights ignore the
// spread constraints.
func ignoreSpread(pl *placement) bool {
	rs := pl.ReplicaScheduling
	return rs != nil && rs.ReplicaSchedulingType == schedulingDivided && rs.ReplicaDivisionPreference == divisionWeighted &&
		(rs.WeightPreference == nil || len(rs.WeightPreference.StaticWeightList) != 0 && rs.WeightPreference.DynamicWeight == "")
}

// replicaStrategy is newAssignState's choice of strategy.
func replicaStrategy(pl *placement) (strategy, error) {
	rs := pl.ReplicaScheduling
	if rs == nil || rs.ReplicaSchedulingType == schedulingDuplicated {
		return strategy{kind: strategyDuplicated}, nil
	}
	switch {
	case rs.ReplicaDivisionPreference == divisionAggregated:
		return strategy{kind: strategyAggregated}, nil
	case rs.ReplicaDivisionPreference == divisionWeighted && rs.WeightPreference != nil && rs.WeightPreference.DynamicWeight != "":
		return strategy{kind: strategyDynamicWeight}, nil
	case rs.ReplicaDivisionPreference == divisionWeighted:
		s := strategy{kind: strategyStaticWeight}
		if wp := rs.WeightPreference; wp != nil {
			s.staticWeight = func(c *policy.Cluster) int64 {
				var w int64
				for i := range wp.StaticWeightList {
					if ok, _ := placementMatches(c, &wp.StaticWeightList[i].TargetCluster); ok {
						w = max(w, wp.StaticWeightList[i].Weight)
					}
				}
				return w
			}
		}
		return s, nil
	}
	return strategy{}, fmt.Errorf("unsupported replicaDivisionPreference %q", rs.ReplicaDivisionPreference)
}

// spreadChooses reports whether the spread constraints choose among the
// feasible clusters by their available replicas: a region constraint
// always does (groups are scored by capacity); a cluster constraint does
// when it keeps some but not all of them, or checks capacity (Divided).
func spreadChooses(pl *placement, feasible int) bool {
	var cluster *spreadConstraint
	for i := range pl.SpreadConstraints {
		switch pl.SpreadConstraints[i].SpreadByField {
		case "region":
			return true
		case "cluster":
			cluster = &pl.SpreadConstraints[i]
		}
	}
	if cluster == nil {
		return false // the scheduler fails the binding whatever the capacity
	}
	need := min(cluster.MaxGroups, feasible)
	if rs := pl.ReplicaScheduling; rs != nil && rs.ReplicaSchedulingType == schedulingDivided {
		return need > 0
	}
	return need > 0 && need < feasible
}

// missingCapacity is a placement that depends on the capacity of clusters
// whose object carries no status.resourceSummary: Karmada would read their
// live capacity, the render cannot.
type missingCapacity struct {
	field    string
	clusters []string
}

func (e *missingCapacity) Error() string {
	return fmt.Sprintf("the placement depends on the clusters' available replicas, which Karmada reads from Cluster status.resourceSummary, and cluster(s) %s carry none: export the Cluster objects with their status (kubectl get clusters.cluster.karmada.io -o yaml), or place by static weights or without spread constraints",
		strings.Join(e.clusters, ", "))
}

// needCapacity reports a placement whose outcome depends on the capacity of
// feasible clusters the input gives none for: division by available
// replicas (dynamic weights, Aggregated) and the choice among clusters a
// spread constraint makes for a workload (ordered by available replicas).
// Karmada would count such clusters as full; the render does not guess.
func needCapacity(p *propagationPolicy, w workload, feasible []*policy.Cluster) error {
	if w.replicas == 0 && w.req == nil {
		return nil // not a workload: capacity plays no part
	}
	field := ""
	if rs := p.placement.ReplicaScheduling; rs != nil && rs.ReplicaSchedulingType == schedulingDivided {
		switch {
		case rs.ReplicaDivisionPreference == divisionAggregated:
			field = "spec.placement.replicaScheduling (Aggregated)"
		case rs.WeightPreference != nil && rs.WeightPreference.DynamicWeight != "":
			field = "spec.placement.replicaScheduling.weightPreference.dynamicWeight"
		}
	}
	if field == "" && len(p.placement.SpreadConstraints) > 0 && !ignoreSpread(&p.placement) && spreadChooses(&p.placement, len(feasible)) {
		field = "spec.placement.spreadConstraints"
	}
	if field == "" {
		return nil
	}
	var lacking []string
	for _, c := range feasible {
		if c.Resources == nil {
			lacking = append(lacking, c.Name)
		}
	}
	if len(lacking) == 0 {
		return nil
	}
	return &missingCapacity{field: field, clusters: lacking}
}
