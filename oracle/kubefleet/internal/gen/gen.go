// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package gen generates KubeFleet placement and override scenarios: KRM
// ResourceLists holding a fleet of MemberClusters, ClusterResourcePlacements
// (PickAll, PickFixed, PickN), ResourcePlacements, ClusterResourceOverrides
// and ResourceOverrides, and the Namespaces, Deployments and ConfigMaps they
// select, deterministic in a seed.
package gen

import (
	"fmt"

	"github.com/apply-overrides/apply-overrides/oracle/harness/rl"
	"github.com/apply-overrides/apply-overrides/oracle/harness/scenario"
)

type m = map[string]any
type l = []any

const (
	placementAPI = "placement.kubernetes-fleet.io/v1beta1"
	clusterAPI   = "cluster.kubernetes-fleet.io/v1beta1"
	nodeCount    = "kubernetes-fleet.io/node-count"
	costProperty = "example.com/cost"
)

var clusterPool = []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta"}
var envs = []string{"prod", "staging", "dev"}
var regions = []string{"east", "west", "north"}
var teams = []string{"red", "blue"}

type builder struct {
	*scenario.Rand
	clusters   []string
	labels     map[string]map[string]string
	properties bool // every cluster reports status.properties
	namespaces []string
	// workloads are the namespaced objects: kind/namespace/name.
	workloads [][3]string
	// placed maps a namespace to the ClusterResourcePlacement selecting it.
	placed map[string]string
	// hasSettings: the Namespace holds the ConfigMap "settings".
	hasSettings map[string]bool
	items       []any
}

// Scenario builds the scenario with this seed.
func Scenario(seed uint64) *rl.ResourceList {
	s := &builder{Rand: scenario.NewRand(seed), labels: map[string]map[string]string{}, placed: map[string]string{}, hasSettings: map[string]bool{}}
	s.fleet()
	s.resources()
	s.placements()
	s.overrides()
	return scenario.List(seed, s.items)
}

func (s *builder) fleet() {
	s.clusters = s.Sample(clusterPool, 2, 6)
	agent := s.Chance(0.5)
	s.properties = s.Chance(0.4)
	for i, c := range s.clusters {
		labels := map[string]string{}
		if s.Chance(0.85) {
			labels["env"] = s.Pick(envs)
		}
		if s.Chance(0.8) {
			labels["region"] = s.Pick(regions)
		}
		if s.Chance(0.3) {
			labels["kube-fleet.io/zone"] = fmt.Sprintf("z%d", s.IntN(3))
		}
		s.labels[c] = labels
		spec := m{"identity": m{"kind": "ServiceAccount", "name": "fleet-member-agent", "namespace": "fleet-system"}}
		if s.Chance(0.3) {
			t := m{"key": "dedicated", "effect": "NoSchedule"}
			if s.Chance(0.6) {
				t["value"] = s.Pick([]string{"gpu", "batch"})
			}
			spec["taints"] = l{t}
		}
		cl := m{"apiVersion": clusterAPI, "kind": "MemberCluster",
			"metadata": m{"name": c, "labels": scenario.Map(labels)}, "spec": spec}
		status := m{}
		if agent {
			joined, healthy := "True", "True"
			if i > 0 && s.Chance(0.1) {
				joined = "False"
			} else if i > 0 && s.Chance(0.1) {
				healthy = "False"
			}
			status["agentStatus"] = l{m{"type": "MemberAgent", "conditions": l{
				m{"type": "Joined", "status": joined, "reason": "Generated", "lastTransitionTime": "2026-01-01T00:00:00Z"},
				m{"type": "Healthy", "status": healthy, "reason": "Generated", "lastTransitionTime": "2026-01-01T00:00:00Z"},
			}}}
		}
		if s.properties {
			status["properties"] = m{
				nodeCount:    m{"value": fmt.Sprint(s.Between(1, 12))},
				costProperty: m{"value": fmt.Sprintf("%d.%d", s.Between(0, 9), s.Between(0, 9))},
			}
		}
		if len(status) > 0 {
			cl["status"] = status
		}
		s.items = append(s.items, cl)
	}
}

func (s *builder) resources() {
	n := s.Between(1, 3)
	for i := 0; i < n; i++ {
		ns := fmt.Sprintf("app%d", i+1)
		s.namespaces = append(s.namespaces, ns)
		s.items = append(s.items, m{"apiVersion": "v1", "kind": "Namespace",
			"metadata": m{"name": ns, "labels": m{"team": s.Pick(teams)}}})
		for j, k := 0, s.Between(1, 3); j < k; j++ {
			name := fmt.Sprintf("web%d", j+1)
			s.workloads = append(s.workloads, [3]string{"Deployment", ns, name})
			s.items = append(s.items, m{"apiVersion": "apps/v1", "kind": "Deployment",
				"metadata": m{"name": name, "namespace": ns, "labels": m{"app": name, "tier": s.Pick([]string{"fe", "be"})}},
				"spec": m{"replicas": int64(s.Between(1, 5)),
					"selector": m{"matchLabels": m{"app": name}},
					"template": m{"metadata": m{"labels": m{"app": name}},
						"spec": m{"containers": l{m{"name": "main", "image": "registry.example/" + name + ":1.0"}}}}}})
		}
		if s.Chance(0.7) {
			s.hasSettings[ns] = true
			s.workloads = append(s.workloads, [3]string{"ConfigMap", ns, "settings"})
			s.items = append(s.items, m{"apiVersion": "v1", "kind": "ConfigMap",
				"metadata": m{"name": "settings", "namespace": ns}, "data": m{"mode": "default", "level": "1"}})
		}
	}
}

// policy draws a placement policy; nil means none (PickAll).
func (s *builder) policy() m {
	switch x := s.Float64(); {
	case x < 0.15:
		return nil
	case x < 0.4:
		p := m{"placementType": "PickAll"}
		if s.Chance(0.6) {
			p["affinity"] = m{"clusterAffinity": m{"requiredDuringSchedulingIgnoredDuringExecution": m{"clusterSelectorTerms": s.terms()}}}
		}
		s.tolerations(p)
		return p
	case x < 0.6:
		names := s.Subset(s.clusters, 3)
		if s.Chance(0.15) {
			names = append(names, "missing")
		}
		return m{"placementType": "PickFixed", "clusterNames": scenario.Strs(names)}
	}
	p := m{"placementType": "PickN", "numberOfClusters": int64(s.Between(0, 4))}
	aff := m{}
	if s.Chance(0.4) {
		aff["requiredDuringSchedulingIgnoredDuringExecution"] = m{"clusterSelectorTerms": s.terms()}
	}
	if s.Chance(0.7) {
		var pref l
		for i, k := 0, s.Between(1, 3); i < k; i++ {
			pref = append(pref, m{"weight": int64(s.Between(-50, 100)), "preference": s.preference()})
		}
		aff["preferredDuringSchedulingIgnoredDuringExecution"] = pref
	}
	if len(aff) > 0 {
		p["affinity"] = m{"clusterAffinity": aff}
	}
	if s.Chance(0.15) {
		c := m{"maxSkew": int64(s.Between(1, 2)), "topologyKey": "region"}
		if s.Chance(0.5) {
			c["whenUnsatisfiable"] = "ScheduleAnyway"
		}
		p["topologySpreadConstraints"] = l{c}
	}
	s.tolerations(p)
	return p
}

func (s *builder) tolerations(p m) {
	if !s.Chance(0.3) {
		return
	}
	t := m{"key": "dedicated", "effect": "NoSchedule"}
	if s.Chance(0.5) {
		t["operator"] = "Exists"
	} else {
		t["operator"] = "Equal"
		t["value"] = s.Pick([]string{"gpu", "batch"})
	}
	p["tolerations"] = l{t}
}

// selector draws a cluster label selector.
func (s *builder) selector() m {
	switch x := s.Float64(); {
	case x < 0.5:
		return m{"matchLabels": m{"env": s.Pick(envs)}}
	case x < 0.7:
		return m{"matchExpressions": l{m{"key": "region", "operator": "In", "values": scenario.Strs(s.Subset(regions, 2))}}}
	case x < 0.85:
		return m{"matchExpressions": l{m{"key": "env", "operator": "NotIn", "values": l{s.Pick(envs)}}}}
	}
	return m{"matchExpressions": l{m{"key": "kube-fleet.io/zone", "operator": s.Pick([]string{"Exists", "DoesNotExist"})}}}
}

func (s *builder) terms() l {
	var out l
	for i, k := 0, s.Between(1, 2); i < k; i++ {
		t := m{"labelSelector": s.selector()}
		if s.properties && s.Chance(0.4) {
			t = m{}
			if s.Chance(0.5) {
				t["labelSelector"] = s.selector()
			}
			op := s.Pick([]string{"Gt", "Ge", "Lt", "Le", "Eq", "Ne"})
			t["propertySelector"] = m{"matchExpressions": l{m{"name": nodeCount, "operator": op, "values": l{fmt.Sprint(s.Between(2, 10))}}}}
		}
		out = append(out, t)
	}
	return out
}

func (s *builder) preference() m {
	if s.properties && s.Chance(0.4) {
		return m{"propertySorter": m{"name": s.Pick([]string{nodeCount, costProperty}), "sortOrder": s.Pick([]string{"Ascending", "Descending"})}}
	}
	return m{"labelSelector": s.selector()}
}

func (s *builder) placements() {
	// Each Namespace is selected by at most one ClusterResourcePlacement
	// (two placements of one resource conflict upstream).
	free := append([]string(nil), s.namespaces...)
	for i, n := 0, s.Between(1, 3); i < n && len(free) > 0; i++ {
		name := fmt.Sprintf("crp%d", i+1)
		k := s.Between(1, len(free))
		var sels l
		for _, ns := range free[:k] {
			sel := m{"group": "", "version": "v1", "kind": "Namespace", "name": ns}
			if s.Chance(0.2) {
				sel["selectionScope"] = "NamespaceOnly"
			}
			sels = append(sels, sel)
			s.placed[ns] = name
		}
		free = free[k:]
		spec := m{"resourceSelectors": sels}
		if p := s.policy(); p != nil {
			spec["policy"] = p
		}
		s.items = append(s.items, m{"apiVersion": placementAPI, "kind": "ClusterResourcePlacement", "metadata": m{"name": name}, "spec": spec})
	}
	// A ResourcePlacement in a Namespace no ClusterResourcePlacement selects
	// with its resources, sometimes.
	for _, ns := range free {
		if !s.Chance(0.6) {
			continue
		}
		sel := m{"group": "apps", "version": "v1", "kind": "Deployment", "labelSelector": m{"matchLabels": m{"tier": s.Pick([]string{"fe", "be"})}}}
		if s.hasSettings[ns] && s.Chance(0.4) {
			sel = m{"group": "", "version": "v1", "kind": "ConfigMap", "name": "settings"}
		}
		spec := m{"resourceSelectors": l{sel}}
		if p := s.policy(); p != nil {
			spec["policy"] = p
		}
		s.placed[ns] = "rp"
		s.items = append(s.items, m{"apiVersion": placementAPI, "kind": "ResourcePlacement", "metadata": m{"name": "rp", "namespace": ns}, "spec": spec})
	}
}

// rule draws an override rule.
func (s *builder) rule(kind string) m {
	r := m{}
	switch x := s.Float64(); {
	case x < 0.1:
	case x < 0.35:
		r["clusterSelector"] = m{"clusterSelectorTerms": l{}}
	default:
		r["clusterSelector"] = m{"clusterSelectorTerms": l{m{"labelSelector": s.selector()}}}
	}
	if s.Chance(0.12) {
		r["overrideType"] = "Delete"
		return r
	}
	var ps l
	for i, k := 0, s.Between(1, 2); i < k; i++ {
		ps = append(ps, s.patch(kind))
	}
	r["jsonPatchOverrides"] = ps
	return r
}

func (s *builder) patch(kind string) m {
	labelVar := "${MEMBER-CLUSTER-LABEL-KEY-" + s.Pick([]string{"env", "region", "env", "kube-fleet.io/zone"}) + "}"
	switch x := s.Float64(); {
	case x < 0.3:
		return m{"op": "add", "path": "/metadata/labels/cluster", "value": "${MEMBER-CLUSTER-NAME}"}
	case x < 0.5:
		return m{"op": "add", "path": "/metadata/annotations", "value": m{"placed-in": labelVar + "-${MEMBER-CLUSTER-NAME}"}}
	case x < 0.6:
		return m{"op": "remove", "path": "/metadata/labels/" + s.Pick([]string{"team", "tier", "app"})}
	}
	switch kind {
	case "Deployment":
		if s.Chance(0.5) {
			return m{"op": "replace", "path": "/spec/replicas", "value": int64(s.Between(0, 9))}
		}
		return m{"op": "replace", "path": "/spec/template/spec/containers/0/image", "value": "registry.example/${MEMBER-CLUSTER-NAME}/web:2.0"}
	case "ConfigMap":
		return m{"op": "add", "path": "/data/region", "value": labelVar}
	}
	return m{"op": "add", "path": "/metadata/labels/env", "value": labelVar}
}

func (s *builder) overrides() {
	// ClusterResourceOverrides select Namespaces by name (and with them
	// their contents).
	// Each resource is selected by at most one override of a kind: upstream's
	// validating webhook rejects a second one.
	nss := s.Sample(s.namespaces, 0, min(2, len(s.namespaces)))
	for i, ns := range nss {
		kind := "Namespace" // metadata patches: they apply to the Namespace and to what it holds
		spec := m{"clusterResourceSelectors": l{m{"group": "", "version": "v1", "kind": "Namespace", "name": ns}}}
		if crp, ok := s.placed[ns]; ok && crp != "rp" && s.Chance(0.3) {
			spec["placement"] = m{"name": crp}
		}
		var rules l
		for j, k := 0, s.Between(1, 2); j < k; j++ {
			rules = append(rules, s.rule(kind))
		}
		spec["policy"] = m{"overrideRules": rules}
		s.items = append(s.items, m{"apiVersion": placementAPI, "kind": "ClusterResourceOverride",
			"metadata": m{"name": fmt.Sprintf("cro%d", i+1)}, "spec": spec})
	}
	// ResourceOverrides select a workload by name in their namespace.
	for i, wi := range s.Perm(len(s.workloads))[:s.Between(0, min(3, len(s.workloads)))] {
		w := s.workloads[wi]
		group := "apps"
		if w[0] == "ConfigMap" {
			group = ""
		}
		spec := m{"resourceSelectors": l{m{"group": group, "version": "v1", "kind": w[0], "name": w[2]}}}
		if s.placed[w[1]] == "rp" && s.Chance(0.4) {
			spec["placement"] = m{"name": "rp", "scope": "Namespaced"}
		}
		var rules l
		for j, k := 0, s.Between(1, 2); j < k; j++ {
			rules = append(rules, s.rule(w[0]))
		}
		spec["policy"] = m{"overrideRules": rules}
		s.items = append(s.items, m{"apiVersion": placementAPI, "kind": "ResourceOverride",
			"metadata": m{"name": fmt.Sprintf("ro%d", i+1), "namespace": w[1]}, "spec": spec})
	}
}
