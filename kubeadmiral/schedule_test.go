// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubeadmiral

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/apply-overrides/apply-overrides/policy"
)

func clusters(names ...string) []*policy.Cluster {
	out := make([]*policy.Cluster, len(names))
	for i, n := range names {
		out[i] = &policy.Cluster{Name: n}
	}
	return out
}

func names(cs []*policy.Cluster) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Name
	}
	return out
}

// TestTaintTolerationFilter holds TestTaintTolerationFilter
// (framework/plugins/tainttoleration/taint_toleration_test.go,
// kubeadmiral 19de01c).
func TestTaintTolerationFilter(t *testing.T) {
	for name, c := range map[string]struct {
		tols  []policy.Toleration
		taint policy.Taint
		want  string
	}{
		"no tolerations, a NoSchedule taint": {nil, policy.Taint{Key: "dedicated", Value: "user1", Effect: "NoSchedule"},
			"taint dedicated=user1:NoSchedule is not tolerated by tolerations (TaintToleration filter)"},
		"tolerated NoSchedule":  {[]policy.Toleration{{Key: "dedicated", Value: "user1", Effect: "NoSchedule"}}, policy.Taint{Key: "dedicated", Value: "user1", Effect: "NoSchedule"}, ""},
		"other value":           {[]policy.Toleration{{Key: "dedicated", Operator: "Equal", Value: "user2", Effect: "NoSchedule"}}, policy.Taint{Key: "dedicated", Value: "user1", Effect: "NoSchedule"}, "taint dedicated=user1:NoSchedule is not tolerated by tolerations (TaintToleration filter)"},
		"Exists":                {[]policy.Toleration{{Key: "foo", Operator: "Exists", Effect: "NoSchedule"}}, policy.Taint{Key: "foo", Value: "bar", Effect: "NoSchedule"}, ""},
		"other effect":          {[]policy.Toleration{{Key: "foo", Operator: "Equal", Value: "bar", Effect: "PreferNoSchedule"}}, policy.Taint{Key: "foo", Value: "bar", Effect: "NoSchedule"}, "taint foo=bar:NoSchedule is not tolerated by tolerations (TaintToleration filter)"},
		"empty effect":          {[]policy.Toleration{{Key: "foo", Operator: "Equal", Value: "bar"}}, policy.Taint{Key: "foo", Value: "bar", Effect: "NoSchedule"}, ""},
		"PreferNoSchedule only": {[]policy.Toleration{{Key: "dedicated", Operator: "Equal", Value: "user2", Effect: "NoSchedule"}}, policy.Taint{Key: "dedicated", Value: "user1", Effect: "PreferNoSchedule"}, ""},
		"NoExecute":             {nil, policy.Taint{Key: "k", Effect: "NoExecute"}, "taint k=:NoExecute is not tolerated by tolerations (TaintToleration filter)"},
		"empty key, Exists":     {[]policy.Toleration{{Operator: "Exists"}}, policy.Taint{Key: "k", Effect: "NoExecute"}, ""},
		"other operator":        {[]policy.Toleration{{Key: "k", Operator: "Lt", Value: "1"}}, policy.Taint{Key: "k", Value: "1", Effect: "NoSchedule"}, "taint k=1:NoSchedule is not tolerated by tolerations (TaintToleration filter)"},
	} {
		u := &unit{tolerations: c.tols}
		assert.Equal(t, c.want, u.filter(&policy.Cluster{Name: "clusterA", Taints: []policy.Taint{c.taint}}), name)
	}
	u := &unit{tolerations: []policy.Toleration{{Key: "dedicated", Operator: "Equal", Value: "user2", Effect: "NoSchedule"}, {Key: "foo", Operator: "Exists", Effect: "NoSchedule"}}}
	assert.Empty(t, u.filter(&policy.Cluster{Taints: []policy.Taint{{Key: "dedicated", Value: "user2", Effect: "NoSchedule"}, {Key: "foo", Value: "bar", Effect: "NoSchedule"}}}), "every taint tolerated")
}

// TestTaintTolerationScore holds TestTaintTolerationScore
// (framework/plugins/tainttoleration/taint_toleration_test.go,
// kubeadmiral 19de01c), normalized.
func TestTaintTolerationScore(t *testing.T) {
	prefer := func(kv ...string) []policy.Taint {
		var out []policy.Taint
		for i := 0; i < len(kv); i += 2 {
			out = append(out, policy.Taint{Key: kv[i], Value: kv[i+1], Effect: "PreferNoSchedule"})
		}
		return out
	}
	cpuDisk := []policy.Toleration{{Key: "cpu-type", Operator: "Equal", Value: "arm64", Effect: "PreferNoSchedule"}, {Key: "disk-type", Operator: "Equal", Value: "ssd", Effect: "PreferNoSchedule"}}
	for name, c := range map[string]struct {
		tols   []policy.Toleration
		taints [][]policy.Taint
		want   []int64
	}{
		"tolerated beats intolerable": {[]policy.Toleration{{Key: "foo", Operator: "Equal", Value: "bar", Effect: "PreferNoSchedule"}},
			[][]policy.Taint{prefer("foo", "bar"), prefer("foo", "blah")}, []int64{100, 0}},
		"tolerated taints do not count": {cpuDisk,
			[][]policy.Taint{nil, prefer("cpu-type", "arm64"), prefer("cpu-type", "arm64", "disk-type", "ssd")}, []int64{100, 100, 100}},
		"more intolerable taints score lower": {[]policy.Toleration{{Key: "foo", Operator: "Equal", Value: "bar", Effect: "PreferNoSchedule"}},
			[][]policy.Taint{nil, prefer("cpu-type", "arm64"), prefer("cpu-type", "arm64", "disk-type", "ssd")}, []int64{100, 50, 0}},
		"only PreferNoSchedule counts": {[]policy.Toleration{{Key: "cpu-type", Operator: "Equal", Value: "arm64", Effect: "NoSchedule"}, {Key: "disk-type", Operator: "Equal", Value: "ssd", Effect: "NoSchedule"}},
			[][]policy.Taint{nil, {{Key: "cpu-type", Value: "arm64", Effect: "NoSchedule"}}, prefer("cpu-type", "arm64", "disk-type", "ssd")}, []int64{100, 100, 0}},
		"no tolerations": {nil, [][]policy.Taint{nil, prefer("cpu-type", "arm64")}, []int64{100, 0}},
	} {
		cs := clusters("clusterA", "clusterB", "clusterC")[:len(c.taints)]
		for i := range cs {
			cs[i].Taints = c.taints[i]
		}
		got := taintScores(c.tols, cs)
		for i, cl := range cs {
			assert.Equal(t, c.want[i], got[cl.Name], "%s: %s", name, cl.Name)
		}
	}
}

// TestClusterAffinityFilter holds TestClusterAffinity
// (framework/plugins/clusteraffinity/cluster_affinity_test.go,
// kubeadmiral 19de01c). Preferred terms (TestClusterAffinityPriority) are
// not part of the unit: only the affinity annotation sets them.
func TestClusterAffinityFilter(t *testing.T) {
	in := func(key string, values ...string) requirement {
		return requirement{Key: key, Operator: "In", Values: values}
	}
	expr := func(reqs ...requirement) clusterSelectorTerm { return clusterSelectorTerm{MatchExpressions: reqs} }
	named := func(name string) requirement {
		return requirement{Key: "metadata.name", Operator: "In", Values: []string{name}}
	}
	const selector, affinity = "its labels do not match clusterSelector", "not matched by clusterAffinity (ClusterAffinity filter)"
	for _, c := range []struct {
		name     string
		selector map[string]string
		affinity []clusterSelectorTerm
		labels   map[string]string
		cluster  string
		want     string // a prefix of the reason; "" passes
	}{
		{name: "no selector"},
		{name: "missing labels", selector: map[string]string{"foo": "bar"}, want: selector},
		{name: "same labels", selector: map[string]string{"foo": "bar"}, labels: map[string]string{"foo": "bar"}},
		{name: "cluster labels are superset", selector: map[string]string{"foo": "bar"}, labels: map[string]string{"foo": "bar", "baz": "blah"}},
		{name: "cluster labels are subset", selector: map[string]string{"foo": "bar", "baz": "blah"}, labels: map[string]string{"foo": "bar"}, want: selector},
		{name: "In matches", affinity: []clusterSelectorTerm{expr(in("foo", "bar", "value2"))}, labels: map[string]string{"foo": "bar"}},
		{name: "Gt matches", affinity: []clusterSelectorTerm{expr(requirement{Key: "kernel-version", Operator: "Gt", Values: []string{"0204"}})}, labels: map[string]string{"kernel-version": "0206"}},
		{name: "NotIn matches", affinity: []clusterSelectorTerm{expr(requirement{Key: "mem-type", Operator: "NotIn", Values: []string{"DDR", "DDR2"}})}, labels: map[string]string{"mem-type": "DDR3"}},
		{name: "Exists matches", affinity: []clusterSelectorTerm{expr(requirement{Key: "GPU", Operator: "Exists"})}, labels: map[string]string{"GPU": "NVIDIA-GRID-K1"}},
		{name: "In does not match", affinity: []clusterSelectorTerm{expr(in("foo", "value1", "value2"))}, labels: map[string]string{"foo": "bar"}, want: affinity},
		{name: "no terms", affinity: []clusterSelectorTerm{}, labels: map[string]string{"foo": "bar"}, want: affinity},
		{name: "empty term", affinity: []clusterSelectorTerm{{}}, labels: map[string]string{"foo": "bar"}, want: affinity},
		{name: "no affinity", labels: map[string]string{"foo": "bar"}},
		{name: "expressions ANDed match", affinity: []clusterSelectorTerm{expr(requirement{Key: "GPU", Operator: "Exists"}, requirement{Key: "GPU", Operator: "NotIn", Values: []string{"AMD", "INTEL"}})}, labels: map[string]string{"GPU": "NVIDIA-GRID-K1"}},
		{name: "expressions ANDed do not match", affinity: []clusterSelectorTerm{expr(requirement{Key: "GPU", Operator: "Exists"}, in("GPU", "AMD", "INTEL"))}, labels: map[string]string{"GPU": "NVIDIA-GRID-K1"}, want: affinity},
		{name: "terms ORed", affinity: []clusterSelectorTerm{expr(in("foo", "bar", "value2")), expr(in("diffkey", "wrong", "value2"))}, labels: map[string]string{"foo": "bar"}},
		{name: "affinity and selector both hold", selector: map[string]string{"foo": "bar"}, affinity: []clusterSelectorTerm{expr(requirement{Key: "foo", Operator: "Exists"})}, labels: map[string]string{"foo": "bar"}},
		{name: "affinity holds, selector does not", selector: map[string]string{"foo": "bar"}, affinity: []clusterSelectorTerm{expr(requirement{Key: "foo", Operator: "Exists"})}, labels: map[string]string{"foo": "barrrrrr"}, want: selector},
		{name: "invalid value", affinity: []clusterSelectorTerm{expr(requirement{Key: "foo", Operator: "NotIn", Values: []string{"invalid value: ___@#$%^"}})}, labels: map[string]string{"foo": "bar"}, want: "clusterAffinity is invalid"},
		{name: "matchFields In matches", affinity: []clusterSelectorTerm{{MatchFields: []requirement{named("cluster_1")}}}, cluster: "cluster_1"},
		{name: "matchFields In does not match", affinity: []clusterSelectorTerm{{MatchFields: []requirement{named("cluster_1")}}}, cluster: "cluster_2", want: affinity},
		{name: "two terms, the expressions match", affinity: []clusterSelectorTerm{{MatchFields: []requirement{named("cluster_1")}}, expr(in("foo", "bar"))}, cluster: "cluster_2", labels: map[string]string{"foo": "bar"}},
		{name: "one term, fields do not match", affinity: []clusterSelectorTerm{{MatchFields: []requirement{named("cluster_1")}, MatchExpressions: []requirement{in("foo", "bar")}}}, cluster: "cluster_2", labels: map[string]string{"foo": "bar"}, want: affinity},
		{name: "one term, both match", affinity: []clusterSelectorTerm{{MatchFields: []requirement{named("cluster_1")}, MatchExpressions: []requirement{in("foo", "bar")}}}, cluster: "cluster_1", labels: map[string]string{"foo": "bar"}},
		{name: "two terms, neither matches", affinity: []clusterSelectorTerm{{MatchFields: []requirement{named("cluster_1")}}, expr(in("foo", "not-match-to-bar"))}, cluster: "cluster_2", labels: map[string]string{"foo": "bar"}, want: affinity},
	} {
		u := &unit{clusterSelector: c.selector, affinity: c.affinity}
		got := u.filter(&policy.Cluster{Name: c.cluster, Labels: c.labels})
		if c.want == "" {
			assert.Empty(t, got, c.name)
		} else {
			assert.Contains(t, got, c.want, c.name)
		}
	}
}

// TestAPIResourcesAndPlacementFilters holds TestAPIResourcesFilter
// (framework/plugins/apiresources/apiresources_test.go) and
// TestPlacementFilterPlugin (framework/plugins/placement/filter_test.go),
// kubeadmiral 19de01c, plus ClusterReady and what the input leaves out.
func TestAPIResourcesAndPlacementFilters(t *testing.T) {
	u := &unit{apiResource: "apps/v1/DaemonSet"}
	assert.Empty(t, u.filter(&policy.Cluster{APIs: []string{"apps/v1/DaemonSet"}}))
	assert.Equal(t, "its status.apiResourceTypes does not list apps/v1/DaemonSet (APIResources filter)", u.filter(&policy.Cluster{APIs: []string{"apps/v1/Deployment"}}))
	assert.NotEmpty(t, u.filter(&policy.Cluster{APIs: []string{}}), "an empty list serves nothing")
	assert.Empty(t, u.filter(&policy.Cluster{}), "an unreported list is taken to serve everything")

	for name, c := range map[string]struct {
		names map[string]bool
		want  string
	}{
		"empty clusterNames":   {map[string]bool{}, ""},
		"nil clusterNames":     {nil, ""},
		"not in clusterNames":  {map[string]bool{"cluster2": true, "cluster3": true}, "not in the placement list (PlacementFilter)"},
		"in clusterNames":      {map[string]bool{"cluster1": true, "cluster2": true}, ""},
		"listed, but as false": {map[string]bool{"cluster1": false, "cluster2": true}, "not in the placement list (PlacementFilter)"},
	} {
		assert.Equal(t, c.want, (&unit{clusterNames: c.names}).filter(&policy.Cluster{Name: "cluster1"}), name)
	}

	for ready, want := range map[string]string{"": "", "True": "", "False": "its Ready condition is False, not True (ClusterReady filter)", "Unknown": "its Ready condition is Unknown, not True (ClusterReady filter)"} {
		assert.Equal(t, want, (&unit{}).filter(&policy.Cluster{Ready: ready}), ready)
	}
}

// scored is clusterresources' makeCluster: cpu in millicores, memory in
// bytes, plus GPUs when gpuAlloc is not negative.
func scored(name string, cpuAlloc, memAlloc, cpuAvail, memAvail, gpuAlloc, gpuAvail int64) *policy.Cluster {
	c := &policy.Cluster{Name: name, Resources: &policy.Resources{
		Allocatable: map[string]resource.Quantity{"cpu": *resource.NewMilliQuantity(cpuAlloc, resource.DecimalSI), "memory": *resource.NewQuantity(memAlloc, resource.BinarySI)},
		Available:   map[string]resource.Quantity{"cpu": *resource.NewMilliQuantity(cpuAvail, resource.DecimalSI), "memory": *resource.NewQuantity(memAvail, resource.BinarySI)},
	}}
	if gpuAlloc >= 0 {
		c.Resources.Allocatable[resourceGPU] = *resource.NewQuantity(gpuAlloc, resource.DecimalSI)
		c.Resources.Available[resourceGPU] = *resource.NewQuantity(gpuAvail, resource.DecimalSI)
	}
	return c
}

// TestResourceScores holds TestClusterResourcesBalancedAllocation and
// TestClusterResourcesLeastAllocated
// (framework/plugins/clusterresources/*_test.go, kubeadmiral 19de01c),
// except their cases with a non-GPU extended resource, which the unit
// never requests.
func TestResourceScores(t *testing.T) {
	for name, c := range []struct {
		cluster         *policy.Cluster
		req             podRequest
		balanced, least int64
	}{
		{scored("cluster1", 4000, 10000, 4000, 10000, -1, 0), podRequest{}, 100, 100},
		{scored("cluster1", 4000, 10000, 4000, 10000, -1, 0), podRequest{milliCPU: 3000, memory: 5000}, 87, 37},
		{scored("cluster2", 6000, 10000, 6000, 10000, -1, 0), podRequest{milliCPU: 3000, memory: 5000}, 100, 50},
		{scored("cluster1", 4000, 10000, 4000, 10000, 20000, 20000), podRequest{milliCPU: 3000, memory: 5000, gpu: 5000}, 79, -1},
		{scored("cluster2", 6000, 10000, 6000, 10000, 10000, 10000), podRequest{milliCPU: 3000, memory: 5000, gpu: 5000}, 100, 50},
		{scored("cluster1", 4000, 10000, 4000, 10000, 10000, 10000), podRequest{milliCPU: 3000, memory: 5000, gpu: 5000}, -1, 45},
		{scored("cluster1", 10000, 10000, 10000, 10000, 10000, 10000), podRequest{milliCPU: 6000, memory: 5000, gpu: 4000}, -1, 55},
		{scored("cluster2", 15000, 10000, 15000, 10000, 6700, 6700), podRequest{milliCPU: 6000, memory: 5000, gpu: 4000}, -1, 45},
		{scored("full", 4000, 10000, 0, 10000, -1, 0), podRequest{}, 0, 50},
		{&policy.Cluster{Name: "unreported"}, podRequest{gpu: 1}, 0, 0},
	} {
		capacity, requested, err := usage(c.cluster, c.req)
		require.NoError(t, err)
		if c.balanced >= 0 {
			assert.Equal(t, c.balanced, balancedAllocation(capacity, requested), "case %d balanced", name)
		}
		if c.least >= 0 {
			assert.Equal(t, c.least, leastAllocated(capacity, requested, c.req.gpu > 0), "case %d least", name)
		}
	}
	s, err := resourceScore(scored("idle", 4000, 10000, 4000, 10000, -1, 0), podRequest{})
	require.NoError(t, err)
	assert.Equal(t, int64(200), s)
}

// TestCheckSubtractable holds the statuses whose usage upstream leaves to
// Go map order.
func TestCheckSubtractable(t *testing.T) {
	q := resource.MustParse
	for name, c := range map[string]struct {
		alloc, avail map[string]resource.Quantity
		want         string
	}{
		"consistent":         {map[string]resource.Quantity{"cpu": q("2"), "memory": q("1Gi"), "pods": q("10")}, map[string]resource.Quantity{"cpu": q("1500m"), "memory": q("1Gi"), "pods": q("20")}, ""},
		"cpu over":           {map[string]resource.Quantity{"cpu": q("2")}, map[string]resource.Quantity{"cpu": q("2001m")}, "cluster x: status.resources.available[cpu] (2001m) exceeds its allocatable, so KubeAdmiral's resource scores would depend on Go map order: export a consistent FederatedCluster status"},
		"ephemeral over":     {nil, map[string]resource.Quantity{"ephemeral-storage": q("1")}, "cluster x: status.resources.available[ephemeral-storage] (1) exceeds"},
		"extended missing":   {map[string]resource.Quantity{}, map[string]resource.Quantity{"example.com/foo": q("0")}, "cluster x: status.resources.available[example.com/foo] (0) exceeds"},
		"hugepages over":     {map[string]resource.Quantity{"hugepages-2Mi": q("1")}, map[string]resource.Quantity{"hugepages-2Mi": q("2")}, "hugepages-2Mi"},
		"not scalar ignored": {nil, map[string]resource.Quantity{"requests.example.com/foo": q("3"), "example.com/bad name": q("3")}, ""},
	} {
		err := checkSubtractable("x", c.alloc, c.avail)
		if c.want == "" {
			assert.NoError(t, err, name)
		} else {
			assert.ErrorContains(t, err, c.want, name)
		}
	}
}

// TestFirstClusters holds TestPrioritySortSelectClusters
// (framework/plugins/prioritysort/priority_sort_test.go) and
// TestMaxClusterSelectClusters (framework/plugins/maxcluster/max_cluster_test.go),
// kubeadmiral 19de01c: the two run back to back, so an input order among
// equal scores never shows.
func TestFirstClusters(t *testing.T) {
	for _, c := range []struct {
		name   string
		scores map[string]int64
		k      *int64
		want   []string
	}{
		{"1 cluster", map[string]int64{"foo": 1}, nil, []string{"foo"}},
		{"2 clusters", map[string]int64{"foo": 1, "fun": 2}, nil, []string{"fun", "foo"}},
		{"same score", map[string]int64{"abc": 2, "fun": 2}, nil, []string{"abc", "fun"}},
		{"3 max clusters", map[string]int64{"foo": 1, "fun": 2}, i64(3), []string{"fun", "foo"}},
		{"1 max cluster", map[string]int64{"foo": 1, "fun": 2}, i64(1), []string{"fun"}},
		{"1 cluster, 0 max clusters", map[string]int64{"foo": 1}, i64(0), []string{}},
		{"no priority", map[string]int64{"foo": 1, "bar": 2}, nil, []string{"bar", "foo"}},
		{"3 clusters, 1 has priority", map[string]int64{"abc": 0, "bar": 0, "foo": 1}, nil, []string{"foo", "abc", "bar"}},
	} {
		cs := clusters(sortedKeys(c.scores)...)
		why := map[string]string{}
		kept, undecided := firstClusters(cs, c.scores, c.scores, c.k, "score", why)
		assert.Empty(t, undecided, c.name)
		assert.Equal(t, c.want, names(kept), c.name)
	}

	prio := func(p map[string]int64, mode bool, binpack bool) []string {
		u := &unit{priorities: p, divide: mode, binpack: binpack}
		kept, err := u.selectClusters(clusters("foo", "bar", "fun"), map[string]string{})
		require.NoError(t, err)
		return names(kept)
	}
	assert.Equal(t, []string{"foo", "bar", "fun"}, prio(map[string]int64{"bar": 50, "foo": 100}, false, false), "2 have priority")
	assert.Equal(t, []string{"bar", "foo", "fun"}, prio(map[string]int64{"bar": 1}, false, false), "1 has priority")
	assert.Equal(t, []string{"bar", "foo", "fun"}, prio(map[string]int64{"baz": 1}, false, false), "1 has priority, not in the list")
	assert.Equal(t, []string{"bar", "foo", "fun"}, prio(nil, true, true), "binpack without priorities: all 0, by name")

	_, err := (&unit{maxClusters: i64(-1)}).selectClusters(clusters("foo"), map[string]string{})
	assert.EqualError(t, err, "maxClusters is -1: KubeAdmiral's MaxCluster plugin fails the scheduling on a negative maxClusters, so the object goes nowhere; set it to 0 or more")
}

func ptrs(m map[string]int64) map[string]*int64 {
	out := map[string]*int64{}
	for k, v := range m {
		out[k] = i64(v)
	}
	return out
}

// TestReplicasPlugins holds TestClusterWeights, TestMinReplicas,
// TestMaxReplicas and TestNoScheduleTaint's case without current clusters
// (framework/plugins/rsp/rsp_test.go, kubeadmiral 19de01c); those tests
// leave avoidDisruption off and the key "".
func TestReplicasPlugins(t *testing.T) {
	all := map[string]bool{"cluster1": true, "cluster2": true, "cluster3": true}
	for _, c := range []struct {
		name     string
		u        unit
		clusters []*policy.Cluster
		want     map[string]int64
	}{
		{"Dynamic scheduling with no weights specified", unit{replicas: 10},
			[]*policy.Cluster{withCPU("cluster1", 200, 200), withCPU("cluster2", 300, 300), withCPU("cluster3", 500, 500)},
			map[string]int64{"cluster1": 2, "cluster2": 3, "cluster3": 5}},
		{"Static scheduling with weights specified", unit{replicas: 10, weights: map[string]int64{"cluster1": 2, "cluster2": 3, "cluster3": 5}},
			clusters("cluster1", "cluster2", "cluster3"), map[string]int64{"cluster1": 2, "cluster2": 3, "cluster3": 5}},
		{"Static scheduling with some weights specified", unit{replicas: 10, weights: map[string]int64{"cluster1": 2, "cluster2": 3}},
			clusters("cluster1", "cluster2", "cluster3"), map[string]int64{"cluster1": 4, "cluster2": 6}},
		{"MinReplicas should be respected", unit{replicas: 10, weights: map[string]int64{"cluster1": 2, "cluster2": 3, "cluster3": 5}, minReplicas: map[string]int64{"cluster1": 3, "cluster2": 3, "cluster3": 3}},
			clusters("cluster1", "cluster2", "cluster3"), map[string]int64{"cluster1": 3, "cluster2": 3, "cluster3": 4}},
		{"MaxReplicas is hard constraint", unit{replicas: 10, weights: map[string]int64{"cluster1": 2, "cluster2": 3, "cluster3": 5}, maxReplicas: map[string]int64{"cluster1": 1, "cluster2": 1, "cluster3": 1}},
			clusters("cluster1", "cluster2", "cluster3"), map[string]int64{"cluster1": 1, "cluster2": 1, "cluster3": 1}},
	} {
		c.u.divide, c.u.disruptive, c.u.clusterNames = true, true, all
		got, why, err := scheduleUnit(&c.u, c.clusters)
		require.NoError(t, err, c.name)
		assert.Equal(t, ptrs(c.want), got, c.name)
		for n := range why {
			assert.Contains(t, why[n], "assigned 0 replicas", c.name)
		}
	}

	// A NoSchedule taint caps the plugin at the current replicas, none for
	// a fresh object; scheduleUnit's filter drops such a cluster first.
	tainted := clusters("cluster1", "cluster2", "cluster3")
	tainted[0].Taints = []policy.Taint{{Key: "a", Value: "b", Effect: "NoSchedule"}}
	u := &unit{divide: true, replicas: 8, disruptive: true, weights: map[string]int64{"cluster1": 2, "cluster2": 3, "cluster3": 5}}
	got, err := u.divideReplicas(tainted)
	require.NoError(t, err)
	assert.Equal(t, map[string]int64{"cluster1": 0, "cluster2": 3, "cluster3": 5}, got)
}

// TestScheduleUnit runs whole units, including the spec's verified vectors
// (kubeadmiral 19de01c built offline, key "default/nginx").
func TestScheduleUnit(t *testing.T) {
	// Resources without cpu: upstream sums no available cpu and weighs
	// every cluster round(1000/3), as it does with no status at all.
	reported := func(ns ...string) []*policy.Cluster {
		cs := clusters(ns...)
		for _, c := range cs {
			c.Resources = &policy.Resources{}
		}
		return cs
	}
	run := func(u unit, cs []*policy.Cluster) (map[string]*int64, map[string]string) {
		t.Helper()
		got, why, err := scheduleUnit(&u, cs)
		require.NoError(t, err)
		return got, why
	}
	got, _ := run(unit{key: "default/nginx", divide: true, replicas: 10}, reported("c01", "c02", "c03"))
	assert.Equal(t, ptrs(map[string]int64{"c01": 2, "c02": 4, "c03": 4}), got)
	got, why := run(unit{key: "default/nginx", divide: true, replicas: 1}, reported("c01", "c02", "c03"))
	assert.Equal(t, ptrs(map[string]int64{"c02": 1}), got)
	assert.Equal(t, "assigned 0 replicas by the ClusterCapacityWeight planner, so the cluster receives nothing", why["c01"])
	got, why = run(unit{key: "default/nginx", divide: true, replicas: 10, weights: map[string]int64{"c01": 0, "c02": 0}}, clusters("c01", "c02"))
	assert.Empty(t, got)
	assert.Len(t, why, 2)
	got, _ = run(unit{key: "default/nginx", divide: true, replicas: 10, weights: map[string]int64{"c01": 1}, minReplicas: map[string]int64{"c02": 3}}, clusters("c01", "c02"))
	assert.Equal(t, ptrs(map[string]int64{"c01": 7, "c02": 3}), got)
	got, why = run(unit{key: "default/nginx", divide: true, binpack: true, replicas: 10, maxReplicas: map[string]int64{"c01": 4}}, clusters("c01", "c02", "c03"))
	assert.Equal(t, ptrs(map[string]int64{"c01": 4, "c02": 6}), got)
	assert.Equal(t, "assigned 0 replicas by the PreferenceBinPack planner, so the cluster receives nothing", why["c03"])

	// Duplicate: every selected cluster, with the template's replicas.
	cs := clusters("a", "b", "c")
	cs[2].Ready = "False"
	got, why = run(unit{replicas: 3}, cs)
	assert.Equal(t, map[string]*int64{"a": nil, "b": nil}, got)
	assert.Equal(t, map[string]string{"c": "its Ready condition is False, not True (ClusterReady filter)"}, why)

	// Divide with no replicas places nothing.
	got, why = run(unit{divide: true}, clusters("a"))
	assert.Empty(t, got)
	assert.Equal(t, "assigned 0 replicas: the object asks for 0, and Divide mode places no replica-less object", why["a"])

	// No feasible cluster is not a failure, even with a negative maxClusters.
	got, why = run(unit{maxClusters: i64(-2), clusterNames: map[string]bool{"z": true}}, clusters("a"))
	assert.Empty(t, got)
	assert.Len(t, why, 1)
	_, _, err := scheduleUnit(&unit{maxClusters: i64(-2)}, clusters("a"))
	assert.Error(t, err)

	// An invalid affinity term rejects the clusters that reach it.
	got, why = run(unit{affinity: []clusterSelectorTerm{{MatchExpressions: []requirement{{Key: "k", Operator: "In"}}}}}, clusters("a"))
	assert.Empty(t, got)
	assert.Contains(t, why["a"], "clusterAffinity is invalid (values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty)")

	_, _, err = scheduleUnit(&unit{weights: map[string]int64{"a": -1}}, clusters("a"))
	assert.EqualError(t, err, `the placement of cluster "a" sets weight -1: KubeAdmiral's CRD requires 0 or more, so set it to 0 or more`)
}

// TestScheduleUnitNeedsStatus holds where the outcome hangs on live
// resources the input lacks, and where it does not.
func TestScheduleUnitNeedsStatus(t *testing.T) {
	// Dynamic weights need every selected cluster's status.
	cs := []*policy.Cluster{withCPU("a", 4, 4), {Name: "b"}, {Name: "c"}}
	_, _, err := scheduleUnit(&unit{divide: true, replicas: 3}, cs)
	var missing *missingStatus
	require.ErrorAs(t, err, &missing)
	assert.Equal(t, []string{"b", "c"}, missing.clusters)
	assert.EqualError(t, err, "KubeAdmiral decides dynamic weights (no placement sets a weight) from FederatedCluster status.resources, which cluster(s) b, c do not report: export the FederatedCluster objects with their status (kubectl get federatedclusters.core.kubeadmiral.io -o yaml)")

	// GPU requests weigh by GPUs.
	gpus := []*policy.Cluster{withResource("a", resourceGPU, 1, 1), withResource("b", resourceGPU, 3, 3)}
	got, _, err := scheduleUnit(&unit{divide: true, replicas: 4, gpu: 1}, gpus)
	require.NoError(t, err)
	assert.Equal(t, ptrs(map[string]int64{"a": 1, "b": 3}), got)

	// maxClusters with scores: no status anywhere leaves only the taint
	// score, which the input decides.
	soft := []policy.Taint{{Key: "k", Effect: "PreferNoSchedule"}}
	cs = clusters("a", "b", "c")
	cs[0].Taints = soft
	got, why, err := scheduleUnit(&unit{maxClusters: i64(2)}, cs)
	require.NoError(t, err)
	assert.Equal(t, map[string]*int64{"b": nil, "c": nil}, got)
	assert.Equal(t, "not among the first 2 clusters by score (maxClusters)", why["a"])

	// Some with status, some without: undecided...
	cs = []*policy.Cluster{{Name: "a"}, {Name: "b"}, scored("c", 4000, 1<<30, 4000, 1<<30, -1, 0)}
	_, _, err = scheduleUnit(&unit{maxClusters: i64(1)}, cs)
	require.ErrorAs(t, err, &missing)
	assert.Equal(t, []string{"a", "b"}, missing.clusters)
	assert.Contains(t, err.Error(), "which 1 of the feasible clusters maxClusters keeps")

	// ...unless no resource score could change the choice.
	cs[0].Taints, cs[1].Taints = soft, soft
	got, why, err = scheduleUnit(&unit{maxClusters: i64(1)}, cs)
	require.NoError(t, err)
	assert.Equal(t, map[string]*int64{"c": nil}, got)
	assert.Len(t, why, 2)

	// Priorities decide without scores.
	got, _, err = scheduleUnit(&unit{maxClusters: i64(1), priorities: map[string]int64{"b": 1}}, cs)
	require.NoError(t, err)
	assert.Equal(t, map[string]*int64{"b": nil}, got)

	// A status whose available exceeds its allocatable cannot be scored.
	cs = []*policy.Cluster{scored("a", 1000, 1, 2000, 1, -1, 0), scored("b", 1000, 1, 1000, 1, -1, 0)}
	_, _, err = scheduleUnit(&unit{maxClusters: i64(1)}, cs)
	assert.ErrorContains(t, err, "cluster a: status.resources.available[cpu] (2) exceeds its allocatable")
	_, _, err = scheduleUnit(&unit{divide: true, replicas: 2, weights: map[string]int64{"a": 1}, maxClusters: i64(1), priorities: map[string]int64{"a": 1}}, cs)
	assert.NoError(t, err, "not scored when priorities decide")

	// An inconsistent status the dynamic weights cannot use.
	_, _, err = scheduleUnit(&unit{divide: true, replicas: 2}, []*policy.Cluster{withCPU("a", 0, 5), withCPU("b", 8, 0)})
	assert.ErrorContains(t, err, "export a consistent FederatedCluster status")
}
