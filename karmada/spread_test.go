// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/apply-overrides/apply-overrides/policy"
)

// sc is a cluster of the spread selection with a score and its available
// replicas; the region is only set where a test groups the clusters.
func sc(name string, score, avail int64) spreadCluster {
	return spreadCluster{cluster: &policy.Cluster{Name: name}, score: score, avail: avail}
}

// region is a scored region group.
func region(name string, score int64, clusters ...spreadCluster) topologyGroup {
	return topologyGroup{name: name, score: score, clusters: clusters}
}

func clusterNames(cs []spreadCluster) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.cluster.Name)
	}
	return out
}

func byRegion(rMin, rMax, cMin, cMax int) (spreadConstraint, spreadConstraint) {
	return spreadConstraint{SpreadByField: "region", MinGroups: rMin, MaxGroups: rMax},
		spreadConstraint{SpreadByField: "cluster", MinGroups: cMin, MaxGroups: cMax}
}

// Derived from Test_selectBestClustersByRegion,
// pkg/scheduler/core/spreadconstraint/select_clusters_by_region_test.go,
// karmada v1.16.0: the same regions, scores, available replicas and
// constraints, and the same selected clusters in the same order.
func TestSelectByRegion(t *testing.T) {
	twoRegions := func() []topologyGroup {
		return []topologyGroup{
			region("R1", 100, sc("member1", 100, 40), sc("member2", 80, 40)),
			region("R2", 80, sc("member3", 80, 40), sc("member4", 80, 40), sc("member5", 60, 40)),
		}
	}
	tests := []struct {
		name                   string
		regions                []topologyGroup
		rMin, rMax, cMin, cMax int
		want                   []string
		wantErr                string
	}{
		{
			name:    "select cluster from the region with the higher score",
			regions: twoRegions(),
			rMin:    1, rMax: 1, cMin: 2, cMax: 2,
			want: []string{"member1", "member2"},
		},
		{
			name:    "select cluster from the region with enough clusters",
			regions: twoRegions(),
			rMin:    1, rMax: 1, cMin: 3, cMax: 3,
			want: []string{"member3", "member4", "member5"},
		},
		{
			name: "select cluster from the region with enough clusters and higher score",
			regions: []topologyGroup{
				region("R1", 90, sc("member1", 90, 40)),
				region("R2", 70, sc("member2", 70, 40), sc("member3", 60, 40), sc("member4", 30, 40)),
				region("R3", 80, sc("member5", 80, 40), sc("member6", 50, 60)),
				region("R4", 50, sc("member7", 50, 50), sc("member8", 40, 50), sc("member9", 10, 50), sc("member10", 0, 50)),
			},
			rMin: 2, rMax: 2, cMin: 4, cMax: 5,
			want: []string{"member1", "member2", "member3", "member4"},
		},
		{
			name: "select cluster from more than `minGroups` regions with enough clusters and higher score",
			regions: []topologyGroup{
				region("R1", 70, sc("member1", 70, 40)),
				region("R2", 40, sc("member2", 40, 40), sc("member3", 40, 40), sc("member4", 40, 40)),
				region("R3", 60, sc("member5", 60, 40), sc("member6", 50, 60)),
				region("R4", 70, sc("member7", 70, 100)),
				region("R5", 50, sc("member8", 50, 50)),
			},
			rMin: 1, rMax: 3, cMin: 6, cMax: 8,
			want: []string{"member1", "member5", "member2", "member6", "member3", "member4"},
		},
		{
			name:    "no enough region",
			regions: twoRegions(),
			rMin:    3, rMax: 3, cMin: 3, cMax: 3,
			wantErr: "span 2 region(s), fewer than the region constraint's minGroups 3",
		},
		{
			name:    "no enough clusters",
			regions: twoRegions(),
			rMin:    1, rMax: 1, cMin: 4, cMax: 4,
			wantErr: "no combination of 1 to 1 region(s) holds the cluster constraint's minGroups 4 clusters",
		},
		{
			name:    "no more regions to replace",
			regions: []topologyGroup{region("R1", 100, sc("member1", 100, 40), sc("member2", 80, 20))},
			rMin:    1, rMax: 1, cMin: 3, cMax: 4,
			wantErr: "minGroups 3 clusters",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, c := byRegion(tt.rMin, tt.rMax, tt.cMin, tt.cMax)
			got, err := selectByRegion(tt.regions, r, c)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				assert.Nil(t, got)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, clusterNames(got))
		})
	}
}

// Derived from TestSelectGroups,
// pkg/scheduler/core/spreadconstraint/select_groups_test.go, karmada
// v1.16.0: the same groups and constraints, and the same chosen groups in
// the same order.
func TestSelectGroups(t *testing.T) {
	g := func(name string, value int, weight int64) *pathGroup {
		return &pathGroup{name: name, value: value, weight: weight}
	}
	tests := []struct {
		name             string
		groups           []*pathGroup
		minC, maxC, goal int
		want             []string
	}{
		{name: "empty groups", minC: 2, maxC: 3, goal: 1},
		{name: "no enough groups", groups: []*pathGroup{g("R1", 1, 80)}, minC: 2, maxC: 3, goal: 1},
		{name: "no enough value", groups: []*pathGroup{g("R1", 1, 80), g("R2", 2, 30)}, minC: 2, maxC: 3, goal: 4},
		{name: "select one group", groups: []*pathGroup{g("R1", 1, 80)}, minC: 1, maxC: 3, goal: 1, want: []string{"R1"}},
		{
			name:   "prioritize one path",
			groups: []*pathGroup{g("R1", 1, 80), g("R3", 1, 80), g("R2", 1, 60), g("R5", 2, 60), g("R4", 5, 50), g("R6", 3, 50)},
			minC:   1, maxC: 3, goal: 10,
			want: []string{"R5", "R4", "R6"},
		},
		{
			name:   "select groups with less total number",
			groups: []*pathGroup{g("R1", 1, 80), g("R2", 4, 40), g("R3", 1, 30), g("R4", 3, 30), g("R5", 3, 20), g("R6", 5, 10)},
			minC:   2, maxC: 6, goal: 5,
			want: []string{"R1", "R2"},
		},
		{
			name:   "select groups with the highest score",
			groups: []*pathGroup{g("R1", 1, 60), g("R2", 1, 50), g("R3", 1, 40), g("R4", 3, 30), g("R5", 3, 20), g("R6", 3, 10)},
			minC:   1, maxC: 3, goal: 6,
			want: []string{"R1", "R4", "R5"},
		},
		{
			name:   "select groups that are chosen earlier",
			groups: []*pathGroup{g("R1", 1, 60), g("R2", 2, 50), g("R3", 3, 40), g("R4", 4, 30)},
			minC:   1, maxC: 2, goal: 5,
			want: []string{"R1", "R4"},
		},
		{
			name:   "select groups with greater value",
			groups: []*pathGroup{g("R4", 1, 60), g("R3", 3, 50), g("R1", 3, 40), g("R2", 4, 30)},
			minC:   1, maxC: 2, goal: 5,
			want: []string{"R3", "R1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := selectGroups(tt.groups, tt.minC, tt.maxC, tt.goal)
			require.NoError(t, err)
			var names []string
			for _, g := range got {
				names = append(names, g.name)
			}
			assert.Equal(t, tt.want, names)
		})
	}
}

// Karmada's search takes the only path of all groups when there are
// exactly minGroups of them (the early break in findFeasiblePaths), and a
// strict prefix of the best-ranked path replaces it.
func TestSelectGroupsShortcutAndPrefix(t *testing.T) {
	all := []*pathGroup{{name: "R1", value: 1, weight: 10}, {name: "R2", value: 1, weight: 30}, {name: "R3", value: 1, weight: 20}}
	got, err := selectGroups(all, 3, 3, 1)
	require.NoError(t, err)
	require.Len(t, got, 3)
	assert.Equal(t, []string{"R2", "R3", "R1"}, []string{got[0].name, got[1].name, got[2].name})

	paths := []*groupPath{
		{id: 1, groups: []*pathGroup{{name: "G1"}, {name: "G2"}, {name: "G3"}}, weight: 30, value: 3},
		{id: 2, groups: []*pathGroup{{name: "G1"}, {name: "G3"}}, weight: 20, value: 2},
		{id: 3, groups: []*pathGroup{{name: "G1"}, {name: "G2"}}, weight: 20, value: 2},
	}
	assert.Equal(t, 3, bestPath(paths).id)
}

// A fleet whose combinations Karmada would enumerate for too long is
// reported, not searched.
func TestSelectGroupsTooManyCombinations(t *testing.T) {
	defer func(n int) { maxGroupSearchSteps = n }(maxGroupSearchSteps)
	maxGroupSearchSteps = 10
	var groups []*pathGroup
	for i := range 8 {
		groups = append(groups, &pathGroup{name: fmt.Sprintf("R%d", i), value: 1})
	}
	got, err := selectGroups(groups, 4, 8, 4)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "needs more than 10 steps")
	assert.Nil(t, got)

	r, c := byRegion(4, 8, 4, 8)
	var regions []topologyGroup
	for i := range 8 {
		regions = append(regions, region(fmt.Sprintf("R%d", i), 0, sc(fmt.Sprintf("member%d", i), 0, 1)))
	}
	_, err = selectByRegion(regions, r, c)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "narrow the region constraint")
}

// scores builds the clusters of upstream's generateClusterScores.
func scores(s []int64, avail []int64) []spreadCluster {
	out := make([]spreadCluster, len(s))
	for i := range s {
		out[i] = sc(fmt.Sprintf("member%d", i+1), s[i], avail[i])
	}
	return out
}

// Derived from Test_CalcGroupScore (cases of generateArgs),
// pkg/scheduler/core/spreadconstraint/group_clusters_test.go, karmada
// v1.16.0: the same clusters, replicas, strategies and minGroups, and the
// same verdict on which group scores at least as high. The bindings there
// carry no spread constraints, so the cluster minGroups is 0.
func TestGroupScore(t *testing.T) {
	tests := []struct {
		id                   int
		clusters1, clusters2 []spreadCluster
		replicas             int32
		duplicated           bool
		minGroups            int
		group1Wins           bool
	}{
		{1, scores([]int64{100, 100, 0, 0, 0}, []int64{30, 30, 30, 30, 30}), scores([]int64{100, 100, 100, 100, 100}, []int64{30, 30, 30, 10, 10}), 20, true, 0, true},
		{2, scores([]int64{100, 100, 0, 0, 0}, []int64{30, 30, 30, 10, 10}), scores([]int64{100, 100, 100, 100, 100}, []int64{30, 30, 30, 10, 10}), 20, true, 0, false},
		{3, scores([]int64{100, 100, 0, 0, 0}, []int64{30, 30, 30, 10, 10}), scores([]int64{100, 100, 100, 100, 100}, []int64{10, 10, 10, 5, 5}), 100, false, 2, true},
		{4, scores([]int64{100, 100, 0, 0, 0}, []int64{10, 10, 10, 10, 5}), scores([]int64{100, 100, 100, 100, 100}, []int64{10, 10, 10, 5, 5}), 100, false, 2, true},
		{5, scores([]int64{100, 100, 0, 0, 0}, []int64{10, 10, 10, 5, 5}), scores([]int64{100, 100, 100, 100, 100}, []int64{10, 10, 10, 5, 5}), 100, false, 2, false},
		{6, scores([]int64{0, 0, 0, 0, 0}, []int64{100, 100, 100, 100, 100}), scores([]int64{100, 100, 100, 100, 100}, []int64{50, 50, 50, 50, 50}), 100, false, 2, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.id), func(t *testing.T) {
			s1, ok1 := groupScore(tt.clusters1, tt.replicas, tt.duplicated, tt.minGroups, 0)
			s2, ok2 := groupScore(tt.clusters2, tt.replicas, tt.duplicated, tt.minGroups, 0)
			require.True(t, ok1)
			require.True(t, ok2)
			assert.Equal(t, tt.group1Wins, s1 >= s2, "score1 %d, score2 %d", s1, s2)
		})
	}
}

// The figures of calcGroupScore's own worked examples (group_clusters.go,
// karmada v1.16.0), and the Duplicated group without a cluster that has
// room, where v1.16.0 divides by zero.
func TestGroupScoreValues(t *testing.T) {
	// Divided, 100 replicas over 2 groups: a share of 50.
	s, ok := groupScore(scores([]int64{100, 100, 100, 100, 100}, []int64{10, 10, 10, 10, 5}), 100, false, 2, 1)
	assert.True(t, ok)
	assert.EqualValues(t, 45100, s)
	s, _ = groupScore(scores([]int64{0, 0, 0, 0}, []int64{40, 30, 10, 10}), 100, false, 2, 1)
	assert.EqualValues(t, 50000, s)
	s, _ = groupScore(scores([]int64{100, 100, 100, 100, 100}, []int64{40, 40, 10, 10, 5}), 100, false, 2, 1)
	assert.EqualValues(t, 50100, s)
	// Duplicated, 50 replicas.
	s, _ = groupScore(scores([]int64{100, 100, 100, 100, 100}, []int64{60, 70, 40, 30, 10}), 50, true, 1, 1)
	assert.EqualValues(t, 2100, s)
	s, _ = groupScore(scores([]int64{0, 0, 0, 0}, []int64{60, 60, 60, 60}), 50, true, 1, 1)
	assert.EqualValues(t, 4000, s)

	_, ok = groupScore(scores([]int64{0, 0}, []int64{1, 2}), 3, true, 1, 1)
	assert.False(t, ok)
	s, ok = groupScore(nil, 3, true, 1, 1)
	assert.True(t, ok)
	assert.Zero(t, s)
	// minGroups is at least 1 after defaulting; 0 must not divide by zero.
	s, ok = groupScore(scores([]int64{0}, []int64{4}), 3, false, 0, 0)
	assert.True(t, ok)
	assert.EqualValues(t, 3000, s)
}

// Derived from Test_GroupClustersWithScore,
// pkg/scheduler/core/spreadconstraint/group_clusters_test.go, karmada
// v1.16.0 (generateClusterScore's topology): two zones, two regions and
// two providers; the clusters keep their order inside each group.
func TestGroupClusters(t *testing.T) {
	topo := func(name, provider, region, zone string) spreadCluster {
		return spreadCluster{cluster: &policy.Cluster{Name: name, Provider: provider, Region: region, Zones: []string{zone}}}
	}
	clusters := []spreadCluster{
		topo("member4", "P2", "R2", "Z2"),
		topo("member2", "P1", "R1", "Z2"),
		topo("member3", "P2", "R1", "Z1"),
		topo("member1", "P1", "R1", "Z1"),
	}
	tests := []struct {
		field string
		want  map[string][]string
	}{
		{"zone", map[string][]string{"Z1": {"member3", "member1"}, "Z2": {"member4", "member2"}}},
		{"region", map[string][]string{"R1": {"member2", "member3", "member1"}, "R2": {"member4"}}},
		{"provider", map[string][]string{"P1": {"member2", "member1"}, "P2": {"member4", "member3"}}},
		{"cluster", map[string][]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.field, func(t *testing.T) {
			got := map[string][]string{}
			for _, g := range groupClusters(tt.field, clusters) {
				got[g.name] = clusterNames(g.clusters)
			}
			assert.Equal(t, tt.want, got)
		})
	}
	// A legacy spec.zone counts as the only zone; an empty region or
	// provider puts the cluster in no group.
	legacy := []spreadCluster{{cluster: &policy.Cluster{Name: "old", Zone: "Z9"}}}
	assert.Len(t, groupClusters("zone", legacy), 1)
	assert.Empty(t, groupClusters("region", legacy))
	assert.Empty(t, groupClusters("provider", legacy))
}

// fleet is clusters named member1.. with the given regions, as the
// filters leave them (canonical order, by name when capacity is equal).
func fleetIn(regions ...string) []*policy.Cluster {
	out := make([]*policy.Cluster, len(regions))
	for i, r := range regions {
		out[i] = &policy.Cluster{Name: fmt.Sprintf("member%d", i+1), Region: r, Provider: "P1", Zones: []string{"Z1"}}
	}
	return out
}

func availAll(cs []*policy.Cluster, n int64) map[string]int64 {
	out := map[string]int64{}
	for _, c := range cs {
		out[c.Name] = n
	}
	return out
}

func names(cs []*policy.Cluster) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return out
}

// selectClusters with a region constraint, end to end: the region scores
// come from the clusters' available replicas (all 0 scores for a fresh
// binding), and a Duplicated group without room reproduces v1.16.0's panic
// as an error. The first case follows Test_selectBestClustersByRegion's
// "select cluster from the region with enough clusters" (karmada v1.16.0)
// with a fresh binding's scores.
func TestSelectClustersByRegion(t *testing.T) {
	dup := &replicaScheduling{ReplicaSchedulingType: schedulingDuplicated}
	aggregated := &replicaScheduling{ReplicaSchedulingType: schedulingDivided, ReplicaDivisionPreference: divisionAggregated}
	static := &replicaScheduling{ReplicaSchedulingType: schedulingDivided, ReplicaDivisionPreference: divisionWeighted}
	spread := func(rMin, rMax, cMin, cMax int, extra ...spreadConstraint) []spreadConstraint {
		r, c := byRegion(rMin, rMax, cMin, cMax)
		return append([]spreadConstraint{r, c}, extra...)
	}
	tests := []struct {
		name     string
		pl       placement
		fleet    []*policy.Cluster
		avail    map[string]int64
		replicas int32
		want     []string
		wantErr  string
	}{
		{
			name:  "the region with enough clusters",
			pl:    placement{SpreadConstraints: spread(1, 1, 3, 3), ReplicaScheduling: dup},
			fleet: fleetIn("R1", "R1", "R2", "R2", "R2"),
			want:  []string{"member3", "member4", "member5"},
		},
		{
			name:  "equal regions: the first by name, up to the cluster maxGroups",
			pl:    placement{SpreadConstraints: spread(1, 1, 1, 2)},
			fleet: fleetIn("R1", "R1", "R2", "R2"),
			want:  []string{"member1", "member2"},
		},
		{
			name:  "one cluster per region when the cluster maxGroups is smaller",
			pl:    placement{SpreadConstraints: spread(2, 2, 1, 1), ReplicaScheduling: dup},
			fleet: fleetIn("R1", "R1", "R2", "R2"),
			want:  []string{"member1", "member3"},
		},
		{
			name:     "Duplicated: the region with more clusters that hold every replica",
			pl:       placement{SpreadConstraints: spread(1, 1, 1, 5), ReplicaScheduling: dup},
			fleet:    fleetIn("R1", "R2", "R2", "R1"),
			avail:    map[string]int64{"member1": 9, "member2": 3, "member3": 3, "member4": 1},
			replicas: 3,
			want:     []string{"member2", "member3"},
		},
		{
			name:     "the rest of a region by available replicas",
			pl:       placement{SpreadConstraints: spread(1, 1, 1, 3), ReplicaScheduling: dup},
			fleet:    fleetIn("R1", "R1", "R1", "R1"),
			avail:    map[string]int64{"member1": 9, "member2": 5, "member3": 4, "member4": 3},
			replicas: 3,
			want:     []string{"member1", "member2", "member3"},
		},
		{
			name:     "Divided: the region holding the share, regardless of capacity afterwards",
			pl:       placement{SpreadConstraints: spread(1, 1, 1, 2), ReplicaScheduling: aggregated},
			fleet:    fleetIn("R1", "R2", "R1", "R2"),
			avail:    map[string]int64{"member1": 8, "member2": 5, "member3": 1, "member4": 1},
			replicas: 10,
			want:     []string{"member1", "member3"},
		},
		{
			name:     "Duplicated region without room: v1.16.0 panics",
			pl:       placement{SpreadConstraints: spread(1, 1, 1, 2), ReplicaScheduling: dup},
			fleet:    fleetIn("R1", "R2"),
			avail:    map[string]int64{"member1": 3, "member2": 0},
			replicas: 3,
			wantErr:  `no cluster of region "R2" has room for the 3 replicas (available: member2 0), and Karmada v1.16.0's scheduler panics on this input`,
		},
		{
			name:     "a zone group without room panics before the cluster algorithm runs",
			pl:       placement{SpreadConstraints: []spreadConstraint{{SpreadByField: "cluster", MinGroups: 1, MaxGroups: 1}, {SpreadByField: "zone", MinGroups: 1}}},
			fleet:    fleetIn("R1"),
			avail:    map[string]int64{"member1": 0},
			replicas: 1,
			wantErr:  `spreadByField zone`,
		},
		{
			name:     "a provider group without room panics too",
			pl:       placement{SpreadConstraints: []spreadConstraint{{SpreadByField: "cluster", MinGroups: 1, MaxGroups: 1}, {SpreadByField: "provider", MinGroups: 1}}},
			fleet:    fleetIn("R1"),
			avail:    map[string]int64{"member1": 2},
			replicas: 3,
			wantErr:  `provider "P1"`,
		},
		{
			name:     "static weights ignore the spread constraints, and nothing is scored",
			pl:       placement{SpreadConstraints: spread(1, 1, 1, 1), ReplicaScheduling: static},
			fleet:    fleetIn("R1", "R2"),
			avail:    map[string]int64{"member1": 0, "member2": 0},
			replicas: 3,
			want:     []string{"member1", "member2"},
		},
		{
			name:    "too few regions",
			pl:      placement{SpreadConstraints: spread(3, 3, 1, 3)},
			fleet:   fleetIn("R1", "R2"),
			wantErr: "span 2 region(s), fewer than the region constraint's minGroups 3",
		},
		{
			name:    "region maxGroups 0 finds no combination",
			pl:      placement{SpreadConstraints: spread(1, 0, 1, 3)},
			fleet:   fleetIn("R1", "R2"),
			wantErr: "no combination of 1 to 0 region(s)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			avail := tt.avail
			if avail == nil {
				avail = availAll(tt.fleet, math.MaxInt32)
			}
			got, err := selectClusters(&tt.pl, tt.fleet, avail, tt.replicas)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, names(got))
		})
	}
}
