// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubeadmiral

import (
	"fmt"
	"hash/fnv"
	"math"
	"sort"

	"github.com/apply-overrides/apply-overrides/policy"
)

// This file holds KubeAdmiral's replica planners (kubewharf/kubeadmiral
// @19de01c) for a fresh object: the ClusterCapacityWeight planner
// (pkg/controllers/scheduler/planner), its dynamic weights
// (framework/plugins/rsp) and the PreferenceBinPack planner
// (framework/plugins/preferencebinpack). A fresh object has no current
// replicas and no migration capacities, so neither estimated nor limited
// capacity nor overflow appears here.

// preference is what a placement asks of one cluster.
type preference struct {
	minReplicas int64
	maxReplicas *int64 // nil: unbounded
	weight      int64
}

// namedPreference is a preference in planning order.
type namedPreference struct {
	name string
	hash uint32
	preference
}

// plan is the ClusterCapacityWeight planner (planner.Plan) for a fresh
// object: every cluster of prefs gets a count, 0 included (the caller drops
// the zeros). The inputs must not be negative (unit.validate).
//
// With avoidDisruption (the CRD default), upstream re-plans the desired
// layout as a scale-up from zero replicas, weighted by the desired counts.
// That reproduces the desired layout except where a minReplicas above
// maxReplicas survives the desired plan: the scale-up then caps it.
func plan(prefs map[string]preference, total int64, key string, avoidDisruption bool) map[string]int64 {
	ordered := byWeightAndHash(prefs, key)
	desired := desiredPlan(ordered, total)
	if !avoidDisruption {
		return desired
	}
	var desiredTotal int64
	for _, n := range desired {
		desiredTotal += n
	}
	out := make(map[string]int64, len(prefs))
	for name := range prefs {
		out[name] = 0
	}
	if desiredTotal == 0 {
		return out // the current (empty) layout already has the desired total
	}
	up := map[string]preference{}
	for name, n := range desired {
		if n > 0 {
			up[name] = preference{weight: n, maxReplicas: prefs[name].maxReplicas}
		}
	}
	for name, n := range desiredPlan(byWeightAndHash(up, key), desiredTotal) {
		out[name] += n
	}
	return out
}

// byWeightAndHash orders the preferences by weight descending, then by the
// 32-bit FNV-1 hash (not FNV-1a) of the cluster name followed by key, so
// that single replicas do not always land on the alphabetically first
// cluster. Upstream's sort is unstable, so equal hashes are ambiguous
// there; the name decides them here.
func byWeightAndHash(prefs map[string]preference, key string) []namedPreference {
	out := make([]namedPreference, 0, len(prefs))
	for name, p := range prefs {
		h := fnv.New32()
		_, _ = h.Write([]byte(name)) // a hash.Hash never fails to write
		_, _ = h.Write([]byte(key))
		out = append(out, namedPreference{name: name, hash: h.Sum32(), preference: p})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		switch {
		case a.weight != b.weight:
			return a.weight > b.weight
		case a.hash != b.hash:
			return a.hash < b.hash
		}
		return a.name < b.name
	})
	return out
}

// desiredPlan is getDesiredPlan without capacities: minimums first, in
// order, then rounds that share what is left by weight, rounding each
// share up (so the first clusters get the remainder), until nothing is
// left, no cluster takes more, or the open clusters weigh nothing in all
// (then the rest stays unplaced). A cluster that hits its maximum leaves
// the later rounds; one whose minimum exceeds its maximum is cut back to
// the maximum by the first round, which returns the excess.
func desiredPlan(prefs []namedPreference, total int64) map[string]int64 {
	remaining := total
	out := make(map[string]int64, len(prefs))
	for _, p := range prefs {
		n := min(p.minReplicas, remaining)
		remaining -= n
		out[p.name] = n
	}
	// Each round either places everything left or fills a cluster, so
	// len(prefs)+1 rounds suffice; the bound only guards against weights
	// so large that distribute·weight overflows.
	for round, modified := 0, true; modified && remaining > 0 && round <= len(out); round++ {
		modified = false
		var weightSum int64
		for _, p := range prefs {
			weightSum += p.weight
		}
		if weightSum <= 0 {
			break
		}
		open := prefs[:0:0]
		distribute := remaining
		for _, p := range prefs {
			start := out[p.name]
			extra := min((distribute*p.weight+weightSum-1)/weightSum, remaining)
			n := start + extra
			if p.maxReplicas != nil && n > *p.maxReplicas {
				n = *p.maxReplicas
			} else {
				open = append(open, p)
			}
			remaining -= n - start
			out[p.name] = n
			if n > start {
				modified = true
			}
		}
		prefs = open
	}
	return out
}

// binpackPlan is the PreferenceBinPack planner for a fresh object over the
// clusters in select order (priority descending, then name): minimums
// first, then each cluster in turn takes all that is left up to its
// maximum. With avoidDisruption upstream re-plans as a scale-up from zero
// over the clusters the desired plan uses, asking for the full total again
// rather than the desired total; where a minimum above a maximum returned
// replicas late, an earlier cluster with room then takes them.
func binpackPlan(order []string, prefs map[string]preference, total int64, avoidDisruption bool) map[string]int64 {
	desired := binpackDesired(order, prefs, total)
	if !avoidDisruption {
		return desired
	}
	out := make(map[string]int64, len(order))
	var desiredTotal int64
	var used []string
	for _, name := range order {
		out[name] = 0
		desiredTotal += desired[name]
		if desired[name] > 0 {
			used = append(used, name)
		}
	}
	if desiredTotal == 0 {
		return out
	}
	for name, n := range binpackDesired(used, prefs, total) {
		out[name] += n
	}
	return out
}

// binpackDesired is the bin-packing getDesiredPlan without capacities.
func binpackDesired(order []string, prefs map[string]preference, total int64) map[string]int64 {
	remaining := total
	out := make(map[string]int64, len(order))
	for _, name := range order {
		n := min(prefs[name].minReplicas, remaining)
		remaining -= n
		out[name] = n
	}
	for _, name := range order {
		start := out[name]
		n := start + remaining
		if m := prefs[name].maxReplicas; m != nil && n > *m {
			n = *m
		}
		remaining -= n - start
		out[name] = n
	}
	return out
}

// The dynamic weights' constants: the weights sum to 1000, and no cluster
// may weigh more than 1.4 times its share of the allocatable resource.
const (
	weightTotal      = 1000
	supplyLimitRatio = 1.4
)

// dynamicWeights are ClusterCapacityWeight's weights when no placement sets
// one: each cluster's share of the available resource (cpu, or GPUs when
// the object requests them), capped by its share of the allocatable,
// scaled to 1000. The caller checks that every cluster reports resources.
func dynamicWeights(clusters []*policy.Cluster, res string) (map[string]int64, error) {
	for _, c := range clusters {
		if v := quantityValue(c, true, res); v < 0 {
			return nil, fmt.Errorf("cluster %s: status.resources.allocatable[%s] is negative (%d): export a consistent FederatedCluster status", c.Name, res, v)
		}
	}
	return availableWeights(clusters, res, weightLimits(clusters, res, supplyLimitRatio))
}

// weightLimits is CalcWeightLimit: each cluster's share of the summed
// allocatable resource, times ratio, on the 1000 scale; an equal share
// each when nothing is allocatable anywhere.
func weightLimits(clusters []*policy.Cluster, res string, ratio float64) map[string]int64 {
	var sum float64
	for _, c := range clusters {
		sum += float64(quantityValue(c, true, res))
	}
	out := make(map[string]int64, len(clusters))
	for _, c := range clusters {
		if sum == 0 {
			out[c.Name] = int64(math.Round(weightTotal / float64(len(clusters))))
		} else {
			out[c.Name] = int64(math.Round(float64(quantityValue(c, true, res)) / sum * weightTotal * ratio))
		}
	}
	return out
}

// availableWeights is AvailableToPercentage: each cluster's share of the
// available resource (negative counts as 0) on the 1000 scale, capped by
// its limit, rescaled to 1000, with the rounding remainder given to the
// heaviest cluster. Nothing available anywhere gives every cluster
// round(1000/n), with no remainder given.
//
// Upstream gives the remainder to the first heaviest cluster in Go map
// order, which is random among equally heavy ones; here it goes to the
// first of them by name.
func availableWeights(clusters []*policy.Cluster, res string, limits map[string]int64) (map[string]int64, error) {
	var sumAvailable float64
	for _, c := range clusters {
		if v := quantityValue(c, false, res); v > 0 {
			sumAvailable += float64(v)
		}
	}
	out := make(map[string]int64, len(clusters))
	if sumAvailable == 0 {
		for _, c := range clusters {
			out[c.Name] = int64(math.Round(weightTotal / float64(len(clusters))))
		}
		return out, nil
	}
	capped := make(map[string]int64, len(clusters))
	var sumCapped int64
	for _, c := range clusters {
		v := float64(max(quantityValue(c, false, res), 0))
		w := min(int64(math.Round(v/sumAvailable*weightTotal)), limits[c.Name])
		capped[c.Name] = w
		sumCapped += w
	}
	if sumCapped <= 0 {
		// Upstream divides 0 by 0 here and weighs clusters by whatever
		// NaN converts to.
		return nil, fmt.Errorf("status.resources reports available %s only on clusters that report none allocatable: export a consistent FederatedCluster status", res)
	}
	var sum, heaviest int64
	heaviestName := ""
	for _, name := range sortedKeys(capped) {
		w := int64(math.Round(float64(capped[name]) / float64(sumCapped) * weightTotal))
		if w > heaviest {
			heaviest, heaviestName = w, name
		}
		out[name] = w
		sum += w
	}
	if heaviestName != "" {
		out[heaviestName] += weightTotal - sum
	}
	return out, nil
}

// quantityValue is a cluster's allocatable (or available) amount of res,
// rounded up to a whole unit, 0 when not reported.
func quantityValue(c *policy.Cluster, allocatable bool, res string) int64 {
	if c.Resources == nil {
		return 0
	}
	m := c.Resources.Available
	if allocatable {
		m = c.Resources.Allocatable
	}
	q := m[res]
	return q.Value()
}
