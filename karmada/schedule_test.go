// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/apply-overrides/apply-overrides/policy"
)

func TestPlacementZones(t *testing.T) {
	assert.Equal(t, []string{"a"}, placementZones(&policy.Cluster{Zone: "a"}), "the legacy zone becomes the only zone")
	assert.Equal(t, []string{"b", "c"}, placementZones(&policy.Cluster{Zone: "a", Zones: []string{"b", "c"}}))
	ok, why := placementMatches(&policy.Cluster{Name: "m", Zones: []string{"a"}}, &clusterAffinity{FieldSelector: &fieldSelector{MatchExpressions: []requirement{{Key: "zone", Operator: "NotIn", Values: []string{"a"}}}}})
	assert.False(t, ok)
	assert.Equal(t, "not matched by clusterAffinity.fieldSelector (zone NotIn [a]; the cluster's zones: [a])", why)
	ok, why = placementMatches(&policy.Cluster{Name: "m", Region: "eu"}, &clusterAffinity{FieldSelector: &fieldSelector{MatchExpressions: []requirement{{Key: "region", Operator: "In", Values: []string{"us"}}}}})
	assert.False(t, ok)
	assert.Equal(t, "not matched by clusterAffinity.fieldSelector", why)
	ok, _ = placementMatches(&policy.Cluster{Name: "m", Labels: map[string]string{"env": "prod"}}, &clusterAffinity{LabelSelector: &labelSelector{MatchLabels: map[string]string{"env": "prod"}}, ClusterNames: []string{"m"}})
	assert.True(t, ok)
	_, why = placementMatches(&policy.Cluster{Name: "x"}, &clusterAffinity{ClusterNames: []string{"m"}})
	assert.Equal(t, "not in clusterAffinity.clusterNames", why)
}

// TestSelectByCluster holds selectBestClustersByCluster and
// selectClustersByAvailableResource (karmada v1.16.0
// pkg/scheduler/core/spreadconstraint/select_clusters_test.go
// TestSelectBestClusters).
func TestSelectByCluster(t *testing.T) {
	a, b, c, d := &policy.Cluster{Name: "a"}, &policy.Cluster{Name: "b"}, &policy.Cluster{Name: "c"}, &policy.Cluster{Name: "d"}
	feasible := []*policy.Cluster{a, b, c, d} // canonical order
	avail := map[string]int64{"a": 10, "b": 5, "c": 3, "d": 30}
	divided := &replicaScheduling{ReplicaSchedulingType: schedulingDivided, ReplicaDivisionPreference: divisionAggregated}
	spread := []spreadConstraint{{SpreadByField: "cluster", MinGroups: 1, MaxGroups: 2}}

	got, err := selectClusters(&placement{SpreadConstraints: spread}, feasible, avail, 40)
	require.NoError(t, err)
	assert.Equal(t, []*policy.Cluster{a, b}, got, "no replicaScheduling: capacity does not count")

	got, err = selectClusters(&placement{SpreadConstraints: spread, ReplicaScheduling: divided}, feasible, avail, 40)
	require.NoError(t, err)
	assert.Equal(t, []*policy.Cluster{a, d}, got, "the last picked is swapped for the roomiest unpicked")

	_, err = selectClusters(&placement{SpreadConstraints: spread, ReplicaScheduling: divided}, feasible, avail, 100)
	assert.EqualError(t, err, "no enough resource when selecting 2 clusters")

	_, err = selectClusters(&placement{SpreadConstraints: []spreadConstraint{{SpreadByField: "cluster", MinGroups: 5}}}, feasible, avail, 1)
	assert.EqualError(t, err, "the number of feasible clusters is less than spreadConstraint.MinGroups")

	_, err = selectClusters(&placement{SpreadConstraints: []spreadConstraint{{SpreadByLabel: "team", MinGroups: 1}}}, feasible, avail, 1)
	assert.EqualError(t, err, "just support cluster and region spread constraint")

	got, err = selectClusters(&placement{SpreadConstraints: spread, ReplicaScheduling: &replicaScheduling{ReplicaSchedulingType: schedulingDivided, ReplicaDivisionPreference: divisionWeighted}}, feasible, avail, 40)
	require.NoError(t, err)
	assert.Equal(t, feasible, got, "static weights ignore the spread constraints")
}

func TestMatchDependency(t *testing.T) {
	present := map[resourceKey]*policy.Resource{}
	for _, s := range []string{
		"apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata: {name: s1, namespace: ns, labels: {kubernetes.io/service-name: derived-web}}",
		"apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata: {name: s2, namespace: ns, labels: {kubernetes.io/service-name: other}}",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: conf, namespace: ns}",
	} {
		r := resourceOf(t, s)
		present[keyOf(r)] = r
	}
	assert.Equal(t, []resourceKey{{"discovery.k8s.io/v1", "EndpointSlice", "ns", "s1"}},
		matchDependency(dependency{apiVersion: "discovery.k8s.io/v1", kind: "EndpointSlice", namespace: "ns", selector: map[string]string{"kubernetes.io/service-name": "derived-web"}}, present))
	assert.Equal(t, []resourceKey{{"v1", "ConfigMap", "ns", "conf"}}, matchDependency(dependency{apiVersion: "v1", kind: "ConfigMap", namespace: "ns", name: "conf"}, present))
	assert.Nil(t, matchDependency(dependency{apiVersion: "v1", kind: "ConfigMap", namespace: "ns", name: "missing"}, present))
}
