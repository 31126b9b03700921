// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package gen generates placement scenarios: KRM ResourceLists holding a
// fleet of Karmada Clusters, competing (Cluster)PropagationPolicies and
// workloads, deterministic in a seed.
package gen

import (
	"fmt"

	"github.com/apply-overrides/apply-overrides/oracle/harness/rl"
	"github.com/apply-overrides/apply-overrides/oracle/harness/scenario"
)

type m = map[string]any
type l = []any

var clusterPool = []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"}
var taintKeys = []string{"dedicated", "maintenance", "gpu"}
var taintEffects = []string{"NoSchedule", "NoExecute", "PreferNoSchedule"}
var providers = []string{"aws", "gcp", "azure"}
var regions = map[string][]string{"us-east": {"us-east-1a", "us-east-1b"}, "eu-west": {"eu-west-1a", "eu-west-1b", "eu-west-1c"}}
var regionNames = []string{"eu-west", "us-east"}
var namespaces = []string{"default", "apps", "team-a"}

type workload struct {
	apiVersion, kind, ns, name string
	labels                     map[string]string
}

type builder struct {
	*scenario.Rand
	clusters  []string
	labels    map[string]map[string]string
	taints    map[string][]m
	workloads []workload
	items     []any
	opMade    map[string]bool // namespaces holding the generated OverridePolicy
	// capacityAll gives every Cluster a status.resourceSummary; otherwise
	// each has one by chance, and the function declines the placements
	// that depend on the capacity it lacks.
	capacityAll bool
}

// Scenario builds the scenario with this seed.
func Scenario(seed uint64) *rl.ResourceList {
	s := &builder{Rand: scenario.NewRand(seed), labels: map[string]map[string]string{}, taints: map[string][]m{}, opMade: map[string]bool{}}
	s.capacityAll = s.Chance(0.85)
	s.fleet()
	s.resources()
	s.policies()
	return scenario.List(seed, s.items)
}

func (s *builder) fleet() {
	s.clusters = s.Sample(clusterPool, 2, 6)
	for _, name := range s.clusters {
		labels := map[string]string{"env": s.Pick([]string{"prod", "dev"})}
		if s.Chance(0.5) {
			labels["tier"] = s.Pick([]string{"gold", "silver"})
		}
		s.labels[name] = labels
		spec := m{"syncMode": "Push"}
		if s.Chance(0.8) {
			spec["provider"] = s.Pick(providers)
		}
		if s.Chance(0.8) {
			region := s.Pick(regionNames)
			spec["region"] = region
			if s.Chance(0.7) {
				zones := s.Subset(regions[region], 2)
				if len(zones) == 1 && s.Chance(0.4) {
					spec["zone"] = zones[0] // legacy field, migrated by the cluster mutation
				} else {
					spec["zones"] = scenario.Strs(zones)
				}
			}
		}
		var taints l
		for _, k := range taintKeys {
			if s.Chance(0.2) {
				t := m{"key": k, "effect": s.Pick(taintEffects)}
				if s.Chance(0.5) {
					t["value"] = "true"
				}
				taints = append(taints, t)
				s.taints[name] = append(s.taints[name], t)
			}
		}
		if len(taints) > 0 {
			spec["taints"] = taints
		}
		obj := m{
			"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
			"metadata": m{"name": name, "labels": scenario.Map(labels)},
			"spec":     spec,
		}
		status := m{}
		if s.Chance(0.9) {
			status["apiEnablements"] = s.apiEnablements()
		}
		if s.capacityAll || s.Chance(0.5) {
			status["resourceSummary"] = s.resourceSummary()
		}
		if len(status) > 0 {
			obj["status"] = status
		}
		s.items = append(s.items, obj)
	}
}

func (s *builder) apiEnablements() l {
	apps := l{m{"name": "deployments", "kind": "Deployment"}, m{"name": "statefulsets", "kind": "StatefulSet"}}
	if s.Chance(0.1) {
		apps = l{m{"name": "deployments", "kind": "Deployment"}}
	}
	out := l{
		m{"groupVersion": "apps/v1", "resources": apps},
		m{"groupVersion": "v1", "resources": l{
			m{"name": "configmaps", "kind": "ConfigMap"}, m{"name": "secrets", "kind": "Secret"},
			m{"name": "services", "kind": "Service"}, m{"name": "namespaces", "kind": "Namespace"},
		}},
	}
	if !s.Chance(0.1) {
		out = append(out, m{"groupVersion": "batch/v1", "resources": l{m{"name": "jobs", "kind": "Job"}}})
	}
	return out
}

func (s *builder) resourceSummary() m {
	pods := s.Between(5, 200)
	cpu := s.Between(2, 64)
	mem := s.Between(4, 256)
	sum := m{
		"allocatable": m{"pods": fmt.Sprint(pods), "cpu": fmt.Sprint(cpu), "memory": fmt.Sprintf("%dGi", mem)},
	}
	if s.Chance(0.7) {
		sum["allocated"] = m{
			"pods":   fmt.Sprint(s.IntN(pods + 1)),
			"cpu":    fmt.Sprintf("%dm", s.IntN(cpu*1000+1)),
			"memory": fmt.Sprintf("%dMi", s.IntN(mem*1024+1)),
		}
	}
	if s.Chance(0.1) {
		delete(sum["allocatable"].(m), "pods")
	}
	return sum
}

func (s *builder) podSpec(ns string, deps bool) m {
	c := m{"name": "main", "image": "registry.example/app:1"}
	if s.Chance(0.8) {
		req := m{"cpu": fmt.Sprintf("%dm", 50*s.Between(1, 40))}
		if s.Chance(0.8) {
			req["memory"] = fmt.Sprintf("%dMi", 64*s.Between(1, 64))
		}
		c["resources"] = m{"requests": req}
	}
	spec := m{"containers": l{c}}
	if deps {
		cm := "cfg-" + ns
		c["envFrom"] = l{m{"configMapRef": m{"name": cm}}}
		spec["volumes"] = l{m{"name": "creds", "secret": m{"secretName": "creds-" + ns}}}
	}
	return spec
}

func (s *builder) add(apiVersion, kind, ns, name string, labels map[string]string, spec m) {
	meta := m{"name": name, "labels": scenario.Map(labels)}
	if ns != "" {
		meta["namespace"] = ns
	}
	obj := m{"apiVersion": apiVersion, "kind": kind, "metadata": meta}
	if spec != nil {
		obj["spec"] = spec
	}
	s.items = append(s.items, obj)
	s.workloads = append(s.workloads, workload{apiVersion, kind, ns, name, labels})
}

func (s *builder) resources() {
	used := map[string]bool{}
	nsUsed := map[string]bool{}
	n := s.Between(1, 6)
	for i := 0; i < n; i++ {
		ns := s.Pick(namespaces)
		if s.Chance(0.03) {
			ns = "kube-system"
		}
		nsUsed[ns] = true
		labels := map[string]string{"team": s.Pick([]string{"red", "blue"})}
		switch k := s.IntN(10); {
		case k < 4:
			name := fmt.Sprintf("web-%d", i)
			labels["app"] = name
			deps := s.Chance(0.5)
			spec := m{
				"selector": m{"matchLabels": m{"app": name}},
				"template": m{"metadata": m{"labels": m{"app": name}}, "spec": s.podSpec(ns, deps)},
			}
			if !s.Chance(0.05) {
				spec["replicas"] = int64(s.Between(1, 50))
			}
			s.add("apps/v1", "Deployment", ns, name, labels, spec)
			if deps && !used[ns] {
				used[ns] = true
				s.add("v1", "ConfigMap", ns, "cfg-"+ns, map[string]string{"team": labels["team"]}, nil)
				if s.Chance(0.8) {
					s.add("v1", "Secret", ns, "creds-"+ns, map[string]string{"team": labels["team"]}, nil)
				}
			}
		case k < 5:
			name := fmt.Sprintf("db-%d", i)
			labels["app"] = name
			s.add("apps/v1", "StatefulSet", ns, name, labels, m{
				"replicas":    int64(s.Between(1, 10)),
				"serviceName": name,
				"selector":    m{"matchLabels": m{"app": name}},
				"template":    m{"metadata": m{"labels": m{"app": name}}, "spec": s.podSpec(ns, false)},
			})
		case k < 7:
			name := fmt.Sprintf("batch-%d", i)
			labels["app"] = name
			spec := m{"template": m{"spec": func() m {
				p := s.podSpec(ns, false)
				p["restartPolicy"] = "Never"
				return p
			}()}}
			switch s.IntN(4) {
			case 0:
				spec["parallelism"] = int64(s.Between(1, 10))
				spec["completions"] = int64(s.Between(1, 30))
			case 1:
				spec["parallelism"] = int64(s.Between(1, 10))
			case 2:
				spec["completions"] = int64(s.Between(1, 30))
			}
			s.add("batch/v1", "Job", ns, name, labels, spec)
		case k < 8:
			name := fmt.Sprintf("svc-%d", i)
			s.add("v1", "Service", ns, name, labels, m{"ports": l{m{"port": int64(80)}}})
		case k < 9:
			s.add("v1", "ConfigMap", ns, fmt.Sprintf("settings-%d", i), labels, nil)
		default:
			s.add("v1", "Secret", ns, fmt.Sprintf("token-%d", i), labels, nil)
		}
	}
	for _, ns := range namespaces {
		if ns != "default" && nsUsed[ns] && s.Chance(0.6) {
			labels := map[string]string{}
			if s.Chance(0.15) {
				labels["namespace.karmada.io/skip-auto-propagation"] = "true"
			}
			s.add("v1", "Namespace", "", ns, labels, nil)
		}
	}
}

func (s *builder) policies() {
	n := s.Between(1, 6)
	for i := 0; i < n; i++ {
		w := s.workloads[s.IntN(len(s.workloads))]
		cluster := w.ns == "" || s.Chance(0.35)
		sel := m{"apiVersion": w.apiVersion, "kind": w.kind}
		switch s.IntN(3) {
		case 0:
			sel["name"] = w.name
		case 1:
			if s.Chance(0.5) && w.labels["app"] != "" {
				sel["labelSelector"] = m{"matchLabels": m{"app": w.labels["app"]}}
			} else {
				sel["labelSelector"] = m{"matchLabels": m{"team": w.labels["team"]}}
			}
		}
		if cluster && w.ns != "" && s.Chance(0.5) {
			sel["namespace"] = w.ns
		}
		selectors := l{sel}
		if s.Chance(0.3) {
			o := s.workloads[s.IntN(len(s.workloads))]
			if cluster || o.ns == w.ns {
				selectors = append(selectors, m{"apiVersion": o.apiVersion, "kind": o.kind, "name": o.name})
			}
		}
		spec := m{"resourceSelectors": selectors, "placement": s.placement()}
		if s.Chance(0.6) {
			spec["priority"] = int64(s.Between(-1, 3))
		}
		if s.Chance(0.4) {
			spec["propagateDeps"] = true
		}
		if s.Chance(0.05) {
			spec["schedulerName"] = "other-scheduler"
		}
		meta := m{"name": fmt.Sprintf("%s-%d", s.Pick([]string{"pa", "pb", "pc"}), i)}
		kind := "ClusterPropagationPolicy"
		if !cluster {
			kind = "PropagationPolicy"
			ns := w.ns
			if s.Chance(0.1) {
				ns = s.Pick(namespaces)
			}
			meta["namespace"] = ns
			if s.Chance(0.1) {
				op := "op-" + ns
				spec["dependentOverrides"] = l{op}
				if !s.opMade[ns] && s.Chance(0.5) {
					s.opMade[ns] = true
					s.items = append(s.items, m{
						"apiVersion": "policy.karmada.io/v1alpha1", "kind": "OverridePolicy",
						"metadata": m{"name": op, "namespace": ns},
						"spec": m{
							"resourceSelectors": l{m{"apiVersion": w.apiVersion, "kind": w.kind, "name": w.name}},
							"overrideRules":     l{m{"overriders": m{"labelsOverrider": l{m{"operator": "add", "value": m{"oracle": "seen"}}}}}},
						},
					})
				}
			}
		}
		s.items = append(s.items, m{"apiVersion": "policy.karmada.io/v1alpha1", "kind": kind, "metadata": meta, "spec": spec})
	}
}

func (s *builder) affinity() m {
	a := m{}
	switch s.IntN(5) {
	case 0:
		a["clusterNames"] = scenario.Strs(s.Subset(s.clusters, len(s.clusters)))
	case 1:
		a["exclude"] = scenario.Strs(s.Subset(s.clusters, 2))
	case 2:
		a["labelSelector"] = m{"matchLabels": m{"env": s.Pick([]string{"prod", "dev"})}}
	case 3:
		a["labelSelector"] = m{"matchExpressions": l{m{"key": "tier", "operator": s.Pick([]string{"In", "NotIn", "Exists", "DoesNotExist"}), "values": func() l {
			return l{s.Pick([]string{"gold", "silver"})}
		}()}}}
		if op := a["labelSelector"].(m)["matchExpressions"].(l)[0].(m); op["operator"] == "Exists" || op["operator"] == "DoesNotExist" {
			delete(op, "values")
		}
	default:
		var key string
		var values l
		switch s.IntN(3) {
		case 0:
			key, values = "provider", scenario.Strs(s.Subset(providers, 2))
		case 1:
			key, values = "region", scenario.Strs(s.Subset(regionNames, 1))
		default:
			r := s.Pick(regionNames)
			key, values = "zone", scenario.Strs(s.Subset(regions[r], 3))
		}
		a["fieldSelector"] = m{"matchExpressions": l{m{"key": key, "operator": s.Pick([]string{"In", "NotIn"}), "values": values}}}
	}
	return a
}

func (s *builder) placement() m {
	p := m{}
	switch k := s.IntN(10); {
	case k < 5:
		p["clusterAffinity"] = s.affinity()
	case k < 7:
		var terms l
		for i := 0; i < s.Between(2, 3); i++ {
			t := s.affinity()
			t["affinityName"] = fmt.Sprintf("term-%d", i)
			terms = append(terms, t)
		}
		p["clusterAffinities"] = terms
	}
	if s.Chance(0.4) {
		var tol l
		for _, k := range s.Subset(taintKeys, 2) {
			if s.Chance(0.5) {
				tol = append(tol, m{"key": k, "operator": "Exists"})
			} else {
				tol = append(tol, m{"key": k, "operator": "Equal", "value": "true", "effect": s.Pick(taintEffects[:2])})
			}
		}
		p["clusterTolerations"] = tol
	}
	if s.Chance(0.3) {
		sc := m{"spreadByField": "cluster", "minGroups": int64(s.Between(1, 2))}
		if !s.Chance(0.1) {
			sc["maxGroups"] = int64(s.Between(2, 4))
		}
		p["spreadConstraints"] = l{sc}
	}
	switch k := s.IntN(12); {
	case k < 3:
		p["replicaScheduling"] = m{"replicaSchedulingType": "Duplicated"}
	case k < 6:
		var list l
		for _, c := range s.Subset(s.clusters, len(s.clusters)) {
			list = append(list, m{"targetCluster": m{"clusterNames": l{c}}, "weight": int64(s.Between(1, 4))})
		}
		if s.Chance(0.2) {
			list = append(list, m{"targetCluster": m{"labelSelector": m{"matchLabels": m{"env": "prod"}}}, "weight": int64(s.Between(1, 4))})
		}
		rs := m{"replicaSchedulingType": "Divided", "weightPreference": m{"staticWeightList": list}}
		if s.Chance(0.7) {
			rs["replicaDivisionPreference"] = "Weighted"
		}
		p["replicaScheduling"] = rs
	case k < 8:
		p["replicaScheduling"] = m{"replicaSchedulingType": "Divided", "replicaDivisionPreference": "Weighted",
			"weightPreference": m{"dynamicWeight": "AvailableReplicas"}}
	case k < 10:
		p["replicaScheduling"] = m{"replicaSchedulingType": "Divided", "replicaDivisionPreference": "Aggregated"}
	case k < 11:
		p["replicaScheduling"] = m{}
	}
	// A region spread constraint, with dynamic or aggregated division only:
	// Karmada v1.16.0's scheduler divides by zero on a Duplicated region
	// spread whose regions lack room (fixed in v1.16.3), and static weights
	// ignore spread constraints.
	if rs, ok := p["replicaScheduling"].(m); ok && rs["replicaSchedulingType"] == "Divided" && rs["weightPreference"] != nil &&
		rs["weightPreference"].(m)["dynamicWeight"] != nil && s.Chance(0.5) || ok && rs["replicaDivisionPreference"] == "Aggregated" && s.Chance(0.5) {
		p["spreadConstraints"] = l{
			m{"spreadByField": "region", "minGroups": int64(1), "maxGroups": int64(s.Between(1, 2))},
			m{"spreadByField": "cluster", "minGroups": int64(1), "maxGroups": int64(s.Between(1, 4))},
		}
	}
	return p
}
