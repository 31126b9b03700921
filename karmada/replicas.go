// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

import (
	"cmp"
	"container/heap"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/apply-overrides/apply-overrides/policy"
)

// This file reproduces how Karmada v1.16.0's scheduler divides a fresh
// binding's replicas among the clusters it selected
// (pkg/scheduler/core/common.go AssignReplicas, assignment.go,
// division_algorithm.go, and the Webster dispenser of pkg/util/helper).
// "Fresh" means the binding has no previous result, which is always so for
// an offline render: Karmada's steady-state scale-up from an empty result
// is then the whole story.

// The replica scheduling strategies, as Karmada names them.
const (
	strategyDuplicated    = "Duplicated"
	strategyStaticWeight  = "StaticWeight"
	strategyDynamicWeight = "DynamicWeight"
	strategyAggregated    = "Aggregated"
)

// strategy is the replica scheduling a binding asks for.
type strategy struct {
	// kind is one of the strategy* names, resolved from the policy's
	// replicaScheduling by the caller.
	kind string
	// staticWeight returns, for StaticWeight, the weight of a selected
	// cluster: the largest weight among the staticWeightList entries whose
	// targetCluster matches it, 0 when none does. It is nil when the policy
	// has no weightPreference, and every cluster then weighs 1.
	staticWeight func(c *policy.Cluster) int64
}

// assignment is one cluster's share of the replicas.
type assignment struct {
	name     string
	replicas int32
}

// weighted is one party of a Webster division.
type weighted struct {
	name   string
	weight int64
}

// errNoClusters is Karmada's error when selection left no cluster.
var errNoClusters = errors.New("no clusters available to schedule: the placement left no cluster to put the resource on; " +
	"check spec.placement (clusterAffinity, clusterTolerations, spreadConstraints) against the inventory's clusters")

// assignReplicas divides a fresh binding's replicas among the selected
// clusters, given in the scheduler's canonical order (score, available
// replicas, name). replicas is the binding's replica count, req its
// per-replica requirements (nil for none) and uid the resource template's
// metadata.uid ("" when the input has none), which breaks Webster ties.
//
// A binding without positive replicas and without requirements is not a
// workload: every selected cluster receives it, with 0 replicas, in the
// given order. A workload's clusters are those its strategy gives at least
// one replica; the others receive nothing.
func assignReplicas(selected []*policy.Cluster, replicas int32, req *requirements, uid string, s strategy) ([]assignment, error) {
	if len(selected) == 0 {
		return nil, errNoClusters
	}
	if replicas <= 0 && req == nil {
		out := make([]assignment, len(selected))
		for i, c := range selected {
			out[i] = assignment{name: c.Name}
		}
		return out, nil
	}
	var out []assignment
	switch s.kind {
	case strategyDuplicated:
		out = make([]assignment, len(selected))
		for i, c := range selected {
			out[i] = assignment{name: c.Name, replicas: replicas}
		}
	case strategyStaticWeight:
		out = webster(replicas, staticWeights(selected, s.staticWeight), uid)
	case strategyDynamicWeight, strategyAggregated:
		var err error
		if out, err = divideByAvailable(selected, replicas, req, uid, s.kind); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("unsupported replica scheduling strategy %q: Karmada divides replicas only as Duplicated, StaticWeight, DynamicWeight or Aggregated; "+
			"with spec.placement.replicaScheduling.replicaSchedulingType Divided, set replicaDivisionPreference to Weighted or Aggregated", s.kind)
	}
	return slices.DeleteFunc(out, func(a assignment) bool { return a.replicas <= 0 }), nil
}

// staticWeights lists the parties of a static-weight division the way
// getStaticWeightInfoList does: the clusters with a positive weight, or,
// when their weights add up to 0 (no entry matched any of them), every
// selected cluster with weight 1 after them.
func staticWeights(selected []*policy.Cluster, weight func(*policy.Cluster) int64) []weighted {
	var list []weighted
	for _, c := range selected {
		w := int64(1)
		if weight != nil {
			w = weight(c)
		}
		if w > 0 {
			list = append(list, weighted{name: c.Name, weight: w})
		}
	}
	if weightSum(list) == 0 {
		for _, c := range selected {
			list = append(list, weighted{name: c.Name, weight: 1})
		}
	}
	return list
}

// divideByAvailable is the dynamic division of a fresh binding: each
// cluster weighs what it has room for (availableForOrdering), Aggregated
// keeps only the fewest clusters, largest first, that hold every replica,
// and Webster divides the replicas by those weights. It fails when the
// clusters together have room for fewer replicas than the binding wants.
func divideByAvailable(selected []*policy.Cluster, replicas int32, req *requirements, uid, kind string) ([]assignment, error) {
	// Karmada scales a fresh binding up from nothing; with no replica to
	// add it returns the (empty) previous result and checks nothing.
	if replicas <= 0 {
		return nil, nil
	}
	room := make(byRoom, len(selected))
	var sum int32
	for i, c := range selected {
		room[i] = assignment{name: c.Name, replicas: int32(availableForOrdering(c, replicas, req))}
		sum += room[i].replicas
	}
	// sort.Sort, as Karmada's, is not stable: only the same algorithm on
	// the same input order puts clusters with equal room where Karmada
	// does, which decides the clusters Aggregated keeps.
	sort.Sort(room)
	if sum < replicas {
		return nil, notEnoughRoom(room, replicas, kind)
	}
	if kind == strategyAggregated {
		var held int32
		for i := range room {
			if held += room[i].replicas; held >= replicas {
				room = room[:i+1]
				break
			}
		}
	}
	parties := make([]weighted, len(room))
	for i, r := range room {
		parties[i] = weighted{name: r.name, weight: int64(r.replicas)}
	}
	return webster(replicas, parties, uid), nil
}

// notEnoughRoom explains a failed dynamic division.
func notEnoughRoom(room byRoom, replicas int32, kind string) error {
	var wide int64
	var each []string
	for i, r := range room {
		wide += int64(r.replicas)
		if i < 10 {
			each = append(each, fmt.Sprintf("%s %d", r.name, r.replicas))
		}
	}
	if len(room) > 10 {
		each = append(each, fmt.Sprintf("and %d more", len(room)-10))
	}
	overflow := ""
	if wide >= int64(replicas) {
		overflow = " (Karmada adds the clusters' room up in 32 bits, and this sum overflows)"
	}
	field := "replicaDivisionPreference Aggregated"
	if kind == strategyDynamicWeight {
		field = "weightPreference.dynamicWeight"
	}
	return fmt.Errorf("the clusters have room for %d replicas (%s) but the workload has %d%s, so spec.placement.replicaScheduling %s places it nowhere; "+
		"Karmada measures a cluster's room from its status.resourceSummary (allocatable less allocated and allocating, pods included), "+
		"and a cluster without one, as in an inventory written by hand, has room for none: "+
		"give the inventory's clusters a status.resourceSummary, lower the replicas or divide them by static weights",
		wide, strings.Join(each, ", "), replicas, overflow, field)
}

// byRoom orders clusters by room, largest first, exactly as Karmada's
// TargetClustersList does.
type byRoom []assignment

func (r byRoom) Len() int           { return len(r) }
func (r byRoom) Swap(i, j int)      { r[i], r[j] = r[j], r[i] }
func (r byRoom) Less(i, j int) bool { return r[i].replicas > r[j].replicas }

// webster divides seats among parties by the Webster (Sainte-Laguë)
// method, one seat at a time, as Karmada v1.16.0's dispenser does: the
// next seat goes to the party with the highest weight/(2*seats+1), and on
// equal priorities to the one with fewer seats, then to the smaller name,
// or to the larger name when uid is set and its FNV-1a-32 hash is odd.
// The result lists every party, zero seats included, by name; a party
// named twice counts once, with its last weight. When the weights add up
// to 0 the dispenser gives nothing out, and the result is nil.
func webster(seats int32, parties []weighted, uid string) []assignment {
	if weightSum(parties) == 0 {
		return nil
	}
	q := &websterQueue{descending: oddHash(uid)}
	index := make(map[string]int, len(parties))
	for _, p := range parties {
		if i, ok := index[p.name]; ok {
			q.parties[i].votes = p.weight
			continue
		}
		index[p.name] = len(q.parties)
		q.parties = append(q.parties, party{name: p.name, votes: p.weight})
	}
	left := seats
	if seats > 0 && seats < 1<<30 {
		left -= q.presize(seats)
	}
	heap.Init(q)
	for ; left > 0; left-- {
		q.parties[0].seats++
		heap.Fix(q, 0)
	}
	slices.SortFunc(q.parties, func(a, b party) int { return cmp.Compare(a.name, b.name) })
	out := make([]assignment, len(q.parties))
	for i, p := range q.parties {
		out[i] = assignment{name: p.name, replicas: p.seats}
	}
	return out
}

// weightSum adds the weights up in int64, wrapping as Karmada's
// GetWeightSum does.
func weightSum(parties []weighted) int64 {
	var sum int64
	for _, p := range parties {
		sum += p.weight
	}
	return sum
}

// oddHash reports whether uid is set and its FNV-1a-32 hash is odd, which
// makes Karmada break Webster ties by descending name.
func oddHash(uid string) bool {
	if uid == "" {
		return false
	}
	h := fnv.New32a()
	h.Write([]byte(uid))
	return h.Sum32()&1 == 1
}

// party is one party while seats are handed out.
type party struct {
	name  string
	votes int64
	seats int32
}

// websterQueue is a max-heap of parties: the root gets the next seat.
type websterQueue struct {
	parties    []party
	descending bool
}

func (q *websterQueue) Len() int      { return len(q.parties) }
func (q *websterQueue) Swap(i, j int) { q.parties[i], q.parties[j] = q.parties[j], q.parties[i] }
func (q *websterQueue) Push(x any)    { q.parties = append(q.parties, x.(party)) }
func (q *websterQueue) Pop() any {
	p := q.parties[len(q.parties)-1]
	q.parties = q.parties[:len(q.parties)-1]
	return p
}

// Less says whether party i gets a seat before party j. Names are unique,
// so this is a strict total order and the root is the one party Karmada's
// heap would pick too.
func (q *websterQueue) Less(i, j int) bool {
	a, b := q.parties[i], q.parties[j]
	if pa, pb := priority(a), priority(b); pa != pb {
		return pa > pb
	}
	if a.seats != b.seats {
		return a.seats < b.seats
	}
	if q.descending {
		return a.name > b.name
	}
	return a.name < b.name
}

// priority is a party's claim to the next seat, computed as Karmada does:
// in float64, with the divisor 2*seats+1 in int32 (it would wrap only past
// 2^30 seats).
func priority(p party) float64 {
	return float64(p.votes) / float64(2*p.seats+1)
}

// presize hands out at once the seats each party with positive votes is
// sure to end up with, and returns how many; the rest is then handed out
// seat by seat. The result is the same as handing every seat out singly,
// only faster when seats are many (a Deployment may ask for millions).
//
// Why it is the same: with positive votes a party's successive priorities
// only fall, and ties prefer fewer seats, so handing out N seats singly
// yields the N best (priority, seats, name) claims of all parties, and it
// yields them whichever of them were taken first. A party that ends with s
// seats was refused its claim v/(2s+1), so with t the lowest accepted
// priority, 2s+1 >= v/t; adding the parties' s <= (v/t+1)/2 up gives
// 1/t >= (2N-n)/V for n parties of total votes V, hence s >= N*v/V - n/2
// - 1/2. Each party is given floor(N*v/V) - n/2 - 2 seats, below that
// bound by more than the float64 rounding of N*v/V can move it. Parties
// with votes of 0 or less never win a seat while a positive party exists,
// since their priority is never positive. The caller only presizes below
// 2^30 seats, where the int32 divisor cannot wrap and priorities keep
// falling.
func (q *websterQueue) presize(seats int32) int32 {
	var total float64
	n := 0
	for _, p := range q.parties {
		if p.votes > 0 {
			total += float64(p.votes)
			n++
		}
	}
	if n == 0 {
		return 0
	}
	margin := float64(n)/2 + 2
	var given int64
	for i := range q.parties {
		p := &q.parties[i]
		if p.votes <= 0 {
			continue
		}
		if share := math.Floor(float64(seats)*(float64(p.votes)/total)) - margin; share > 0 {
			p.seats = int32(share)
			given += int64(p.seats)
		}
	}
	if given > int64(seats) {
		// Cannot happen (the shares add up to at most seats); were it to,
		// handing every seat out singly is still right.
		for i := range q.parties {
			q.parties[i].seats = 0
		}
		return 0
	}
	return int32(given)
}
