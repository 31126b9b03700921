// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package gen generates KubeAdmiral placement scenarios: KRM ResourceLists
// holding a fleet of FederatedClusters, (Cluster)PropagationPolicies,
// workloads labelled with them, their ConfigMaps and Secrets, and
// Namespaces, deterministic in a seed.
package gen

import (
	"fmt"

	"github.com/apply-overrides/apply-overrides/oracle/harness/rl"
	"github.com/apply-overrides/apply-overrides/oracle/harness/scenario"
)

type m = map[string]any
type l = []any

const (
	ppLabel  = "kubeadmiral.io/propagation-policy-name"
	cppLabel = "kubeadmiral.io/cluster-propagation-policy-name"
)

var clusterPool = []string{"c01", "c02", "c03", "c04", "c05", "c06", "c07", "c08"}
var taintKeys = []string{"dedicated", "maintenance", "gpu"}
var taintEffects = []string{"NoSchedule", "NoExecute", "PreferNoSchedule", "PreferNoSchedule"}
var namespaces = []string{"default", "apps", "team-a"}

// apis are the types the scenarios use, as FederatedCluster
// status.apiResourceTypes lists them.
var apis = []m{
	{"group": "apps", "version": "v1", "kind": "Deployment", "pluralName": "deployments", "scope": "Namespaced"},
	{"group": "apps", "version": "v1", "kind": "StatefulSet", "pluralName": "statefulsets", "scope": "Namespaced"},
	{"group": "batch", "version": "v1", "kind": "Job", "pluralName": "jobs", "scope": "Namespaced"},
	{"version": "v1", "kind": "ConfigMap", "pluralName": "configmaps", "scope": "Namespaced"},
	{"version": "v1", "kind": "Secret", "pluralName": "secrets", "scope": "Namespaced"},
	{"version": "v1", "kind": "Namespace", "pluralName": "namespaces", "scope": "Cluster"},
}

type policy struct {
	ns, name string // ns "" for a ClusterPropagationPolicy
}

type builder struct {
	*scenario.Rand
	clusters []string
	labels   map[string]map[string]string
	taints   map[string][]m
	policies []policy
	items    []any
}

// Scenario builds the scenario with this seed.
func Scenario(seed uint64) *rl.ResourceList {
	s := &builder{Rand: scenario.NewRand(seed), labels: map[string]map[string]string{}, taints: map[string][]m{}}
	s.fleet()
	s.makePolicies()
	s.namespaces()
	s.workloads()
	return scenario.List(seed, s.items)
}

// mode picks how a kind of status is given: to no cluster (0), to every
// cluster (1), or to each by chance (2, rare).
func (s *builder) mode(none, all float64) int {
	switch x := s.Float64(); {
	case x < none:
		return 0
	case x < none+all:
		return 1
	}
	return 2
}

func (s *builder) fleet() {
	s.clusters = s.Sample(clusterPool, 2, 6)
	conditions := s.mode(0.6, 0.3)
	apiTypes := s.mode(0.6, 0.3)
	resources := s.mode(0.55, 0.4)
	for _, name := range s.clusters {
		labels := map[string]string{"env": s.Pick([]string{"prod", "dev"})}
		if s.Chance(0.5) {
			labels["tier"] = s.Pick([]string{"gold", "silver"})
		}
		if s.Chance(0.6) {
			labels["region"] = s.Pick([]string{"east", "west"})
		}
		s.labels[name] = labels
		spec := m{}
		if s.Chance(0.35) {
			var taints l
			for _, k := range s.Subset(taintKeys, 2) {
				t := m{"key": k, "effect": s.Pick(taintEffects)}
				if s.Chance(0.6) {
					t["value"] = s.Pick([]string{"true", "batch"})
				}
				taints = append(taints, t)
				s.taints[name] = append(s.taints[name], t)
			}
			spec["taints"] = taints
		}
		status := m{}
		if conditions == 1 || conditions == 2 && s.Chance(0.5) {
			ready, joined := "True", "True"
			if s.Chance(0.15) {
				ready = s.Pick([]string{"False", "Unknown"})
			}
			if s.Chance(0.1) {
				joined = "False"
			}
			status["conditions"] = l{
				m{"type": "Joined", "status": joined, "lastProbeTime": "2026-01-01T00:00:00Z"},
				m{"type": "Ready", "status": ready, "lastProbeTime": "2026-01-01T00:00:00Z"},
			}
		}
		if apiTypes == 1 || apiTypes == 2 && s.Chance(0.5) {
			var list l
			for _, a := range apis {
				if a["kind"] != "Namespace" && s.Chance(0.08) {
					continue // this cluster lacks the API
				}
				list = append(list, a)
			}
			status["apiResourceTypes"] = list
		}
		if resources == 1 || resources == 2 && s.Chance(0.5) {
			cpu := s.Between(4, 64)
			avail := s.Between(0, cpu)
			mem := s.Between(8, 256)
			status["resources"] = m{
				"allocatable": m{"cpu": fmt.Sprint(cpu), "memory": fmt.Sprintf("%dGi", mem)},
				"available":   m{"cpu": fmt.Sprint(avail), "memory": fmt.Sprintf("%dGi", s.Between(0, mem))},
			}
		}
		obj := m{
			"apiVersion": "core.kubeadmiral.io/v1alpha1", "kind": "FederatedCluster",
			"metadata": m{"name": name, "labels": scenario.Map(labels)},
			"spec":     spec,
		}
		if len(status) > 0 {
			obj["status"] = status
		}
		s.items = append(s.items, obj)
	}
}

func (s *builder) makePolicies() {
	n := s.Between(1, 5)
	for i := 0; i < n; i++ {
		p := policy{name: fmt.Sprintf("pol-%d", i)}
		kind := "ClusterPropagationPolicy"
		meta := m{"name": p.name}
		if s.Chance(0.6) {
			p.ns = s.Pick(namespaces)
			kind = "PropagationPolicy"
			meta["namespace"] = p.ns
		}
		s.policies = append(s.policies, p)
		s.items = append(s.items, m{
			"apiVersion": "core.kubeadmiral.io/v1alpha1", "kind": kind,
			"metadata": meta, "spec": s.policySpec(),
		})
	}
}

func (s *builder) policySpec() m {
	spec := m{"schedulingMode": "Duplicate"}
	if s.Chance(0.6) {
		spec["schedulingMode"] = "Divide"
	}
	if s.Chance(0.5) {
		spec["replicasStrategy"] = s.Pick([]string{"Spread", "Binpack"})
	}
	if s.Chance(0.3) {
		c := s.Pick(s.clusters)
		k := s.Pick([]string{"env", "tier", "region"})
		v, ok := s.labels[c][k]
		if !ok {
			v = "gold"
		}
		spec["clusterSelector"] = m{k: v}
	}
	if s.Chance(0.25) {
		var terms l
		for t := s.Between(1, 2); t > 0; t-- {
			term := m{}
			switch s.IntN(5) {
			case 0:
				term["matchExpressions"] = l{m{"key": "env", "operator": "In", "values": scenario.Strs(s.Subset([]string{"prod", "dev"}, 2))}}
			case 1:
				term["matchExpressions"] = l{m{"key": "tier", "operator": "NotIn", "values": l{"gold"}}}
			case 2:
				term["matchExpressions"] = l{m{"key": s.Pick([]string{"tier", "region"}), "operator": s.Pick([]string{"Exists", "DoesNotExist"}), "values": l{}}}
			case 3:
				term["matchFields"] = l{m{"key": "metadata.name", "operator": s.Pick([]string{"In", "NotIn"}), "values": l{s.Pick(s.clusters)}}}
			default:
				term["matchExpressions"] = l{m{"key": "region", "operator": "In", "values": l{s.Pick([]string{"east", "west"})}}}
				term["matchFields"] = l{m{"key": "metadata.name", "operator": "NotIn", "values": l{s.Pick(s.clusters)}}}
			}
			terms = append(terms, term)
		}
		spec["clusterAffinity"] = terms
	}
	if s.Chance(0.35) {
		var tols l
		for _, k := range s.Subset(taintKeys, 2) {
			t := m{"key": k}
			if s.Chance(0.5) {
				t["operator"] = "Exists"
			} else {
				t["operator"] = "Equal"
				t["value"] = s.Pick([]string{"true", "batch"})
			}
			if s.Chance(0.5) {
				t["effect"] = s.Pick(taintEffects)
			}
			tols = append(tols, t)
		}
		spec["tolerations"] = tols
	}
	if s.Chance(0.25) {
		spec["maxClusters"] = int64(s.Between(0, 3))
	}
	if s.Chance(0.45) {
		names := s.Subset(s.clusters, len(s.clusters))
		if s.Chance(0.1) {
			names = append(names, "c99") // not in the fleet
		}
		weights := s.Chance(0.5)
		var ps l
		for _, c := range names {
			pref := m{}
			if weights && s.Chance(0.9) {
				pref["weight"] = int64(s.Between(0, 5))
			}
			if s.Chance(0.3) {
				pref["minReplicas"] = int64(s.Between(0, 5))
			}
			if s.Chance(0.3) {
				pref["maxReplicas"] = int64(s.Between(0, 20))
			}
			if s.Chance(0.25) {
				pref["priority"] = int64(s.Between(0, 10))
			}
			e := m{"cluster": c}
			if len(pref) > 0 || s.Chance(0.5) {
				e["preferences"] = pref
			}
			ps = append(ps, e)
		}
		spec["placement"] = ps
	}
	if s.Chance(0.1) {
		spec["disableFollowerScheduling"] = true
	}
	return spec
}

func (s *builder) namespaces() {
	for _, ns := range namespaces[1:] {
		if s.Chance(0.7) {
			s.items = append(s.items, m{"apiVersion": "v1", "kind": "Namespace", "metadata": m{"name": ns}})
		}
	}
	if s.Chance(0.2) {
		s.items = append(s.items, m{"apiVersion": "v1", "kind": "Namespace", "metadata": m{"name": "kube-extra"}})
	}
	if s.Chance(0.2) {
		s.items = append(s.items, m{"apiVersion": "v1", "kind": "Namespace", "metadata": m{"name": "quiet",
			"annotations": m{"kubeadmiral.io/no-auto-propagation": "true"}}})
	}
}

// policyLabels labels a workload in ns: usually with an existing policy it
// can use, sometimes with a missing one, with both labels, or with none.
func (s *builder) policyLabels(ns string) m {
	labels := m{"app": "x"}
	var pps, cpps []string
	for _, p := range s.policies {
		if p.ns == ns {
			pps = append(pps, p.name)
		}
		if p.ns == "" {
			cpps = append(cpps, p.name)
		}
	}
	switch x := s.Float64(); {
	case x < 0.1:
	case x < 0.18:
		labels[s.Pick([]string{ppLabel, cppLabel})] = "missing"
	case x < 0.3:
		labels[ppLabel] = s.pickOr(pps, "missing")
		labels[cppLabel] = s.pickOr(cpps, "missing")
	default:
		if len(pps) > 0 && (len(cpps) == 0 || s.Chance(0.5)) {
			labels[ppLabel] = s.Pick(pps)
		} else {
			labels[cppLabel] = s.pickOr(cpps, "missing")
		}
	}
	return labels
}

func (s *builder) pickOr(xs []string, or string) string {
	if len(xs) == 0 {
		return or
	}
	return s.Pick(xs)
}

func (s *builder) workloads() {
	n := s.Between(1, 6)
	for i := 0; i < n; i++ {
		ns := s.Pick(namespaces)
		name := fmt.Sprintf("w%d", i)
		var refs l
		var volumes l
		if s.Chance(0.6) {
			cm := name + "-cfg"
			refs = append(refs, m{"configMapRef": m{"name": cm}})
			if s.Chance(0.85) {
				s.followerObject("ConfigMap", ns, cm)
			}
		}
		if s.Chance(0.4) {
			sec := name + "-sec"
			volumes = append(volumes, m{"name": "sec", "secret": m{"secretName": sec}})
			if s.Chance(0.85) {
				s.followerObject("Secret", ns, sec)
			}
		}
		container := m{"name": "main", "image": "nginx"}
		if len(refs) > 0 {
			container["envFrom"] = refs
		}
		podSpec := m{"containers": l{container}}
		if len(volumes) > 0 {
			podSpec["volumes"] = volumes
		}
		meta := m{"name": name, "namespace": ns, "labels": s.policyLabels(ns)}
		podTemplate := m{"metadata": m{"labels": m{"app": name}}, "spec": podSpec}
		var obj m
		switch x := s.Float64(); {
		case x < 0.6:
			obj = m{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": meta, "spec": m{
				"replicas": int64(s.Between(0, 50)), "selector": m{"matchLabels": m{"app": name}}, "template": podTemplate}}
		case x < 0.8:
			obj = m{"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": meta, "spec": m{
				"replicas": int64(s.Between(0, 10)), "serviceName": name, "selector": m{"matchLabels": m{"app": name}}, "template": podTemplate}}
		default:
			podSpec["restartPolicy"] = "Never"
			podTemplate["metadata"] = m{}
			obj = m{"apiVersion": "batch/v1", "kind": "Job", "metadata": meta, "spec": m{
				"parallelism": int64(s.Between(1, 5)), "completions": int64(s.Between(1, 10)), "template": podTemplate}}
		}
		s.items = append(s.items, obj)
	}
	// A ConfigMap no leader references, sometimes with a policy of its own.
	if s.Chance(0.3) {
		ns := s.Pick(namespaces)
		meta := m{"name": "standalone", "namespace": ns}
		if s.Chance(0.7) {
			meta["labels"] = s.policyLabels(ns)
		}
		s.items = append(s.items, m{"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta, "data": m{"k": "v"}})
	}
}

func (s *builder) followerObject(kind, ns, name string) {
	meta := m{"name": name, "namespace": ns}
	if s.Chance(0.06) {
		meta["annotations"] = m{"kubeadmiral.io/disable-following": "true"}
	}
	if s.Chance(0.1) {
		meta["labels"] = s.policyLabels(ns)
	}
	obj := m{"apiVersion": "v1", "kind": kind, "metadata": meta, "data": m{"k": "dg=="}}
	if kind == "ConfigMap" {
		obj["data"] = m{"k": "v"}
	}
	s.items = append(s.items, obj)
}
