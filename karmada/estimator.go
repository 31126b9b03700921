// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

import (
	"math"
	"slices"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/apply-overrides/apply-overrides/policy"
)

// This file reproduces the capacity Karmada v1.16.0's scheduler sees in a
// member cluster: the general replica estimator
// (pkg/estimator/client/general.go), the only one running with the default
// flags, and the way the scheduler turns its answer into each cluster's
// available replicas (pkg/scheduler/core/util.go calAvailableReplicas).
// Karmada stores the answer in an int32; the arithmetic below keeps its
// int64 products, sums and the final conversion as they are, wrap-arounds
// included, so that even an absurd inventory gets Karmada's number.

// requirements is a workload's per-replica resource requests (Karmada's
// ReplicaRequirements.ResourceRequest). A nil *requirements is a workload
// without any (Karmada leaves ReplicaRequirements nil when the pod template
// has neither requests nor a node claim); a non-nil one with no Requests is
// a workload with only a node claim, which the general estimator treats
// differently (see modelReplicas).
type requirements struct{ Requests map[string]resource.Quantity }

// unauthenticReplica is the answer an estimator gives when it cannot tell;
// calAvailableReplicas ignores it (estimator/client UnauthenticReplica).
const unauthenticReplica = -1

// maxAvailableReplicas is the general estimator's answer for one cluster:
// how many more replicas requiring req fit in it, judged from its
// status.resourceSummary. A cluster without a summary has room for none,
// and neither has one without free pods. The answer is the allowed pod
// count, lowered by what the resource models allow when the cluster
// reports allocatable modelings and the models cover the request, or else
// by what the summary's free resources allow. It is the int32 Karmada
// stores, widened.
func maxAvailableReplicas(c *policy.Cluster, req *requirements) int64 {
	if c == nil || c.Resources == nil {
		return 0
	}
	r := c.Resources
	most := allowedPods(r)
	if most <= 0 {
		return 0
	}
	if req == nil {
		return int64(int32(most))
	}
	// The resource-model path runs first because the
	// CustomizedClusterResourceModeling gate is on by default; when it
	// cannot judge the request, Karmada logs why and uses the summary.
	if len(r.Modelings) > 0 {
		if n, ok := modelReplicas(r, req); ok {
			return int64(int32(min(most, n)))
		}
	}
	return int64(int32(min(most, summaryReplicas(r, req))))
}

// availableForOrdering is a cluster's AvailableReplicas for a fresh
// binding, the second key of the scheduler's cluster order and the weight
// of the dynamic strategies. A binding with 0 replicas skips the estimator
// and every cluster gets MaxInt32 (so the order falls back to names).
// Otherwise the estimator's answer counts, except that Karmada ignores an
// answer of -1 and replaces the MaxInt32 that then remains, like a genuine
// MaxInt32, by the binding's replicas.
func availableForOrdering(c *policy.Cluster, replicas int32, req *requirements) int64 {
	if replicas == 0 {
		return math.MaxInt32
	}
	n := maxAvailableReplicas(c, req)
	if n == unauthenticReplica || n == math.MaxInt32 {
		return int64(replicas)
	}
	return n
}

// allowedPods is how many more pods the cluster accepts: allocatable pods
// less the allocated and allocating ones, and 0 when that is not positive
// (pending pods can outnumber the free slots).
func allowedPods(r *policy.Resources) int64 {
	n := pods(r.Allocatable) - pods(r.Allocated) - pods(r.Allocating)
	if n <= 0 {
		return 0
	}
	return n
}

func pods(m map[string]resource.Quantity) int64 {
	q, ok := m["pods"]
	if !ok {
		return 0
	}
	return q.Value()
}

// summaryReplicas is how many replicas the summary's free resources hold:
// for each requested resource, (allocatable - allocated - allocating) /
// request, the smallest of them. A requested resource the cluster does not
// list, or has none left of, holds none. CPU is divided in millicores and
// everything else in whole units, Value() rounding both sides up; a request
// that rounds to 0 or less does not count.
func summaryReplicas(r *policy.Resources, req *requirements) int64 {
	most := int64(math.MaxInt64)
	for _, name := range sortedNames(req.Requests) {
		want := req.Requests[name]
		if want.Value() <= 0 {
			continue
		}
		allocatable, ok := r.Allocatable[name]
		if !ok {
			return 0
		}
		free := allocatable.DeepCopy()
		if q, ok := r.Allocated[name]; ok {
			free.Sub(q)
		}
		if q, ok := r.Allocating[name]; ok {
			free.Sub(q)
		}
		if free.Value() <= 0 {
			return 0
		}
		if n, ok := perRequest(name, free, want); ok {
			most = min(most, n)
		}
	}
	return most
}

// perRequest divides have by want, in millicores for CPU and whole units
// otherwise. Karmada divides without looking; the divisor can only be 0
// when a huge request overflows int64 (Karmada would crash), and such a
// request is then left out (ok false) rather than crash the render.
func perRequest(name string, have, want resource.Quantity) (n int64, ok bool) {
	h, w := have.Value(), want.Value()
	if name == "cpu" {
		h, w = have.MilliValue(), want.MilliValue()
	}
	if w == 0 {
		return 0, false
	}
	return h / w, true
}

// modelReplicas is how many replicas the cluster's resource models hold
// (Karmada's getMaximumReplicasBasedOnResourceModels). Every requested
// resource picks the first model whose minimum covers the request; the
// highest such model, and every model above it, contribute their node
// count times the replicas one of their nodes holds at its minimum.
//
// ok is false when the models cannot judge the request and the summary
// must: a requested resource no model names (Karmada's own fallback), and
// two cases Karmada never meets because its API server rejects such
// models but an inventory written by hand can hold, where Karmada would
// index out of range: a model that lacks a resource the others have, and
// fewer modelings than models.
//
// Like Karmada, models and modelings pair up by position, not by grade
// (the API server sorts models by grade and the status controller writes
// one modeling per model, in that order). Karmada visits the requests in
// map order, so a request with one resource no model names and another
// no model covers gets either answer; this visits them by name, so the
// answer is stable.
func modelReplicas(r *policy.Resources, req *requirements) (int64, bool) {
	mins := modelMinimums(r.Models)
	first := 0
	for _, name := range sortedNames(req.Requests) {
		want := req.Requests[name]
		if want.Value() <= 0 {
			continue
		}
		grades, ok := mins[name]
		if !ok {
			return 0, false
		}
		i := slices.IndexFunc(grades, func(m resource.Quantity) bool { return m.Cmp(want) >= 0 })
		if i < 0 {
			// No node is big enough for one replica.
			return 0, true
		}
		first = max(first, i)
	}
	var total int64
	for i := first; i < len(r.Models); i++ {
		if i >= len(r.Modelings) {
			return 0, false
		}
		if r.Modelings[i].Count == 0 {
			continue
		}
		perNode, ok := nodeReplicas(i, req, mins)
		if !ok {
			return 0, false
		}
		total += r.Modelings[i].Count * perNode
	}
	return total, true
}

// modelMinimums lists, for each resource, the minimums of the models that
// name it, in model order (Karmada's convertToResourceModelsMinMap).
func modelMinimums(models []policy.ResourceModel) map[string][]resource.Quantity {
	mins := map[string][]resource.Quantity{}
	for _, m := range models {
		for name, rg := range m.Ranges {
			mins[name] = append(mins[name], rg.Min)
		}
	}
	return mins
}

// nodeReplicas is how many replicas fit on a node of model i at its
// minimum: the smallest quotient over the requested resources. A model at
// or above the first suitable one always holds at least one, so 0 counts
// as 1; with no positive request nothing limits it and the answer is
// MaxInt64 (which Karmada then multiplies by the node count, overflowing).
// ok is false when resource i is missing from a shorter list of minimums.
func nodeReplicas(i int, req *requirements, mins map[string][]resource.Quantity) (int64, bool) {
	most := int64(math.MaxInt64)
	for name, want := range req.Requests {
		if want.Value() <= 0 {
			continue
		}
		if i >= len(mins[name]) {
			return 0, false
		}
		if n, ok := perRequest(name, mins[name][i], want); ok {
			most = min(most, n)
		}
	}
	if most == 0 {
		return 1, true
	}
	return most, true
}

func sortedNames(m map[string]resource.Quantity) []string {
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
