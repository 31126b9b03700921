// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/apply-overrides/apply-overrides/policy"
)

// The uids of upstream's tie-break tests (pkg/util/helper/binding_test.go,
// karmada v1.16.0) and of the spec's verified vectors.
const (
	evenUID     = "4858ca61-3ff8-4095-8267-f3d059d8074c"
	oddUID      = "d43fdeeb-d750-4e2b-bee3-64eb94534f4c"
	specOddUID  = "11111111-2222-3333-4444-555555555555"
	specEvenUID = "6f2f1f6e-0000-4000-8000-000000000001"
)

func TestOddHash(t *testing.T) {
	assert.False(t, oddHash(""))
	assert.False(t, oddHash(evenUID))
	assert.True(t, oddHash(oddUID))
	assert.True(t, oddHash(specOddUID))
	assert.False(t, oddHash(specEvenUID))
}

// parties builds Webster parties from "name:weight" pairs.
func parties(pairs ...any) []weighted {
	var out []weighted
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, weighted{name: pairs[i].(string), weight: int64(pairs[i+1].(int))})
	}
	return out
}

// shares renders a result as "name=replicas" strings, in its order.
func shares(as []assignment) []string {
	out := []string{}
	for _, a := range as {
		out = append(out, fmt.Sprintf("%s=%d", a.name, a.replicas))
	}
	return out
}

// Cases of TestAllocateWebsterSeats ("classic example, round 1..8" and
// the fresh cases) and ExampleAllocateWebsterSeats,
// pkg/util/helper/webstermethod_test.go, karmada v1.16.0. The dispenser
// always passes a tie-breaker; with an empty uid it is the default order.
func TestWebsterUpstreamSeats(t *testing.T) {
	classic := parties("PartyA", 100000, "PartyB", 80000, "PartyC", 30000, "PartyD", 20000)
	rounds := [][4]int32{{1, 0, 0, 0}, {1, 1, 0, 0}, {2, 1, 0, 0}, {2, 1, 1, 0}, {2, 2, 1, 0}, {2, 2, 1, 1}, {3, 2, 1, 1}, {3, 3, 1, 1}}
	for i, r := range rounds {
		t.Run(fmt.Sprintf("classic example, round %d", i+1), func(t *testing.T) {
			want := []assignment{{"PartyA", r[0]}, {"PartyB", r[1]}, {"PartyC", r[2]}, {"PartyD", r[3]}}
			assert.Equal(t, want, webster(int32(i+1), classic, ""))
		})
	}
	for _, tc := range []struct {
		name    string
		seats   int32
		parties []weighted
		want    []assignment
	}{
		{"example", 4, parties("Alpha", 1200, "Beta", 900, "Gamma", 400), []assignment{{"Alpha", 2}, {"Beta", 1}, {"Gamma", 1}}},
		{"empty party votes, expect nil result", 1, nil, nil},
		{"party votes not empty, newSeats is 0, expect all seats 0", 0, parties("PartyA", 100, "PartyB", 200), []assignment{{"PartyA", 0}, {"PartyB", 0}}},
		{"both party votes and newSeats are 0, expect nil result", 0, nil, nil},
		{"tie-breaker is nil, expect break tie by name", 1, parties("PartyA", 1, "PartyB", 1), []assignment{{"PartyA", 1}, {"PartyB", 0}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, webster(tc.seats, tc.parties, ""))
		})
	}
}

// Fresh cases (no initial assignment) of Test_dispenser_AllocateByWeight
// and every case of TestDispenseReplicasByTargetClusters,
// pkg/util/helper/binding_test.go, karmada v1.16.0.
func TestWebsterUpstreamDispenser(t *testing.T) {
	for _, tc := range []struct {
		name    string
		seats   int32
		parties []weighted
		uid     string
		want    []string
	}{
		{"HA scenario with weight 2:1: assign 1 replica", 1, parties("A", 2, "B", 1), "", []string{"A=1", "B=0"}},
		{"HA scenario with weight 2:1: assign 2 replicas", 2, parties("A", 2, "B", 1), "", []string{"A=1", "B=1"}},
		{"HA scenario with weight 2:1: assign 3 replicas", 3, parties("A", 2, "B", 1), "", []string{"A=2", "B=1"}},
		{"brand new assign 5 replicas", 5, parties("A", 170, "B", 110, "C", 60), "", []string{"A=2", "B=2", "C=1"}},
		{"brand new assign 6 replicas", 6, parties("A", 170, "B", 110, "C", 60), "", []string{"A=3", "B=2", "C=1"}},
		{"brand new assign 5 replicas with odd uuid", 5, parties("A", 1, "B", 1), oddUID, []string{"A=2", "B=3"}},
		{"brand new assign 5 replicas with even uuid", 5, parties("A", 1, "B", 1), evenUID, []string{"A=3", "B=2"}},
		{"empty clusters", 10, nil, "", []string{}},
		{"1 cluster, 5 replicas, 10 sum", 10, parties("member1", 5), "", []string{"member1=10"}},
		{"3 cluster, 1:1:1, 12 sum", 12, parties("member1", 5, "member2", 5, "member3", 5), "", []string{"member1=4", "member2=4", "member3=4"}},
		// Upstream accepts any of three answers; an empty uid picks this one.
		{"3 cluster, 1:1:1, 10 sum", 10, parties("member1", 5, "member2", 5, "member3", 5), "", []string{"member1=4", "member2=3", "member3=3"}},
		{"3 cluster, 1:2:3, 13 sum", 13, parties("member1", 1, "member2", 2, "member3", 3), "", []string{"member1=2", "member2=4", "member3=7"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, shares(webster(tc.seats, tc.parties, tc.uid)))
		})
	}
}

// Webster vectors checked by hand against Karmada v1.16.0's dispenser (docs/placement.md).
func TestWebsterSpecVectors(t *testing.T) {
	for _, tc := range []struct {
		seats   int32
		parties []weighted
		uid     string
		want    []string
	}{
		{12, parties("a", 3, "b", 2, "c", 1), "", []string{"a=6", "b=4", "c=2"}},
		{13, parties("a", 3, "b", 2, "c", 1), "", []string{"a=7", "b=4", "c=2"}},
		{14, parties("a", 3, "b", 2, "c", 1), "", []string{"a=7", "b=5", "c=2"}},
		{14, parties("a", 3, "b", 2, "c", 1), specEvenUID, []string{"a=7", "b=5", "c=2"}},
		{9, parties("a", 1, "b", 3), "", []string{"a=2", "b=7"}},
		{3, parties("a", 1, "b", 1), "", []string{"a=2", "b=1"}},
		{3, parties("a", 1, "b", 1), specOddUID, []string{"a=1", "b=2"}},
		{5, parties("a", 1, "b", 1, "c", 1), "", []string{"a=2", "b=2", "c=1"}},
		{5, parties("a", 1, "b", 1, "c", 1), specOddUID, []string{"a=1", "b=2", "c=2"}},
		{1, parties("a", 1, "b", 1, "c", 1), "", []string{"a=1", "b=0", "c=0"}},
		{1, parties("a", 1, "b", 1, "c", 1), specOddUID, []string{"a=0", "b=0", "c=1"}},
		{10, parties("a", 1, "b", 100), "", []string{"a=0", "b=10"}},
		{7, parties("m1", 2, "m2", 1), "", []string{"m1=5", "m2=2"}},
		{10, parties("a", 1, "b", 1, "c", 1), specOddUID, []string{"a=3", "b=3", "c=4"}},
	} {
		t.Run(fmt.Sprintf("%d over %v uid %q", tc.seats, tc.parties, tc.uid), func(t *testing.T) {
			assert.Equal(t, tc.want, shares(webster(tc.seats, tc.parties, tc.uid)))
		})
	}
}

// The dispenser's edges: weights adding up to 0 give nothing out, a name
// given twice counts once with its last weight, and parties with no
// positive weight get no seat while another has one.
func TestWebsterEdges(t *testing.T) {
	assert.Nil(t, webster(5, parties("a", 0, "b", 0), ""))
	assert.Nil(t, webster(5, parties("a", 3, "b", -3), ""))
	assert.Equal(t, []string{"a=1", "b=3"}, shares(webster(4, parties("a", 9, "b", 3, "a", 1), "")))
	assert.Equal(t, []string{"a=0", "b=0", "c=6"}, shares(webster(6, parties("a", 0, "b", -1, "c", 2), "")))
	assert.Equal(t, []string{"a=0", "b=0"}, shares(webster(-4, parties("a", 1, "b", 1), "")))
	// Only negative weights: seats still go out, by the priorities, which
	// rise towards 0 with every seat, so the first party takes them all.
	assert.Equal(t, []string{"a=3", "b=0"}, shares(webster(3, parties("a", -1, "b", -2), "")))
}

// websterBySeat hands seats out one at a time with a linear scan, the
// plain reading of Karmada's dispenser, to check webster's presizing.
func websterBySeat(seats int32, in []weighted, uid string) []assignment {
	if weightSum(in) == 0 {
		return nil
	}
	votes := map[string]int64{}
	for _, p := range in {
		votes[p.name] = p.weight
	}
	got := map[string]int32{}
	desc := oddHash(uid)
	for ; seats > 0; seats-- {
		best := ""
		for name := range votes {
			if best == "" {
				best = name
				continue
			}
			pn := float64(votes[name]) / float64(2*got[name]+1)
			pb := float64(votes[best]) / float64(2*got[best]+1)
			switch {
			case pn != pb:
				if pn > pb {
					best = name
				}
			case got[name] != got[best]:
				if got[name] < got[best] {
					best = name
				}
			case desc == (name > best):
				best = name
			}
		}
		got[best]++
	}
	var out []assignment
	for name := range votes {
		out = append(out, assignment{name, got[name]})
	}
	slices.SortFunc(out, func(a, b assignment) int { return strings.Compare(a.name, b.name) })
	return out
}

// Presizing hands out exactly what seat-by-seat dispensing does, over
// random weights, seat counts and uids.
func TestWebsterPresizeMatchesSeatBySeat(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 16))
	uids := []string{"", evenUID, oddUID}
	for i := range 3000 {
		n := 1 + rng.IntN(9)
		var in []weighted
		for j := range n {
			w := rng.Int64N(50)
			switch rng.IntN(10) {
			case 0:
				w = 0
			case 1:
				w = rng.Int64N(1 << 40)
			case 2:
				w = 7 // equal weights make ties
			}
			in = append(in, weighted{name: fmt.Sprintf("c%d", j), weight: w})
		}
		seats := int32(rng.IntN(3000))
		uid := uids[i%len(uids)]
		require.Equal(t, websterBySeat(seats, in, uid), webster(seats, in, uid), "seats %d parties %v uid %q", seats, in, uid)
	}
	// Many seats over many clusters, as a large Deployment would ask.
	var in []weighted
	for j := range 40 {
		in = append(in, weighted{name: fmt.Sprintf("member%02d", j), weight: int64(1 + j%7)})
	}
	require.Equal(t, websterBySeat(200000, in, oddUID), webster(200000, in, oddUID))
	got := webster(math.MaxInt32/2, parties("a", 1, "b", 2), "")
	assert.Equal(t, []string{"a=357913941", "b=715827882"}, shares(got))
}

// clusterList is clusters without a resource summary, by name.
func clusterList(names ...string) []*policy.Cluster {
	out := make([]*policy.Cluster, len(names))
	for i, n := range names {
		out[i] = &policy.Cluster{Name: n}
	}
	return out
}

// weights is a staticWeight function from a name → weight table.
func weights(table map[string]int64) func(*policy.Cluster) int64 {
	return func(c *policy.Cluster) int64 { return table[c.Name] }
}

// Cases of Test_assignByStaticWeightStrategy,
// pkg/scheduler/core/assignment_test.go, karmada v1.16.0, through
// assignReplicas (which then drops clusters with 0 replicas).
func TestAssignStaticWeightUpstream(t *testing.T) {
	three := clusterList("member1", "member2", "member3")
	two := clusterList("member1", "member2")
	w321 := weights(map[string]int64{"member1": 3, "member2": 2, "member3": 1})
	req := &requirements{}
	for _, tc := range []struct {
		name     string
		clusters []*policy.Cluster
		weight   func(*policy.Cluster) int64
		replicas int32
		want     []string
	}{
		{"replica 12, weight 3:2:1", three, w321, 12, []string{"member1=6", "member2=4", "member3=2"}},
		{"replica 12, default weight", three, nil, 12, []string{"member1=4", "member2=4", "member3=4"}},
		{"replica 13, weight 3:2:1", three, w321, 13, []string{"member1=7", "member2=4", "member3=2"}},
		{"replica 14, weight 3:2:1", three, w321, 14, []string{"member1=7", "member2=5", "member3=2"}},
		// Upstream's strategy gives both 0; assignReplicas then drops them.
		{"insufficient replica assignment should get 0 replica", two, weights(map[string]int64{"member1": 1, "member2": 1}), 0, []string{}},
		{"selected cluster without weight should be ignored", two, weights(map[string]int64{"member1": 1}), 2, []string{"member1=2"}},
		// The caller takes the largest matching weight: 2 for member1.
		{"cluster with multiple weights", two, weights(map[string]int64{"member1": 2, "member2": 1}), 3, []string{"member1=2", "member2=1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := assignReplicas(tc.clusters, tc.replicas, req, "", strategy{kind: strategyStaticWeight, staticWeight: tc.weight})
			require.NoError(t, err)
			assert.Equal(t, tc.want, shares(got))
		})
	}
}

// Static weights beyond upstream's cases: no matching entry at all means
// equal weights, and the result is by name whatever the given order.
func TestAssignStaticWeight(t *testing.T) {
	got, err := assignReplicas(clusterList("c", "b", "a"), 5, nil, "", strategy{kind: strategyStaticWeight, staticWeight: weights(nil)})
	require.NoError(t, err)
	assert.Equal(t, []string{"a=2", "b=2", "c=1"}, shares(got))
	got, err = assignReplicas(clusterList("c", "b", "a"), 5, nil, specOddUID, strategy{kind: strategyStaticWeight})
	require.NoError(t, err)
	assert.Equal(t, []string{"a=1", "b=2", "c=2"}, shares(got))
	// A binding with requirements but no replicas goes nowhere.
	got, err = assignReplicas(clusterList("a", "b"), 0, &requirements{}, "", strategy{kind: strategyStaticWeight})
	require.NoError(t, err)
	assert.Empty(t, got)
}

// Cases of Test_assignByDuplicatedStrategy,
// pkg/scheduler/core/assignment_test.go, karmada v1.16.0, through
// assignReplicas: "replicas is null" is a non-workload there, which every
// cluster receives with 0 replicas, and "the target cluster is null" is
// the empty selection, an error.
func TestAssignDuplicatedUpstream(t *testing.T) {
	dup := strategy{kind: strategyDuplicated}
	got, err := assignReplicas(clusterList("member1", "member2"), 2, nil, "", dup)
	require.NoError(t, err)
	assert.Equal(t, []string{"member1=2", "member2=2"}, shares(got))
	got, err = assignReplicas(clusterList("member1", "member2"), 0, nil, "", dup)
	require.NoError(t, err)
	assert.Equal(t, []string{"member1=0", "member2=0"}, shares(got))
	_, err = assignReplicas(nil, 2, nil, "", dup)
	assert.ErrorIs(t, err, errNoClusters)
	// Duplicated keeps the given order.
	got, err = assignReplicas(clusterList("b", "a"), 3, &requirements{}, "", dup)
	require.NoError(t, err)
	assert.Equal(t, []string{"b=3", "a=3"}, shares(got))
}

// withRoom is clusters whose resource summary offers the given pods, so
// that a workload with requirements but no requests has that much room.
func withRoom(pairs ...any) []*policy.Cluster {
	var out []*policy.Cluster
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, summary(pairs[i].(string), map[string]string{"pods": fmt.Sprint(pairs[i+1])}, nil, nil))
	}
	return out
}

// Cases of Test_dynamicDivideReplicas,
// pkg/scheduler/core/division_algorithm_test.go, and the fresh cases of
// Test_dynamicScaleUp, pkg/scheduler/core/assignment_test.go, karmada
// v1.16.0 (their ReplicaRequirements hold an empty ResourceRequest, and
// the room is the clusters' pods). The clusters come in the order the
// scheduler gives them, most room first.
func TestAssignDynamicUpstream(t *testing.T) {
	dynamic := strategy{kind: strategyDynamicWeight}
	aggregated := strategy{kind: strategyAggregated}
	for _, tc := range []struct {
		name     string
		clusters []*policy.Cluster
		s        strategy
		want     []string // nil: an error
	}{
		{"replica 12, dynamic weight 18:12:6", withRoom("member1", 18, "member2", 12, "member3", 6), dynamic, []string{"member1=6", "member2=4", "member3=2"}},
		{"replica 12, dynamic weight 20:12:6", withRoom("member1", 20, "member2", 12, "member3", 6), dynamic, []string{"member1=6", "member2=4", "member3=2"}},
		{"replica 12, dynamic weight 6:12:6", withRoom("member2", 12, "member1", 6, "member3", 6), dynamic, []string{"member1=3", "member2=6", "member3=3"}},
		{"replica 12, aggregated 12:6:6", withRoom("member2", 12, "member1", 6, "member3", 6), aggregated, []string{"member2=12"}},
		{"replica 12, aggregated 6:6:6", withRoom("member1", 6, "member2", 6, "member3", 6), aggregated, []string{"member1=6", "member2=6"}},
		{"replica 12, dynamic weight 6:8:10", withRoom("member3", 10, "member2", 8, "member1", 6), dynamic, []string{"member1=3", "member2=4", "member3=5"}},
		{"replica 12, dynamic weight 8:8:10", withRoom("member3", 10, "member1", 8, "member2", 8), dynamic, []string{"member1=4", "member2=4", "member3=4"}},
		{"replica 12, dynamic weight 3:3:3", withRoom("member1", 3, "member2", 3, "member3", 3), dynamic, nil},
		{"replica 12, aggregated 6:8:10", withRoom("member3", 10, "member2", 8, "member1", 6), aggregated, []string{"member2=5", "member3=7"}},
		{"replica 12, aggregated 12:8:10", withRoom("member1", 12, "member3", 10, "member2", 8), aggregated, []string{"member1=12"}},
		{"replica 12, aggregated 3:3:3", withRoom("member1", 3, "member2", 3, "member3", 3), aggregated, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := assignReplicas(tc.clusters, 12, &requirements{}, "", tc.s)
			if tc.want == nil {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, shares(got))
		})
	}
}

// Vectors checked by hand against Karmada v1.16.0's dynamic division, and the dynamic strategies'
// edges.
func TestAssignDynamic(t *testing.T) {
	req := &requirements{}
	room := withRoom("b", 8, "a", 6, "c", 3)
	got, err := assignReplicas(room, 10, req, "", strategy{kind: strategyDynamicWeight})
	require.NoError(t, err)
	assert.Equal(t, []string{"a=3", "b=5", "c=2"}, shares(got))
	got, err = assignReplicas(room, 10, req, "", strategy{kind: strategyAggregated})
	require.NoError(t, err)
	assert.Equal(t, []string{"a=4", "b=6"}, shares(got))

	// The clusters are sorted by room whatever the given order.
	got, err = assignReplicas(withRoom("c", 3, "a", 6, "b", 8), 10, req, "", strategy{kind: strategyAggregated})
	require.NoError(t, err)
	assert.Equal(t, []string{"a=4", "b=6"}, shares(got))
	// Equal room keeps the given order among a few clusters.
	got, err = assignReplicas(withRoom("b", 5, "a", 5, "c", 5), 5, req, "", strategy{kind: strategyAggregated})
	require.NoError(t, err)
	assert.Equal(t, []string{"b=5"}, shares(got))

	// A cluster with no room takes part with weight 0 and gets nothing.
	got, err = assignReplicas(withRoom("a", 4, "b", 0), 3, req, "", strategy{kind: strategyDynamicWeight})
	require.NoError(t, err)
	assert.Equal(t, []string{"a=3"}, shares(got))

	// No replicas: nothing to scale, nowhere to go, no error.
	for _, n := range []int32{0, -3} {
		got, err = assignReplicas(room, n, req, "", strategy{kind: strategyAggregated})
		require.NoError(t, err)
		assert.Empty(t, got)
	}

	// Without resource summaries there is no room: the error says where
	// room comes from and lists each cluster's.
	_, err = assignReplicas(clusterList("member1", "member2"), 2, nil, "", strategy{kind: strategyDynamicWeight})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "room for 0 replicas (member1 0, member2 0) but the workload has 2")
	assert.Contains(t, err.Error(), "weightPreference.dynamicWeight")
	assert.Contains(t, err.Error(), "status.resourceSummary")
	var many []any
	for i := range 12 {
		many = append(many, fmt.Sprintf("m%02d", i), 1)
	}
	_, err = assignReplicas(withRoom(many...), 13, nil, "", strategy{kind: strategyAggregated})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "m09 1, and 2 more) but the workload has 13")
	assert.Contains(t, err.Error(), "replicaDivisionPreference Aggregated")

	// Karmada adds the room up in int32: two clusters of 2^31-2 each wrap
	// to a negative sum, which is short of the replicas.
	_, err = assignReplicas(withRoom("a", 2147483646, "b", 2147483646), 5, nil, "", strategy{kind: strategyDynamicWeight})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "overflows")
}

// assignReplicas' own rules: the empty selection, non-workloads, an
// unknown strategy.
func TestAssignReplicas(t *testing.T) {
	_, err := assignReplicas([]*policy.Cluster{}, 0, nil, "", strategy{kind: strategyDuplicated})
	assert.ErrorContains(t, err, "no clusters available to schedule")

	// A non-workload goes everywhere, in the given order, whatever the
	// strategy, and so does a negative replica count without requirements.
	for _, n := range []int32{0, -1} {
		got, err := assignReplicas(clusterList("b", "a"), n, nil, "", strategy{kind: strategyAggregated})
		require.NoError(t, err)
		assert.Equal(t, []string{"b=0", "a=0"}, shares(got))
	}

	_, err = assignReplicas(clusterList("a"), 1, nil, "", strategy{kind: ""})
	assert.ErrorContains(t, err, `unsupported replica scheduling strategy ""`)
	assert.ErrorContains(t, err, "replicaDivisionPreference")
}
