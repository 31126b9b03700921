// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubefleet

import (
	"fmt"
	"sort"

	"github.com/apply-overrides/apply-overrides/policy"
)

// The topology spread plugin's constants
// (pkg/scheduler/framework/plugins/topologyspreadconstraints @78e6ca7).
const (
	skewChangeScoreFactor   = -1
	maxSkewViolationPenalty = 1000
)

// spread is PickN with topology spread constraints. The plugin's PostBatch
// limits every scheduling cycle to one cluster, so the scheduler picks one
// cluster per cycle and requeues; each cycle counts the clusters picked so
// far per domain, filters the clusters a DoNotSchedule constraint would
// break, scores the rest (topology spread score first, then the affinity
// score, ties to the name that sorts last) and picks the best one not yet
// picked, until numberOfClusters are picked or none is left. passed are
// the clusters the other filters keep; out gets why the others are not
// picked.
func spread(constraints []spreadConstraint, fleet, passed []*policy.Cluster, affinity map[string]int32, n int, out map[string]string) map[string]string {
	picked := map[string]bool{}
	for len(picked) < n {
		violations, scores := evaluateSpread(constraints, fleet, picked)
		var cands []*policy.Cluster
		for _, c := range passed {
			if picked[c.Name] {
				continue
			}
			if why, ok := violations[c.Name]; ok {
				out[c.Name] = why
				continue
			}
			cands = append(cands, c)
		}
		if len(cands) == 0 {
			break
		}
		sort.SliceStable(cands, func(i, j int) bool {
			a, b := cands[i], cands[j]
			if scores[a.Name] != scores[b.Name] {
				return scores[a.Name] > scores[b.Name]
			}
			if affinity[a.Name] != affinity[b.Name] {
				return affinity[a.Name] > affinity[b.Name]
			}
			return a.Name > b.Name
		})
		picked[cands[0].Name] = true
		out[cands[0].Name] = ""
	}
	for _, c := range passed {
		if !picked[c.Name] && out[c.Name] == "" {
			out[c.Name] = fmt.Sprintf("not picked: the topology spread constraints and scores prefer other clusters for the %d of spec.policy.numberOfClusters", n)
		}
	}
	return out
}

// domainCount is bindingCounterByDomain: per domain (the topology key's
// value), how many picked clusters it holds, and the smallest, second
// smallest and largest counts as countByDomain derives them.
type domainCount struct {
	count                             map[string]int
	smallest, secondSmallest, largest int
}

func countByDomain(fleet []*policy.Cluster, picked map[string]bool, key string) domainCount {
	d := domainCount{count: map[string]int{}, smallest: -1, secondSmallest: -1, largest: -1}
	for _, c := range fleet {
		v, ok := c.Labels[key]
		if !ok {
			continue
		}
		d.count[v] += 0
		if picked[c.Name] {
			d.count[v]++
		}
	}
	sorted := make([]int, 0, len(d.count))
	for _, c := range d.count {
		sorted = append(sorted, c)
	}
	sort.Ints(sorted)
	switch {
	case len(sorted) == 0:
	case len(sorted) == 1 || len(sorted) == 2 && sorted[0] == sorted[1]:
		d.smallest, d.secondSmallest, d.largest = sorted[0], sorted[0], sorted[0]
	default:
		d.smallest, d.secondSmallest, d.largest = sorted[0], sorted[1], sorted[len(sorted)-1]
	}
	return d
}

// willViolate is the plugin's willViolate: whether one more cluster in
// the domain breaks maxSkew, and how it changes the skew.
func (d domainCount) willViolate(domain string, maxSkew int) (bool, int32) {
	count := d.count[domain]
	skew := d.largest - d.smallest
	switch {
	case d.largest == d.smallest:
		return skew+1 > maxSkew, 1
	case count == d.smallest && d.smallest != d.secondSmallest:
		return skew-1 > maxSkew, -1
	case count == d.largest:
		return skew+1 > maxSkew, 1
	}
	return skew > maxSkew, 0
}

// evaluateSpread is evaluateAllConstraints: DoNotSchedule constraints
// (whenUnsatisfiable unset included) first, then ScheduleAnyway; a
// cluster without the topology key breaks no constraint and scores 0.
func evaluateSpread(constraints []spreadConstraint, fleet []*policy.Cluster, picked map[string]bool) (map[string]string, map[string]int32) {
	violations := map[string]string{}
	scores := map[string]int32{}
	for _, anyway := range []bool{false, true} {
		for _, tc := range constraints {
			if (tc.WhenUnsatisfiable == "ScheduleAnyway") != anyway {
				continue
			}
			d := countByDomain(fleet, picked, tc.TopologyKey)
			maxSkew := 1
			if tc.MaxSkew != nil {
				maxSkew = int(*tc.MaxSkew)
			}
			for _, c := range fleet {
				if _, ok := violations[c.Name]; ok {
					continue
				}
				v, ok := c.Labels[tc.TopologyKey]
				if !ok {
					scores[c.Name] += 0
					continue
				}
				violated, change := d.willViolate(v, maxSkew)
				switch {
				case violated && !anyway:
					violations[c.Name] = fmt.Sprintf("violated doNotSchedule topology spread constraint %q (max skew %d)", tc.TopologyKey, maxSkew)
					delete(scores, c.Name)
				case violated:
					scores[c.Name] -= maxSkewViolationPenalty
				default:
					scores[c.Name] += change * skewChangeScoreFactor
				}
			}
		}
	}
	return violations, scores
}
