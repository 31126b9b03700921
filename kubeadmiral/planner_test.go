// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubeadmiral

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/apply-overrides/apply-overrides/policy"
)

func i64(v int64) *int64 { return &v }

// expand resolves upstream's "*" preference the way planner.Plan does: a
// cluster without its own entry takes "*", and one with neither is left
// out of the plan. The scheduler itself never sets "*".
func expand(rsp map[string]preference, clusters []string) map[string]preference {
	out := map[string]preference{}
	for _, c := range clusters {
		if p, ok := rsp[c]; ok {
			out[c] = p
		} else if p, ok := rsp["*"]; ok {
			out[c] = p
		}
	}
	return out
}

// TestPlanWithoutExisting holds TestWithoutExisting
// (pkg/controllers/scheduler/planner/planner_test.go, kubeadmiral 19de01c),
// which uses the key "" and expects the same layout with and without
// avoidDisruption.
func TestPlanWithoutExisting(t *testing.T) {
	abc := []string{"A", "B", "C"}
	for i, c := range []struct {
		rsp      map[string]preference
		replicas int64
		clusters []string
		want     map[string]int64
	}{
		{map[string]preference{"*": {weight: 1}}, 50, abc, map[string]int64{"A": 16, "B": 17, "C": 17}},
		{map[string]preference{"*": {weight: 1}}, 50, []string{"A", "B"}, map[string]int64{"A": 25, "B": 25}},
		{map[string]preference{"*": {weight: 1}}, 1, []string{"A", "B"}, map[string]int64{"A": 0, "B": 1}},
		{map[string]preference{"*": {weight: 1}}, 1, []string{"A", "B", "C", "D"}, map[string]int64{"A": 0, "B": 0, "C": 0, "D": 1}},
		{map[string]preference{"*": {weight: 1}}, 1, []string{"A"}, map[string]int64{"A": 1}},
		{map[string]preference{"*": {weight: 1}}, 1, []string{}, map[string]int64{}},
		{map[string]preference{"*": {minReplicas: 2}}, 50, abc, map[string]int64{"A": 2, "B": 2, "C": 2}},
		{map[string]preference{"*": {minReplicas: 20}}, 50, abc, map[string]int64{"A": 10, "B": 20, "C": 20}},
		{map[string]preference{"*": {minReplicas: 20}, "A": {minReplicas: 100, weight: 1}}, 50, abc, map[string]int64{"A": 50, "B": 0, "C": 0}},
		{map[string]preference{"A": {minReplicas: 10, weight: 1}, "B": {weight: 1}}, 50, []string{"A", "B"}, map[string]int64{"A": 30, "B": 20}},
		{map[string]preference{"A": {minReplicas: 3, weight: 2}, "B": {minReplicas: 3, weight: 3}, "C": {minReplicas: 3, weight: 5}}, 10, abc, map[string]int64{"A": 3, "B": 3, "C": 4}},
		{map[string]preference{"*": {minReplicas: 10, weight: 1, maxReplicas: i64(12)}}, 50, abc, map[string]int64{"A": 12, "B": 12, "C": 12}},
		{map[string]preference{"*": {weight: 1, maxReplicas: i64(2)}}, 50, abc, map[string]int64{"A": 2, "B": 2, "C": 2}},
		{map[string]preference{"*": {maxReplicas: i64(2)}}, 50, abc, map[string]int64{"A": 0, "B": 0, "C": 0}},
		{map[string]preference{"A": {weight: 1}, "B": {weight: 2}}, 60, abc, map[string]int64{"A": 20, "B": 40}},
		{map[string]preference{"A": {weight: 10000}, "B": {weight: 1}}, 50, abc, map[string]int64{"A": 50, "B": 0}},
		{map[string]preference{"A": {weight: 10000}, "B": {weight: 1}}, 50, []string{"B", "C"}, map[string]int64{"B": 50}},
		{map[string]preference{"A": {weight: 10000, maxReplicas: i64(10)}, "B": {weight: 1}, "C": {weight: 1}}, 50, abc, map[string]int64{"A": 10, "B": 20, "C": 20}},
		{map[string]preference{"A": {weight: 10000, maxReplicas: i64(10)}, "B": {weight: 1}, "C": {weight: 1, maxReplicas: i64(10)}}, 50, abc, map[string]int64{"A": 10, "B": 30, "C": 10}},
		{map[string]preference{"A": {weight: 10000, maxReplicas: i64(10)}, "B": {weight: 1}, "C": {weight: 1, maxReplicas: i64(21)}, "D": {weight: 1, maxReplicas: i64(10)}}, 71, []string{"A", "B", "C", "D"}, map[string]int64{"A": 10, "B": 30, "C": 21, "D": 10}},
		{map[string]preference{"A": {weight: 10000, maxReplicas: i64(10)}, "B": {weight: 1}, "C": {weight: 1, maxReplicas: i64(21)}, "D": {weight: 1, maxReplicas: i64(10)}, "E": {weight: 1}}, 91, []string{"A", "B", "C", "D", "E"}, map[string]int64{"A": 10, "B": 25, "C": 21, "D": 10, "E": 25}},
	} {
		for _, avoid := range []bool{true, false} {
			assert.Equal(t, c.want, plan(expand(c.rsp, c.clusters), c.replicas, "", avoid), "case %d, avoidDisruption %v", i, avoid)
		}
	}
}

// TestPlanVerified holds the vectors the spec verified through an offline
// build of kubeadmiral 19de01c's scheduler (key "default/nginx", no
// status, so three clusters weigh round(1000/3) each).
func TestPlanVerified(t *testing.T) {
	even := map[string]preference{"c01": {weight: 333}, "c02": {weight: 333}, "c03": {weight: 333}}
	assert.Equal(t, map[string]int64{"c01": 2, "c02": 4, "c03": 4}, plan(even, 10, "default/nginx", true))
	assert.Equal(t, map[string]int64{"c01": 0, "c02": 1, "c03": 0}, plan(even, 1, "default/nginx", true))
	assert.Equal(t, map[string]int64{"c01": 0, "c02": 0}, plan(map[string]preference{"c01": {}, "c02": {}}, 10, "default/nginx", true), "all weights 0: nothing beyond the minimums")
	assert.Equal(t, map[string]int64{"c01": 7, "c02": 3}, plan(map[string]preference{"c01": {weight: 1}, "c02": {minReplicas: 3}}, 10, "default/nginx", true))
	assert.Equal(t, map[string]int64{"c01": 4, "c02": 6, "c03": 0},
		binpackPlan([]string{"c01", "c02", "c03"}, map[string]preference{"c01": {maxReplicas: i64(4)}}, 10, true))
}

// TestPlanMinAboveMax holds what avoidDisruption changes for a fresh
// object (checked against kubeadmiral 19de01c's planner.Plan and
// preferencebinpack.Plan): a minimum above the maximum that the desired
// plan keeps is capped by the scale-up from zero.
func TestPlanMinAboveMax(t *testing.T) {
	p := map[string]preference{"a": {minReplicas: 5, maxReplicas: i64(3)}}
	assert.Equal(t, map[string]int64{"a": 3}, plan(p, 5, "", true))
	assert.Equal(t, map[string]int64{"a": 5}, plan(p, 5, "", false))

	bp := map[string]preference{"i": {maxReplicas: i64(10)}, "j": {minReplicas: 3, maxReplicas: i64(0)}}
	assert.Equal(t, map[string]int64{"i": 5, "j": 0}, binpackPlan([]string{"i", "j"}, bp, 5, true), "the scale-up asks for the full total again")
	assert.Equal(t, map[string]int64{"i": 2, "j": 0}, binpackPlan([]string{"i", "j"}, bp, 5, false))
	assert.Equal(t, map[string]int64{"i": 0, "j": 0}, binpackPlan([]string{"i", "j"}, bp, 3, true), "nothing desired: the empty layout stands")
}

// TestPlanOverflowBound holds that weights large enough to overflow
// distribute·weight end the rounds instead of looping.
func TestPlanOverflowBound(t *testing.T) {
	got := plan(map[string]preference{"a": {weight: 1 << 62}, "b": {weight: 1 << 62}}, 1<<40, "", false)
	assert.Len(t, got, 2)
}

// TestBinpackDesired holds Test_getDesiredPlan's capacity-free cases and
// TestWithoutExisting's (framework/plugins/preferencebinpack/planner_test.go,
// kubeadmiral 19de01c), in both avoidDisruption modes.
func TestBinpackDesired(t *testing.T) {
	for i, c := range []struct {
		prefs    map[string]preference
		replicas int64
		clusters []string
		want     map[string]int64
	}{
		// Test_getDesiredPlan "all pods scheduled to 1 cluster"
		{nil, 10, []string{"A", "B", "C"}, map[string]int64{"A": 10, "B": 0, "C": 0}},
		// "1 cluster with maxReplicas"
		{map[string]preference{"A": {maxReplicas: i64(5)}}, 10, []string{"A", "B", "C"}, map[string]int64{"A": 5, "B": 5, "C": 0}},
		// "1 cluster with minReplicas"
		{map[string]preference{"B": {minReplicas: 5}}, 10, []string{"A", "B", "C"}, map[string]int64{"A": 5, "B": 5, "C": 0}},
		// TestWithoutExisting
		{nil, 50, []string{"A", "B"}, map[string]int64{"A": 50, "B": 0}},
		{map[string]preference{"B": {minReplicas: 10}}, 50, []string{"A", "B"}, map[string]int64{"A": 40, "B": 10}},
		{map[string]preference{"A": {maxReplicas: i64(10)}, "B": {maxReplicas: i64(21)}}, 50, []string{"A", "B", "C"}, map[string]int64{"A": 10, "B": 21, "C": 19}},
		{map[string]preference{"A": {maxReplicas: i64(10)}, "C": {minReplicas: 10}}, 50, []string{"A", "B", "C"}, map[string]int64{"A": 10, "B": 30, "C": 10}},
	} {
		for _, avoid := range []bool{true, false} {
			assert.Equal(t, c.want, binpackPlan(c.clusters, c.prefs, c.replicas, avoid), "case %d, avoidDisruption %v", i, avoid)
		}
	}
}

// withCPU is rsp_test.go's makeClusterWithCPU: a negative amount leaves
// the status out.
func withCPU(name string, allocatable, available int) *policy.Cluster {
	return withResource(name, resourceCPU, allocatable, available)
}

func withResource(name, res string, allocatable, available int) *policy.Cluster {
	c := &policy.Cluster{Name: name}
	if allocatable >= 0 && available >= 0 {
		c.Resources = &policy.Resources{
			Allocatable: map[string]resource.Quantity{res: resource.MustParse(strconv.Itoa(allocatable))},
			Available:   map[string]resource.Quantity{res: resource.MustParse(strconv.Itoa(available))},
		}
	}
	return c
}

// TestWeightLimits holds TestCalcWeightLimit (framework/plugins/rsp/rsp_test.go,
// kubeadmiral 19de01c).
func TestWeightLimits(t *testing.T) {
	for name, c := range map[string]struct {
		res      string
		clusters []*policy.Cluster
		want     map[string]int64
	}{
		"two clusters have the same resource": {resourceCPU, []*policy.Cluster{withCPU("cluster1", 100, 0), withCPU("cluster2", 100, 0)},
			map[string]int64{"cluster1": 500, "cluster2": 500}},
		"3 clusters have different resource amount": {resourceCPU, []*policy.Cluster{withCPU("cluster1", 3000, 0), withCPU("cluster2", 4000, 0), withCPU("cluster3", 3000, 0)},
			map[string]int64{"cluster1": 300, "cluster2": 400, "cluster3": 300}},
		"1 cluster node level info missing": {resourceCPU, []*policy.Cluster{withCPU("cluster1", 3000, -1), withCPU("cluster2", 7000, 0), withCPU("cluster3", 3000, 0)},
			map[string]int64{"cluster1": 0, "cluster2": 700, "cluster3": 300}},
		"all clusters node level info missing": {resourceCPU, []*policy.Cluster{withCPU("cluster1", 3000, -1), withCPU("cluster2", 7000, -1), withCPU("cluster3", 3000, -1)},
			map[string]int64{"cluster1": 333, "cluster2": 333, "cluster3": 333}},
		"all cluster nodes have no gpu": {resourceGPU, []*policy.Cluster{withCPU("cluster1", 3000, 3000), withCPU("cluster2", 7000, 7000), withCPU("cluster3", 3000, 3000)},
			map[string]int64{"cluster1": 333, "cluster2": 333, "cluster3": 333}},
		"two cluster nodes have no gpu and one has": {resourceGPU, []*policy.Cluster{withCPU("cluster1", 3000, 3000), withCPU("cluster2", 7000, 7000), withResource("cluster3", resourceGPU, 3000, 3000)},
			map[string]int64{"cluster1": 0, "cluster2": 0, "cluster3": 1000}},
		"two cluster nodes have gpu and one does not": {resourceGPU, []*policy.Cluster{withCPU("cluster1", 3000, 3000), withResource("cluster2", resourceGPU, 7000, 7000), withResource("cluster3", resourceGPU, 3000, 3000)},
			map[string]int64{"cluster1": 0, "cluster2": 700, "cluster3": 300}},
	} {
		assert.Equal(t, c.want, weightLimits(c.clusters, c.res, 1.0), name)
	}
}

// TestAvailableWeights holds TestAvailableToPercentage
// (framework/plugins/rsp/rsp_test.go, kubeadmiral 19de01c), whose limits
// use the ratio 1.0. Its "no nvidia.com/gpu resource" case cannot arise:
// QueryAvailable always fills in cpu, memory and GPUs.
func TestAvailableWeights(t *testing.T) {
	for name, c := range map[string]struct {
		res      string
		clusters []*policy.Cluster
		want     map[string]int64
	}{
		"test#1":                {resourceCPU, []*policy.Cluster{withCPU("cluster1", 100, 50), withCPU("cluster2", 100, 50)}, map[string]int64{"cluster1": 500, "cluster2": 500}},
		"test#2":                {resourceCPU, []*policy.Cluster{withCPU("cluster1", 100, 40), withCPU("cluster2", 100, 10)}, map[string]int64{"cluster1": 714, "cluster2": 286}},
		"empty node level info": {resourceCPU, []*policy.Cluster{withCPU("cluster1", -1, -1)}, map[string]int64{"cluster1": 1000}},
		"1 cluster node level info missing": {resourceCPU, []*policy.Cluster{withCPU("cluster1", -1, -1), withCPU("cluster2", 400, 100), withCPU("cluster3", 200, 100)},
			map[string]int64{"cluster1": 0, "cluster2": 600, "cluster3": 400}},
		"all clusters node level info missing": {resourceCPU, []*policy.Cluster{withCPU("cluster1", -1, -1), withCPU("cluster2", -1, 100), withCPU("cluster3", -1, 100)},
			map[string]int64{"cluster1": 333, "cluster2": 333, "cluster3": 333}},
		"all cluster nodes have no gpu": {resourceGPU, []*policy.Cluster{withCPU("cluster1", -1, -1), withCPU("cluster2", -1, 100), withCPU("cluster3", -1, 100)},
			map[string]int64{"cluster1": 333, "cluster2": 333, "cluster3": 333}},
		"two cluster nodes have no gpu and one has": {resourceGPU, []*policy.Cluster{withCPU("cluster1", 3000, 3000), withCPU("cluster2", 7000, 7000), withResource("cluster3", resourceGPU, 3000, 3000)},
			map[string]int64{"cluster1": 0, "cluster2": 0, "cluster3": 1000}},
		"two cluster nodes have gpu and one does not": {resourceGPU, []*policy.Cluster{withCPU("cluster1", 3000, 3000), withResource("cluster2", resourceGPU, 7000, 7000), withResource("cluster3", resourceGPU, 3000, 3000)},
			map[string]int64{"cluster1": 0, "cluster2": 700, "cluster3": 300}},
	} {
		got, err := availableWeights(c.clusters, c.res, weightLimits(c.clusters, c.res, 1.0))
		require.NoError(t, err, name)
		assert.Equal(t, c.want, got, name)
	}
}

// TestDynamicWeights holds the remainder's tie-break and the statuses
// upstream turns into NaN weights.
func TestDynamicWeights(t *testing.T) {
	got, err := dynamicWeights([]*policy.Cluster{withCPU("c", 10, 10), withCPU("b", 10, 10), withCPU("a", 10, 10)}, resourceCPU)
	require.NoError(t, err)
	assert.Equal(t, map[string]int64{"a": 334, "b": 333, "c": 333}, got, "upstream picks among equally heavy clusters in map order; the first by name here")

	got, err = dynamicWeights([]*policy.Cluster{withCPU("a", 2, 1), withCPU("b", 8, 0)}, resourceCPU)
	require.NoError(t, err)
	assert.Equal(t, map[string]int64{"a": 1000, "b": 0}, got)

	_, err = dynamicWeights([]*policy.Cluster{withCPU("a", 0, 5), withCPU("b", 8, 0)}, resourceCPU)
	assert.EqualError(t, err, "status.resources reports available cpu only on clusters that report none allocatable: export a consistent FederatedCluster status")

	_, err = dynamicWeights([]*policy.Cluster{withCPU("a", 4, 1), {Name: "b", Resources: &policy.Resources{Allocatable: map[string]resource.Quantity{"cpu": resource.MustParse("-1")}}}}, resourceCPU)
	assert.EqualError(t, err, "cluster b: status.resources.allocatable[cpu] is negative (-1): export a consistent FederatedCluster status")
}
