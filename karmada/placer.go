// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

// fleetPlan is where every resource of the input goes, decided once for the
// whole fleet: the detector's claim, the scheduler's result and the
// dependencies distributor's additions.
type fleetPlan struct {
	byKey map[resourceKey]*placed
	// deps holds, per dependency, the clusters its parents send it to.
	deps map[resourceKey]map[string]bool
	// unclaimed says why a resource no policy propagates goes nowhere.
	unclaimed map[resourceKey]string
}

// resourceKey identifies a resource of the input.
type resourceKey struct{ apiVersion, kind, namespace, name string }

func keyOf(r *policy.Resource) resourceKey {
	return resourceKey{r.APIVersion, r.Kind, r.Namespace, r.Name}
}

// planFleet runs the detector, the scheduler and the dependencies
// distributor over the input's resources.
func planFleet(c *claimer, resources []*yaml.RNode, fleet []*policy.Cluster) (*fleetPlan, error) {
	fp := &fleetPlan{byKey: map[resourceKey]*placed{}, deps: map[resourceKey]map[string]bool{}, unclaimed: map[resourceKey]string{}}
	type parent struct {
		res *policy.Resource
		at  *placed
	}
	var parents []parent
	present := map[resourceKey]*policy.Resource{}
	for _, n := range resources {
		res := policy.NewResource(n)
		key := keyOf(res)
		present[key] = res
		p, why := c.claim(res)
		if p == nil {
			fp.unclaimed[key] = why
			continue
		}
		w, err := interpretWorkload(n)
		if err != nil {
			return nil, fmt.Errorf("%s (claimed by %s): %w", res.Ref.GVKString(), p.ref, err)
		}
		at, err := schedule(p, res, w, fleet)
		if err != nil {
			return nil, fmt.Errorf("%s (claimed by %s): %w", res.Ref.GVKString(), p.ref, err)
		}
		fp.byKey[key] = at
		if p.propagateDeps && res.Namespace != "" && at.nowhere == "" {
			parents = append(parents, parent{res, at})
		}
	}
	// A dependency of a workload whose policy sets propagateDeps follows it
	// to its clusters; dependencies the input lacks are skipped, as the
	// distributor skips those the control plane lacks.
	for _, pa := range parents {
		ds, err := dependencies(pa.res.Node)
		if err != nil {
			return nil, fmt.Errorf("%s: dependencies: %w", pa.res.Ref.GVKString(), err)
		}
		for _, d := range ds {
			for _, key := range matchDependency(d, present) {
				if fp.deps[key] == nil {
					fp.deps[key] = map[string]bool{}
				}
				for _, t := range pa.at.targets {
					fp.deps[key][t.name] = true
				}
			}
		}
	}
	return fp, nil
}

// matchDependency finds the input's objects a dependency names: by name,
// or every object of its kind in its namespace whose labels include the
// selector's.
func matchDependency(d dependency, present map[resourceKey]*policy.Resource) []resourceKey {
	if d.name != "" {
		key := resourceKey{d.apiVersion, d.kind, d.namespace, d.name}
		if present[key] == nil {
			return nil
		}
		return []resourceKey{key}
	}
	var keys []resourceKey
	for key, res := range present {
		if key.apiVersion != d.apiVersion || key.kind != d.kind || key.namespace != d.namespace {
			continue
		}
		matches := true
		for k, v := range d.selector {
			if res.Labels[k] != v {
				matches = false
			}
		}
		if matches {
			keys = append(keys, key)
		}
	}
	return keys
}

// placer answers for one rendered cluster.
type placer struct {
	plan    *fleetPlan
	cluster *policy.Cluster
}

// Place says whether the cluster receives res and with how many replicas.
// It decides on every resource: one no propagation policy claims goes
// nowhere, as in the control plane.
func (pl placer) Place(res *policy.Resource) (policy.Placement, bool, error) {
	if pl.cluster == nil {
		return policy.Placement{}, false, nil
	}
	name := pl.cluster.Name
	if autoPropagatedNamespace(res) {
		return policy.Placement{Placed: true, Reason: "Karmada's namespace sync controller sends every Namespace to every cluster"}, true, nil
	}
	key := keyOf(res)
	at := pl.plan.byKey[key]
	byDep := pl.plan.deps[key][name]
	if at == nil || at.nowhere != "" {
		if byDep {
			return policy.Placement{Placed: true, Reason: "a dependency of a workload placed there (propagateDeps)"}, true, nil
		}
		why := pl.plan.unclaimed[key]
		if at != nil {
			why = at.nowhere
		}
		out := policy.Placement{Reason: why}
		if at != nil {
			out.By = &at.policy.ref
		}
		return out, true, nil
	}
	i := slices.IndexFunc(at.targets, func(t assignment) bool { return t.name == name })
	if i < 0 {
		if byDep {
			return policy.Placement{Placed: true, By: &at.policy.ref, Reason: "a dependency of a workload placed there (propagateDeps)"}, true, nil
		}
		why := at.why[name]
		if why == "" {
			why = "not selected"
		}
		return policy.Placement{By: &at.policy.ref, Reason: fmt.Sprintf("%s: %s", at.policy.ref, why)}, true, nil
	}
	out := policy.Placement{Placed: true, By: &at.policy.ref, Reason: "scheduled by " + at.policy.ref.String()}
	if !at.revise {
		return out, true, nil
	}
	replicas := at.targets[i].replicas
	r64 := int64(replicas)
	out.Replicas = &r64
	var completions *int32
	if c, ok := at.completions[name]; ok {
		completions = &c
	}
	field := "spec.replicas"
	if res.Kind == "Job" {
		field = "spec.parallelism"
	}
	out.Revise = policy.Step{Field: field, Filter: yaml.FilterFunc(func(n *yaml.RNode) (*yaml.RNode, error) {
		if _, err := reviseReplicas(n, replicas, completions); err != nil {
			return nil, fmt.Errorf("revise the replicas for cluster %s: %w", name, err)
		}
		return n, nil
	})}
	return out, true, nil
}

// placementNotes are the assumptions a placement made about the fleet.
func placementNotes(fleet []*policy.Cluster) []error {
	var unknown []string
	for _, c := range fleet {
		if c.APIs == nil {
			unknown = append(unknown, c.Name)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	return []error{&policy.Note{Err: fmt.Errorf("placement: cluster(s) %s carry no status.apiEnablements, so every API is taken as enabled there (Karmada's scheduler places nothing on a cluster that reports none); export the Cluster objects with their status (kubectl get clusters.cluster.karmada.io -o yaml) to filter by API",
		strings.Join(unknown, ", "))}}
}

// planOnce computes the fleet plan on first use; For runs once per cluster,
// the plan is the same for all.
type planOnce struct {
	once sync.Once
	plan *fleetPlan
	err  error
}
