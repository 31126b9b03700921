// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"math/rand/v2"
)

// With -clusters N (N > 0) the corpus is a fleet corpus for fan-out: N
// Clusters, member1 … memberN, the rendered cluster first with the labels
// of newCluster (so that the OverridePolicies resolve for it as without a
// fleet), and PropagationPolicies that spread over the whole fleet
// (genFleetPropagation). resourcelist.yaml still renders the one cluster
// named by -cluster (data.cluster); fanout.yaml is the same list with
// data.render: "*", every cluster in one run.

var (
	fleetRegions   = []string{"us-east-1", "eu-west-1", "ap-south-1"}
	fleetProviders = []string{"aws", "gcp", "azure"}
)

// fleetOf is the rendered cluster and N-1 more: two of every three in
// production, spread over three regions, a zone each and three providers.
func fleetOf(c cluster, n int) []member {
	ms := []member{{name: c.name, region: "us-east-1", zone: "us-east-1a", provider: "aws", labels: c.labels}}
	for i := 1; len(ms) < n; i++ {
		name := fmt.Sprintf("member%d", i)
		if name == c.name {
			continue
		}
		k := len(ms)
		env := "prod"
		if k%3 == 2 {
			env = "staging"
		}
		region := fleetRegions[k%len(fleetRegions)]
		zone := region + string(rune('a'+k/len(fleetRegions)%3))
		provider := fleetProviders[k/2%len(fleetProviders)]
		ms = append(ms, member{name: name, region: region, zone: zone, provider: provider,
			labels: map[string]string{"env": env, "region": region, "zone": zone, "provider": provider}})
	}
	return ms
}

// genFleetPropagation draws N PropagationPolicies over a fleet, policy j
// in namespace j mod len(ns), each selecting 1–3 kinds with one label
// selector as the OverridePolicies do. Placements, by share:
//
//   - 30 % Duplicated to the production clusters (clusterAffinity by label);
//   - 20 % Duplicated to the clusters of one region (by label);
//   - 20 % Divided, Weighted by a staticWeightList over 2–4 named clusters;
//   - 20 % Duplicated to 1–5 named clusters;
//   - 10 % Divided by static weights over the clusters of one provider,
//     chosen by label.
func genFleetPropagation(r *rand.Rand, N int, namespaces []string, apps []app, fl []member) ([]propagationPolicy, placementStats) {
	var st placementStats
	pick := func(k int) []member {
		var out []member
		for _, i := range r.Perm(len(fl))[:min(k, len(fl))] {
			out = append(out, fl[i])
		}
		return out
	}
	ps := make([]propagationPolicy, 0, N)
	for j := 0; j < N; j++ {
		p := newPropagationPolicy(r, j, namespaces, apps)
		byLabel := func(k, v string) *clusterAffinity {
			return &clusterAffinity{LabelSelector: &labelSelector{MatchLabels: map[string]string{k: v}}}
		}
		duplicated := &replicaScheduling{ReplicaSchedulingType: "Duplicated"}
		switch x := r.IntN(10); {
		case x < 3:
			p.Spec.Placement = placement{ClusterAffinity: byLabel("env", "prod"), ReplicaScheduling: duplicated}
			st.duplicated++
			st.byLabel++
		case x < 5:
			p.Spec.Placement = placement{ClusterAffinity: byLabel("region", fleetRegions[r.IntN(len(fleetRegions))]), ReplicaScheduling: duplicated}
			st.duplicated++
			st.byLabel++
		case x < 7:
			members := pick(2 + r.IntN(3))
			p.Spec.Placement = placement{ClusterAffinity: &clusterAffinity{ClusterNames: names(members)}, ReplicaScheduling: weighted(r, members)}
			st.divided++
		case x < 9:
			p.Spec.Placement = placement{ClusterAffinity: &clusterAffinity{ClusterNames: names(pick(1 + r.IntN(5)))}, ReplicaScheduling: duplicated}
			st.duplicated++
		default:
			provider := fleetProviders[r.IntN(len(fleetProviders))]
			var members []member
			for _, m := range fl {
				if m.provider == provider {
					members = append(members, m)
				}
			}
			if len(members) == 0 { // a fleet too small to have every provider
				members = fl[:1]
			}
			p.Spec.Placement = placement{ClusterAffinity: byLabel("provider", provider), ReplicaScheduling: weighted(r, members)}
			st.divided++
			st.byLabel++
		}
		ps = append(ps, p)
	}
	return ps, st
}

// names are the members' names.
func names(ms []member) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.name
	}
	return out
}
