// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/apply-overrides/apply-overrides/policy"
)

// quantities parses a resource list written as strings.
func quantities(m map[string]string) map[string]resource.Quantity {
	if m == nil {
		return nil
	}
	out := make(map[string]resource.Quantity, len(m))
	for k, v := range m {
		out[k] = resource.MustParse(v)
	}
	return out
}

// summary is a cluster whose status.resourceSummary has the given lists.
func summary(name string, allocatable, allocated, allocating map[string]string) *policy.Cluster {
	return &policy.Cluster{Name: name, Resources: &policy.Resources{
		Allocatable: quantities(allocatable),
		Allocated:   quantities(allocated),
		Allocating:  quantities(allocating),
	}}
}

func requests(m map[string]string) *requirements { return &requirements{Requests: quantities(m)} }

// cpuModels are the three CPU grades of upstream's model tests:
// [0,1), [1,2), [2,4), one node each.
func cpuModels() *policy.Resources {
	return &policy.Resources{
		Models: []policy.ResourceModel{
			{Grade: 0, Ranges: map[string]policy.ResourceRange{"cpu": {Min: resource.MustParse("0"), Max: resource.MustParse("1")}}},
			{Grade: 1, Ranges: map[string]policy.ResourceRange{"cpu": {Min: resource.MustParse("1"), Max: resource.MustParse("2")}}},
			{Grade: 2, Ranges: map[string]policy.ResourceRange{"cpu": {Min: resource.MustParse("2"), Max: resource.MustParse("4")}}},
		},
		Modelings: []policy.Modeling{{Grade: 0, Count: 1}, {Grade: 1, Count: 1}, {Grade: 2, Count: 1}},
	}
}

// cpuMemoryModels are upstream's CPU and memory grades: [0,1)/[0,1Gi),
// [1,2)/[1Gi,2Gi), [2,4)/[2Gi,4Gi), one node each.
func cpuMemoryModels() *policy.Resources {
	r := cpuModels()
	for i, mem := range []string{"0", "1Gi", "2Gi"} {
		r.Models[i].Ranges["memory"] = policy.ResourceRange{Min: resource.MustParse(mem)}
	}
	return r
}

// Cases of TestMaxAvailableReplicasGeneral and TestMaxAvailableReplicas,
// pkg/estimator/client/general_test.go, karmada v1.16.0.
func TestMaxAvailableReplicasUpstream(t *testing.T) {
	basic := summary("", map[string]string{"pods": "100", "cpu": "4", "memory": "8Gi"}, map[string]string{"pods": "20", "cpu": "1", "memory": "2Gi"}, nil)
	for _, tc := range []struct {
		name    string
		cluster *policy.Cluster
		req     *requirements
		want    int64
	}{
		{"nil resource summary", &policy.Cluster{}, nil, 0},
		{"no allowed pods", summary("", map[string]string{"pods": "10"}, map[string]string{"pods": "10"}, nil), nil, 0},
		{"nil replica requirements", summary("", map[string]string{"pods": "10"}, nil, nil), nil, 10},
		{"basic resource estimation", basic, requests(map[string]string{"cpu": "500m", "memory": "1Gi"}), 6},
		{"cluster with no resources", &policy.Cluster{}, requests(map[string]string{"cpu": "1"}), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, maxAvailableReplicas(tc.cluster, tc.req))
		})
	}
}

// Cases of TestGetAllowedPodNumber, pkg/estimator/client/general_test.go,
// karmada v1.16.0.
func TestAllowedPodsUpstream(t *testing.T) {
	for _, tc := range []struct {
		name                            string
		allocatable, allocated, pending map[string]string
		want                            int64
	}{
		{"normal case", map[string]string{"pods": "100"}, map[string]string{"pods": "40"}, map[string]string{"pods": "10"}, 50},
		{"no allocatable pods", nil, map[string]string{"pods": "10"}, nil, 0},
		{"over allocation", map[string]string{"pods": "100"}, map[string]string{"pods": "90"}, map[string]string{"pods": "20"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, allowedPods(summary("", tc.allocatable, tc.allocated, tc.pending).Resources))
		})
	}
}

// Cases of TestGetMaximumReplicasBasedOnClusterSummary,
// pkg/estimator/client/general_test.go, karmada v1.16.0.
func TestSummaryReplicasUpstream(t *testing.T) {
	req := requests(map[string]string{"cpu": "500m", "memory": "1Gi"})
	for _, tc := range []struct {
		name                   string
		allocatable, allocated map[string]string
		want                   int64
	}{
		{"sufficient resources", map[string]string{"cpu": "4", "memory": "8Gi"}, map[string]string{"cpu": "1", "memory": "2Gi"}, 6},
		{"insufficient memory", map[string]string{"cpu": "4", "memory": "2Gi"}, map[string]string{"cpu": "1", "memory": "1.5Gi"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, summaryReplicas(summary("", tc.allocatable, tc.allocated, nil).Resources, req))
		})
	}
}

// The summary path beyond upstream's cases: CPU in millicores, other
// resources in whole units rounded up, missing resources, and the summary
// left untouched.
func TestSummaryReplicas(t *testing.T) {
	c := summary("", map[string]string{"pods": "100", "cpu": "3", "example.com/foo": "3", "memory": "1Gi"},
		map[string]string{"cpu": "500m"}, map[string]string{"cpu": "500m"})
	for _, tc := range []struct {
		name string
		req  map[string]string
		want int64
	}{
		{"CPU divides in millicores", map[string]string{"cpu": "500m"}, 4},
		{"other resources divide in whole units, rounded up", map[string]string{"example.com/foo": "500m"}, 3},
		{"a request that is 0 does not count", map[string]string{"cpu": "0", "memory": "256Mi"}, 4},
		{"a resource the cluster does not list holds none", map[string]string{"nvidia.com/gpu": "1", "cpu": "100m"}, 0},
		{"no request limits nothing but pods", map[string]string{}, 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, maxAvailableReplicas(c, requests(tc.req)))
		})
	}
	// Subtracting must not change the cluster's own quantities.
	assert.Equal(t, "3", func() string { q := c.Resources.Allocatable["cpu"]; return q.String() }())
	// Nothing left of a requested resource holds none, whatever the others.
	full := summary("", map[string]string{"pods": "10", "cpu": "1", "memory": "1Gi"}, map[string]string{"cpu": "1"}, nil)
	assert.Equal(t, int64(0), maxAvailableReplicas(full, requests(map[string]string{"cpu": "1m", "memory": "1"})))
}

// Cases of TestGetMaximumReplicasBasedOnResourceModels,
// pkg/estimator/client/general_test.go, karmada v1.16.0 (an error there
// is ok == false here).
func TestModelReplicasUpstream(t *testing.T) {
	for _, tc := range []struct {
		name      string
		resources *policy.Resources
		req       map[string]string
		want      int64
		ok        bool
	}{
		{"No grade defined should result in an error", &policy.Resources{}, map[string]string{"cpu": "1"}, 0, false},
		{"Partially compliant grades", cpuModels(), map[string]string{"cpu": "1.5"}, 1, true},
		{"No compliant grades", cpuModels(), map[string]string{"cpu": "3"}, 0, true},
		{"Multi resource request", cpuMemoryModels(), map[string]string{"cpu": "1", "memory": "1.5Gi"}, 1, true},
		{"request exceeds highest grade", cpuMemoryModels(), map[string]string{"cpu": "1", "memory": "2.5Gi"}, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := modelReplicas(tc.resources, requests(tc.req))
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.want, got)
		})
	}
}

// Cases of TestMinimumModelIndex, pkg/estimator/client/general_test.go,
// karmada v1.16.0, seen through modelReplicas: the grades hold 1, 10 and
// 100 nodes, so the total tells which grade the request starts from.
func TestMinimumModelIndexUpstream(t *testing.T) {
	grades := func(mins ...string) *policy.Resources {
		r := &policy.Resources{}
		for i, m := range mins {
			r.Models = append(r.Models, policy.ResourceModel{Grade: uint(i), Ranges: map[string]policy.ResourceRange{"cpu": {Min: resource.MustParse(m)}}})
			r.Modelings = append(r.Modelings, policy.Modeling{Grade: uint(i), Count: int64(math.Pow10(i))})
		}
		return r
	}
	for _, tc := range []struct {
		name    string
		grades  *policy.Resources
		request string
		want    int64
	}{
		{"first grade sufficient", grades("2", "4", "8"), "1", 2*1 + 4*10 + 8*100},
		{"middle grade sufficient", grades("1", "4", "8"), "2", 2*10 + 4*100},
		{"no sufficient grade", grades("1", "2", "4"), "8", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := modelReplicas(tc.grades, requests(map[string]string{"cpu": tc.request}))
			assert.True(t, ok)
			assert.Equal(t, tc.want, got)
		})
	}
}

// Cases of TestConvertToResourceModelsMinMap,
// pkg/estimator/client/general_test.go, karmada v1.16.0.
func TestModelMinimumsUpstream(t *testing.T) {
	rr := func(min string) policy.ResourceRange { return policy.ResourceRange{Min: resource.MustParse(min)} }
	for _, tc := range []struct {
		name   string
		models []policy.ResourceModel
		want   map[string][]string
	}{
		{"empty models", nil, map[string][]string{}},
		{"single resource type across models", []policy.ResourceModel{
			{Ranges: map[string]policy.ResourceRange{"cpu": rr("1")}},
			{Grade: 1, Ranges: map[string]policy.ResourceRange{"cpu": rr("2")}},
		}, map[string][]string{"cpu": {"1", "2"}}},
		{"multiple resource types", []policy.ResourceModel{
			{Ranges: map[string]policy.ResourceRange{"cpu": rr("1"), "memory": rr("1Gi")}},
			{Grade: 1, Ranges: map[string]policy.ResourceRange{"cpu": rr("2"), "memory": rr("2Gi")}},
		}, map[string][]string{"cpu": {"1", "2"}, "memory": {"1Gi", "2Gi"}}},
		{"models with missing resource types", []policy.ResourceModel{
			{Ranges: map[string]policy.ResourceRange{"cpu": rr("1")}},
			{Grade: 1, Ranges: map[string]policy.ResourceRange{"memory": rr("1Gi")}},
		}, map[string][]string{"cpu": {"1"}, "memory": {"1Gi"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := map[string][]string{}
			for name, mins := range modelMinimums(tc.models) {
				for _, q := range mins {
					got[name] = append(got[name], q.String())
				}
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

// Cases of TestGetNodeAvailableReplicas,
// pkg/estimator/client/general_test.go, karmada v1.16.0.
func TestNodeReplicasUpstream(t *testing.T) {
	for _, tc := range []struct {
		name  string
		index int
		req   map[string]string
		mins  map[string][]string
		want  int64
	}{
		{"empty resource request", 0, map[string]string{}, map[string][]string{}, math.MaxInt64},
		{"zero requested quantity should be ignored", 0, map[string]string{"cpu": "0", "memory": "1Gi"},
			map[string][]string{"cpu": {"2"}, "memory": {"4Gi"}}, 4},
		{"CPU resource calculation in millicores", 0, map[string]string{"cpu": "500m"}, map[string][]string{"cpu": {"2"}}, 4},
		{"multiple resources with different ratios", 0, map[string]string{"cpu": "500m", "memory": "2Gi"},
			map[string][]string{"cpu": {"2"}, "memory": {"8Gi"}}, 4},
		{"memory limited scenario", 0, map[string]string{"cpu": "500m", "memory": "3Gi"},
			map[string][]string{"cpu": {"2"}, "memory": {"8Gi"}}, 2},
		{"zero replicas possible but first model", 0, map[string]string{"cpu": "3"}, map[string][]string{"cpu": {"2"}}, 1},
		{"different model index", 1, map[string]string{"cpu": "1"}, map[string][]string{"cpu": {"2", "4"}}, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mins := map[string][]resource.Quantity{}
			for name, qs := range tc.mins {
				for _, q := range qs {
					mins[name] = append(mins[name], resource.MustParse(q))
				}
			}
			got, ok := nodeReplicas(tc.index, requests(tc.req), mins)
			assert.True(t, ok)
			assert.Equal(t, tc.want, got)
		})
	}
}

// The model path inside the estimator: it wins over the summary when it
// can judge the request, gives way to it when it cannot, and keeps
// Karmada's int64 and int32 wrap-arounds.
func TestMaxAvailableReplicasModels(t *testing.T) {
	withSummary := func(r *policy.Resources, pods string) *policy.Cluster {
		r.Allocatable = quantities(map[string]string{"pods": pods, "cpu": "100", "memory": "100Gi"})
		return &policy.Cluster{Name: "m", Resources: r}
	}
	// The models see one node per grade; the summary would see 100 CPUs.
	assert.Equal(t, int64(1), maxAvailableReplicas(withSummary(cpuModels(), "100"), requests(map[string]string{"cpu": "1.5"})))
	assert.Equal(t, int64(0), maxAvailableReplicas(withSummary(cpuModels(), "100"), requests(map[string]string{"cpu": "3"})))
	// Allowed pods still bound the models' answer.
	r := cpuModels()
	r.Modelings[2].Count = 50
	assert.Equal(t, int64(7), maxAvailableReplicas(withSummary(r, "7"), requests(map[string]string{"cpu": "1"})))
	// A requested resource no model names: the summary decides (100/1).
	assert.Equal(t, int64(100), maxAvailableReplicas(withSummary(cpuModels(), "1000"), requests(map[string]string{"cpu": "1", "memory": "1Gi"})))
	// Without modelings the models are not looked at.
	r = cpuModels()
	r.Modelings = nil
	assert.Equal(t, int64(66), maxAvailableReplicas(withSummary(r, "1000"), requests(map[string]string{"cpu": "1.5"})))
	// A modeling with no nodes adds nothing.
	r = cpuModels()
	r.Modelings[2].Count = 0
	assert.Equal(t, int64(0), maxAvailableReplicas(withSummary(r, "1000"), requests(map[string]string{"cpu": "1.5"})))

	// Models Karmada's API server would reject, where Karmada would index
	// out of range: the summary decides instead.
	r = cpuModels()
	r.Models[2].Ranges["memory"] = policy.ResourceRange{Min: resource.MustParse("8Gi")}
	r.Models[0].Ranges["memory"] = policy.ResourceRange{Min: resource.MustParse("0")}
	assert.Equal(t, int64(100), maxAvailableReplicas(withSummary(r, "1000"), requests(map[string]string{"cpu": "1", "memory": "1Gi"})))
	r = cpuModels()
	r.Modelings = r.Modelings[:2]
	assert.Equal(t, int64(66), maxAvailableReplicas(withSummary(r, "1000"), requests(map[string]string{"cpu": "1.5"})))

	// A node claim without requests: nothing limits a node (MaxInt64), and
	// Karmada multiplies that by the node count. One node of each grade
	// adds up to 3*MaxInt64, which wraps to MaxInt64-2: the pods decide.
	claim := &requirements{}
	assert.Equal(t, int64(1000), maxAvailableReplicas(withSummary(cpuModels(), "1000"), claim))
	// Two nodes in total wrap to -2, below the pods: Karmada's answer is -2.
	r = cpuModels()
	r.Modelings[0].Count = 0
	assert.Equal(t, int64(-2), maxAvailableReplicas(withSummary(r, "1000"), claim))
	// Modelings without models: no grade counts, so nothing fits.
	assert.Equal(t, int64(0), maxAvailableReplicas(withSummary(&policy.Resources{Modelings: []policy.Modeling{{Count: 3}}}, "10"), claim))
}

// The scheduler's available replicas (calAvailableReplicas,
// pkg/scheduler/core/util.go, karmada v1.16.0).
func TestAvailableForOrdering(t *testing.T) {
	c := summary("m", map[string]string{"pods": "10", "cpu": "2"}, nil, nil)
	req := requests(map[string]string{"cpu": "500m"})
	// Not a workload: every cluster MaxInt32, requirements or not.
	assert.Equal(t, int64(math.MaxInt32), availableForOrdering(c, 0, nil))
	assert.Equal(t, int64(math.MaxInt32), availableForOrdering(c, 0, req))
	assert.Equal(t, int64(math.MaxInt32), availableForOrdering(&policy.Cluster{}, 0, req))
	// A workload: the estimator's answer.
	assert.Equal(t, int64(4), availableForOrdering(c, 3, req))
	assert.Equal(t, int64(10), availableForOrdering(c, 3, nil))
	assert.Equal(t, int64(0), availableForOrdering(&policy.Cluster{Name: "bare"}, 3, req))
	// An answer of MaxInt32 becomes the binding's replicas, and so does
	// -1, which Karmada takes for "cannot tell" (here 2^32-1 pods,
	// truncated to int32).
	assert.Equal(t, int64(3), availableForOrdering(summary("m", map[string]string{"pods": "2147483647"}, nil, nil), 3, nil))
	assert.Equal(t, int64(3), availableForOrdering(summary("m", map[string]string{"pods": "4294967295"}, nil, nil), 3, nil))
	// Other truncations stay as Karmada keeps them.
	assert.Equal(t, int64(-2), availableForOrdering(summary("m", map[string]string{"pods": "4294967294"}, nil, nil), 3, nil))
	assert.Equal(t, int64(0), maxAvailableReplicas(nil, nil))
}
