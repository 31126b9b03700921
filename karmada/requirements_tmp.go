// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

// This file stands in for declarations a colleague owns in replicas.go (the
// scheduler), so that this branch compiles and its tests run on their own.
// It is deleted when the branches merge; nothing else may be added here.

import (
	"hash/fnv"
	"sort"

	"k8s.io/apimachinery/pkg/api/resource"
)

// requirements is what one replica asks of a cluster.
type requirements struct{ Requests map[string]resource.Quantity }

// weighted is one party of a Webster division: a cluster and its votes.
type weighted struct {
	name   string
	weight int64
}

// assignment is one cluster's share of a division.
type assignment struct {
	name     string
	replicas int32
}

// webster hands out seats one at a time to the party with the largest
// weight/(2·seats+1), as Karmada v1.16.0's AllocateWebsterSeats does. Equal
// quotients go to the party with fewer seats, then to the smaller name, or
// to the larger one when uid hashes (FNV-1a, 32 bits) to an odd number. A
// party named twice keeps its last weight, as upstream's name-keyed map does.
// Every party comes back, seatless ones included, sorted by name.
func webster(seats int32, parties []weighted, uid string) []assignment {
	votes := map[string]int64{}
	for _, p := range parties {
		votes[p.name] = p.weight
	}
	out := make([]assignment, 0, len(votes))
	for name := range votes {
		out = append(out, assignment{name: name})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	if len(out) == 0 {
		return nil
	}
	descending := false
	if uid != "" {
		h := fnv.New32a()
		_, _ = h.Write([]byte(uid)) // a hash.Hash never fails to write
		descending = h.Sum32()&1 == 1
	}
	// before says whether party a takes the next seat ahead of party b.
	before := func(a, b assignment) bool {
		qa := float64(votes[a.name]) / float64(2*a.replicas+1)
		qb := float64(votes[b.name]) / float64(2*b.replicas+1)
		switch {
		case qa != qb:
			return qa > qb
		case a.replicas != b.replicas:
			return a.replicas < b.replicas
		case descending:
			return a.name > b.name
		}
		return a.name < b.name
	}
	// Names are unique, so before is a strict total order and a linear scan
	// picks the same party as upstream's heap.
	for ; seats > 0; seats-- {
		best := 0
		for i := 1; i < len(out); i++ {
			if before(out[i], out[best]) {
				best = i
			}
		}
		out[best].replicas++
	}
	return out
}
