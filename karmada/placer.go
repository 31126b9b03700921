// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

// fleetPlan is what placement knows beyond one resource: where the
// dependencies of workloads whose policy sets propagateDeps go. It is nil
// when no propagation policy sets propagateDeps: each resource is then
// placed on its own (decide), and the run may stream.
type fleetPlan struct {
	// deps holds, per dependency, the clusters its parents send it to.
	deps map[resourceKey]map[string]bool
}

// resourceKey identifies a resource of the input.
type resourceKey struct{ apiVersion, kind, namespace, name string }

func keyOf(r *policy.Resource) resourceKey {
	return resourceKey{r.APIVersion, r.Kind, r.Namespace, r.Name}
}

// decide runs the detector and the scheduler for one resource: the placed
// result, or nil and why no policy propagates it.
func decide(c *claimer, res *policy.Resource, fleet []*policy.Cluster) (*placed, string, error) {
	p, why := c.claim(res)
	if p == nil {
		return nil, why, nil
	}
	w, err := interpretWorkload(res.Node)
	if err != nil {
		return nil, "", &policy.Error{Policy: p.ref, Resource: &res.Ref, Err: err}
	}
	at, err := schedule(p, res, w, fleet)
	if err != nil {
		pe := &policy.Error{Policy: p.ref, Resource: &res.Ref, Err: err}
		var missing *missingCapacity
		if errors.As(err, &missing) {
			pe.Field = missing.field
		}
		return nil, "", pe
	}
	return at, "", nil
}

// planDependencies is the dependencies distributor over the input's
// resources: a dependency of a workload whose policy sets propagateDeps
// follows it to its clusters; dependencies the input lacks are skipped, as
// the distributor skips those the control plane lacks.
func planDependencies(c *claimer, resources []*yaml.RNode, fleet []*policy.Cluster) (*fleetPlan, error) {
	fp := &fleetPlan{deps: map[resourceKey]map[string]bool{}}
	present := map[resourceKey]*policy.Resource{}
	for _, n := range resources {
		res := policy.NewResource(n)
		present[keyOf(res)] = res
	}
	for _, n := range resources {
		res := present[keyOf(policy.NewResource(n))]
		if res.Namespace == "" {
			continue // only ResourceBindings propagate dependencies
		}
		at, _, err := decide(c, res, fleet)
		if err != nil {
			return nil, err
		}
		if at == nil || !at.policy.propagateDeps || at.nowhere != "" {
			continue
		}
		ds, err := dependencies(res.Node)
		if err != nil {
			return nil, fmt.Errorf("%s: dependencies: %w", res.Ref.GVKString(), err)
		}
		for _, d := range ds {
			for _, key := range matchDependency(d, present) {
				if fp.deps[key] == nil {
					fp.deps[key] = map[string]bool{}
				}
				for _, t := range at.targets {
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
	claimer *claimer
	fleet   []*policy.Cluster
	plan    *fleetPlan // nil without propagateDeps
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
	at, unclaimed, err := decide(pl.claimer, res, pl.fleet)
	if err != nil {
		return policy.Placement{}, false, err
	}
	byDep := pl.plan != nil && pl.plan.deps[keyOf(res)][name]
	dep := policy.Placement{Placed: true, Reason: "a dependency of a workload placed there (propagateDeps)"}
	if at == nil || at.nowhere != "" {
		if byDep {
			return dep, true, nil
		}
		if at == nil {
			return policy.Placement{Reason: unclaimed}, true, nil
		}
		return policy.Placement{By: &at.policy.ref, Reason: at.nowhere}, true, nil
	}
	i := slices.IndexFunc(at.targets, func(t assignment) bool { return t.name == name })
	if i < 0 {
		if byDep {
			dep.By = &at.policy.ref
			return dep, true, nil
		}
		why := at.why[name]
		if why == "" {
			why = "not selected"
		}
		return policy.Placement{By: &at.policy.ref, Reason: fmt.Sprintf("%s: %s", at.policy.ref, why)}, true, nil
	}
	out := policy.Placement{Placed: true, By: &at.policy.ref, Reason: "scheduled"}
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

// Claim implements policy.Claimer: the propagation policy that claims
// res, whichever cluster is rendered, and why the others that select it
// do not.
func (pl placer) Claim(res *policy.Resource) policy.Claim { return pl.claimer.contest(res) }

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

// planOnce computes the dependency plan on first use; For runs once per
// cluster, the plan is the same for all.
type planOnce struct {
	once sync.Once
	plan *fleetPlan
	err  error
}
