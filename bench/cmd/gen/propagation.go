// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// With -propagation N the corpus also holds N PropagationPolicies and two
// ClusterPropagationPolicies, and its inventory holds a fleet of three
// clusters, because placement decides over the whole fleet. The types below
// mirror the fields of Karmada's policy/v1alpha1 propagation API
// (pkg/apis/policy/v1alpha1/propagation_types.go, v1.16.0) that the corpus
// uses, in the order they are written.

type propagationPolicy struct {
	APIVersion string          `yaml:"apiVersion"`
	Kind       string          `yaml:"kind"`
	Metadata   metadata        `yaml:"metadata"`
	Spec       propagationSpec `yaml:"spec"`
}

type propagationSpec struct {
	ResourceSelectors []resourceSelector `yaml:"resourceSelectors"`
	Placement         placement          `yaml:"placement"`
}

type placement struct {
	ClusterAffinity   *clusterAffinity   `yaml:"clusterAffinity,omitempty"`
	ReplicaScheduling *replicaScheduling `yaml:"replicaScheduling,omitempty"`
}

type replicaScheduling struct {
	ReplicaSchedulingType     string            `yaml:"replicaSchedulingType"`
	ReplicaDivisionPreference string            `yaml:"replicaDivisionPreference,omitempty"`
	WeightPreference          *weightPreference `yaml:"weightPreference,omitempty"`
}

type weightPreference struct {
	StaticWeightList []staticWeight `yaml:"staticWeightList"`
}

type staticWeight struct {
	TargetCluster clusterAffinity `yaml:"targetCluster"`
	Weight        int             `yaml:"weight"`
}

// member is one cluster of the fleet.
type member struct {
	name, region, zone string
	provider           string // "" is aws
	labels             map[string]string
}

// fleet is the rendered cluster (with the labels and topology of
// newCluster, so that the OverridePolicies resolve as without placement)
// and two more: the first two of member1…member4 that are not it, one in
// production in another region and one staging cluster.
func fleet(c cluster) []member {
	ms := []member{{name: c.name, region: "us-east-1", zone: "us-east-1a", labels: c.labels}}
	others := []member{
		{region: "eu-west-1", zone: "eu-west-1b", labels: map[string]string{"env": "prod", "region": "eu-west-1"}},
		{region: "us-east-1", zone: "us-east-1c", labels: map[string]string{"env": "staging", "region": "us-east-1"}},
	}
	for i := 1; len(ms) < 3; i++ {
		name := fmt.Sprintf("member%d", i)
		if name == c.name {
			continue
		}
		m := others[len(ms)-1]
		m.name = name
		ms = append(ms, m)
	}
	return ms
}

// yaml is the member's Karmada Cluster object.
func (m member) yaml() string {
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: %s\n  labels:\n", m.name)
	for _, k := range sortedKeys(m.labels) {
		fmt.Fprintf(&b, "    %s: %s\n", k, m.labels[k])
	}
	provider := m.provider
	if provider == "" {
		provider = "aws"
	}
	fmt.Fprintf(&b, "spec:\n  syncMode: Push\n  apiEndpoint: https://%s.bench.example:6443\n  provider: %s\n  region: %s\n  zone: %s\n", m.name, provider, m.region, m.zone)
	return b.String()
}

// placementStats counts what the generated placements do, for manifest.txt.
type placementStats struct {
	duplicated, divided, byLabel, withCluster int
}

// genPropagation draws N PropagationPolicies, policy j in namespace j mod
// len(ns), each selecting 1–3 kinds with one label selector as the
// OverridePolicies do. Placements, by share:
//
//   - 40 % Duplicated to a list of cluster names (the rendered cluster alone,
//     with one or both others, or the two others without it);
//   - 30 % Divided, Weighted by a staticWeightList over 2–3 named clusters;
//   - 20 % Duplicated to the production clusters (clusterAffinity by label);
//   - 10 % Divided by static weights over the clusters of one region,
//     chosen by label.
func genPropagation(r *rand.Rand, N int, namespaces []string, apps []app, fl []member) ([]propagationPolicy, placementStats) {
	var st placementStats
	names := func(ms ...member) []string {
		var out []string
		for _, m := range ms {
			out = append(out, m.name)
		}
		return out
	}
	ps := make([]propagationPolicy, 0, N)
	for j := 0; j < N; j++ {
		p := newPropagationPolicy(r, j, namespaces, apps)
		var targets []string
		switch x := r.IntN(10); {
		case x < 4:
			switch r.IntN(4) {
			case 0:
				targets = names(fl[0])
			case 1:
				targets = names(fl[0], fl[1])
			case 2:
				targets = names(fl...)
			default:
				targets = names(fl[1], fl[2])
			}
			p.Spec.Placement = placement{
				ClusterAffinity:   &clusterAffinity{ClusterNames: targets},
				ReplicaScheduling: &replicaScheduling{ReplicaSchedulingType: "Duplicated"},
			}
			st.duplicated++
		case x < 7:
			members := fl
			if r.IntN(2) == 0 {
				members = []member{fl[0], fl[1+r.IntN(2)]}
			}
			targets = names(members...)
			p.Spec.Placement = placement{
				ClusterAffinity:   &clusterAffinity{ClusterNames: targets},
				ReplicaScheduling: weighted(r, members),
			}
			st.divided++
		case x < 9:
			targets = names(fl[0], fl[1])
			p.Spec.Placement = placement{
				ClusterAffinity:   &clusterAffinity{LabelSelector: &labelSelector{MatchLabels: map[string]string{"env": "prod"}}},
				ReplicaScheduling: &replicaScheduling{ReplicaSchedulingType: "Duplicated"},
			}
			st.duplicated++
			st.byLabel++
		default:
			targets = names(fl[0], fl[2])
			p.Spec.Placement = placement{
				ClusterAffinity:   &clusterAffinity{LabelSelector: &labelSelector{MatchLabels: map[string]string{"region": "us-east-1"}}},
				ReplicaScheduling: weighted(r, []member{fl[0], fl[2]}),
			}
			st.divided++
			st.byLabel++
		}
		if slices.Contains(targets, fl[0].name) {
			st.withCluster++
		}
		ps = append(ps, p)
	}
	return ps, st
}

// newPropagationPolicy is PropagationPolicy j, in namespace j mod
// len(namespaces), selecting 1–3 kinds with one label selector drawn as for
// the OverridePolicies; its placement is the caller's.
func newPropagationPolicy(r *rand.Rand, j int, namespaces []string, apps []app) propagationPolicy {
	sel := pickKinds(r)
	ls, what := policySelector(r, apps)
	p := propagationPolicy{
		APIVersion: "policy.karmada.io/v1alpha1",
		Kind:       "PropagationPolicy",
		Metadata:   metadata{Name: fmt.Sprintf("pp-%04d-%s", j, what), Namespace: namespaces[j%len(namespaces)]},
	}
	for _, k := range sel {
		p.Spec.ResourceSelectors = append(p.Spec.ResourceSelectors, resourceSelector{APIVersion: k.apiVersion, Kind: k.kind, LabelSelector: ls})
	}
	return p
}

// weighted divides replicas over the members by static weights of 1–3.
func weighted(r *rand.Rand, ms []member) *replicaScheduling {
	rs := &replicaScheduling{
		ReplicaSchedulingType:     "Divided",
		ReplicaDivisionPreference: "Weighted",
		WeightPreference:          &weightPreference{},
	}
	for _, m := range ms {
		rs.WeightPreference.StaticWeightList = append(rs.WeightPreference.StaticWeightList,
			staticWeight{TargetCluster: clusterAffinity{ClusterNames: []string{m.name}}, Weight: 1 + r.IntN(3)})
	}
	return rs
}

// clusterPropagation are the two ClusterPropagationPolicies that claim
// whatever no PropagationPolicy of the resource's namespace selects (a
// PropagationPolicy always wins over a ClusterPropagationPolicy): the pod
// workloads are divided 2:1 between the production clusters, everything
// else is copied to every production cluster.
func clusterPropagation(fl []member) []propagationPolicy {
	var pods, rest []resourceSelector
	for _, k := range kinds {
		s := resourceSelector{APIVersion: k.apiVersion, Kind: k.kind}
		if k.podTemplate {
			pods = append(pods, s)
		} else {
			rest = append(rest, s)
		}
	}
	return []propagationPolicy{{
		APIVersion: "policy.karmada.io/v1alpha1",
		Kind:       "ClusterPropagationPolicy",
		Metadata:   metadata{Name: "cpp-0000-pod-workloads"},
		Spec: propagationSpec{
			ResourceSelectors: pods,
			Placement: placement{
				ClusterAffinity: &clusterAffinity{ClusterNames: []string{fl[0].name, fl[1].name}},
				ReplicaScheduling: &replicaScheduling{
					ReplicaSchedulingType:     "Divided",
					ReplicaDivisionPreference: "Weighted",
					WeightPreference: &weightPreference{StaticWeightList: []staticWeight{
						{TargetCluster: clusterAffinity{ClusterNames: []string{fl[0].name}}, Weight: 2},
						{TargetCluster: clusterAffinity{ClusterNames: []string{fl[1].name}}, Weight: 1},
					}},
				},
			},
		},
	}, {
		APIVersion: "policy.karmada.io/v1alpha1",
		Kind:       "ClusterPropagationPolicy",
		Metadata:   metadata{Name: "cpp-0001-everything-else"},
		Spec: propagationSpec{
			ResourceSelectors: rest,
			Placement: placement{
				ClusterAffinity:   &clusterAffinity{LabelSelector: &labelSelector{MatchLabels: map[string]string{"env": "prod"}}},
				ReplicaScheduling: &replicaScheduling{ReplicaSchedulingType: "Duplicated"},
			},
		},
	}}
}
