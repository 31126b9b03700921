// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubefleet

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

// TestSubstitute holds the variable replacement to upstream's
// replaceClusterLabelKeyVariables (workgenerator/override_test.go
// TestReplaceClusterLabelKeyVariables @78e6ca7): the key ends at the next
// "}", wherever it is, and the name variable is replaced first.
func TestSubstitute(t *testing.T) {
	c := &policy.Cluster{Name: "member1", Labels: map[string]string{"region": "eastus", "a": "x"}}
	for name, tc := range map[string]struct{ in, want, err string }{
		"name":              {in: `"${MEMBER-CLUSTER-NAME}-web"`, want: `"member1-web"`},
		"label twice":       {in: `"${MEMBER-CLUSTER-LABEL-KEY-region}/${MEMBER-CLUSTER-LABEL-KEY-region}"`, want: `"eastus/eastus"`},
		"key":               {in: `{"${MEMBER-CLUSTER-LABEL-KEY-a}":1}`, want: `{"x":1}`},
		"misspelt":          {in: `"${MEMBER-CLUSTER-Name}"`, want: `"${MEMBER-CLUSTER-Name}"`},
		"brace of the next": {in: `["${MEMBER-CLUSTER-LABEL-KEY-a","b}"]`, err: `label key a","b not found on cluster member1`},
		"no brace":          {in: `"${MEMBER-CLUSTER-LABEL-KEY-a"`, err: "missing the closing bracket"},
		"missing":           {in: `"${MEMBER-CLUSTER-LABEL-KEY-zone}"`, err: "label key zone not found on cluster member1"},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := substitute(tc.in, c)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestDecodeCluster(t *testing.T) {
	obj := yaml.MustParse(`apiVersion: cluster.kubernetes-fleet.io/v1beta1
kind: MemberCluster
metadata: {name: m1, labels: {env: prod}}
spec:
  identity: {kind: ServiceAccount, name: a, namespace: fleet-system}
  taints: [{key: k, value: v, effect: NoSchedule}]
status:
  conditions: [{type: Joined, status: "True"}]
  agentStatus:
  - type: MemberAgent
    conditions: [{type: Joined, status: "True"}]
  properties: {kubernetes-fleet.io/node-count: {value: "3"}}
  resourceUsage: {capacity: {cpu: "8"}, available: {memory: 2Gi}}
`)
	c, err := Dialect{}.DecodeCluster(obj)
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"kubernetes-fleet.io/node-count": "3"}, c.Properties)
	assert.Equal(t, []policy.Taint{{Key: "k", Value: "v", Effect: "NoSchedule"}}, c.Taints)
	assert.Equal(t, "health condition from member agent is not available", ineligible(&c)[len("cluster is not connected to the fleet: "):])
	q, err := propertyOf(&c, "resources.kubernetes-fleet.io/total-cpu")
	require.NoError(t, err)
	assert.Equal(t, "8", q.String())
	q, err = propertyOf(&c, "resources.kubernetes-fleet.io/available-memory")
	require.NoError(t, err)
	assert.Equal(t, "2Gi", q.String())
	_, err = propertyOf(&c, "resources.kubernetes-fleet.io/used-cpu")
	assert.ErrorContains(t, err, "invalid capacity type used")

	bad := yaml.MustParse("apiVersion: cluster.kubernetes-fleet.io/v1\nkind: MemberCluster\nmetadata: {name: m1}\nstatus: {resourceUsage: {capacity: {cpu: lots}}}\n")
	_, err = Dialect{}.DecodeCluster(bad)
	assert.ErrorContains(t, err, "status.resourceUsage.capacity[cpu]")
}

func TestClaims(t *testing.T) {
	for _, tc := range []struct {
		apiVersion, kind string
		claimed          bool
		err              string
	}{
		{"placement.kubernetes-fleet.io/v1alpha1", "ResourceOverride", true, ""},
		{"placement.kubernetes-fleet.io/v1alpha1", "ClusterResourcePlacement", true, "served versions are v1, v1beta1"},
		{"placement.kubernetes-fleet.io/v1beta1", "ClusterStagedUpdateRun", true, ""},
		{"apps/v1", "Deployment", false, ""},
		{"placement.kubernetes-fleet.io/v1beta1", "Clusterresourceoverride", true, "looks like"},
	} {
		ok, err := Dialect{}.Claims(tc.apiVersion, tc.kind)
		assert.Equal(t, tc.claimed, ok, tc.apiVersion+" "+tc.kind)
		if tc.err == "" {
			assert.NoError(t, err, tc.apiVersion+" "+tc.kind)
		} else {
			assert.ErrorContains(t, err, tc.err)
		}
	}
}

// TestStrip holds what the hub strips from a Job (generateRawContent): the
// generated selector labels unless manualSelector is set.
func TestStrip(t *testing.T) {
	job := yaml.MustParse(`apiVersion: batch/v1
kind: Job
metadata:
  name: j
  annotations: {kubectl.kubernetes.io/last-applied-configuration: "{}"}
spec:
  selector:
    matchLabels: {batch.kubernetes.io/controller-uid: u, app: j} # kept: app
  template:
    metadata:
      labels: {controller-uid: u, app: j}
status: {active: 1}
`)
	require.True(t, needsStrip(job))
	_, err := stripFilter{}.Filter(job)
	require.NoError(t, err)
	assert.Equal(t, `apiVersion: batch/v1
kind: Job
metadata:
  name: j
spec:
  selector:
    matchLabels: {app: j} # kept: app
  template:
    metadata:
      labels: {app: j}
`, job.MustString())
	assert.False(t, needsStrip(job))
}

// TestNamespaceWithResourceSelectors: the named Namespace, and the
// namespaced resources of the other selectors inside it only.
func TestNamespaceWithResourceSelectors(t *testing.T) {
	var nodes []*yaml.RNode
	for _, s := range []string{
		"apiVersion: v1\nkind: Namespace\nmetadata: {name: prod}",
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a, namespace: prod, labels: {tier: fe}}",
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: b, namespace: prod}",
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: c, namespace: other, labels: {tier: fe}}",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: d, namespace: prod}",
	} {
		nodes = append(nodes, yaml.MustParse(s))
	}
	p := &placement{ref: policy.Ref{Kind: KindClusterResourcePlacement, Name: "x"}, spec: placementSpec{ResourceSelectors: []resourceSelector{
		{Version: "v1", Kind: "Namespace", Name: "prod", SelectionScope: "NamespaceWithResourceSelectors"},
		{Group: "apps", Version: "v1", Kind: "Deployment", LabelSelector: &labelSelector{MatchLabels: map[string]string{"tier": "fe"}}},
	}}}
	sel, err := readInput(nodes).selectResources(p)
	require.NoError(t, err)
	assert.Equal(t, map[string]bool{"v1|Namespace||prod": true, "apps/v1|Deployment|prod|a": true}, sel)
}

// TestNamespaceWithResourceSelectorsNone: the error for a named
// Namespace that selects nothing says why — missing from the input, being
// deleted, or reserved.
func TestNamespaceWithResourceSelectorsNone(t *testing.T) {
	nodes := []*yaml.RNode{
		yaml.MustParse("apiVersion: v1\nkind: Namespace\nmetadata: {name: kube-system}"),
		yaml.MustParse("apiVersion: v1\nkind: Namespace\nmetadata: {name: old, deletionTimestamp: '2026-01-01T00:00:00Z'}"),
	}
	for name, want := range map[string]string{
		"prod":        `the input holds no Namespace "prod"`,
		"old":         `Namespace "old" is being deleted (metadata.deletionTimestamp)`,
		"kube-system": "namespace kube-system is not allowed to propagate (the fleet-* and kube-* namespaces are reserved)",
	} {
		p := &placement{ref: policy.Ref{Kind: KindClusterResourcePlacement, Name: "x"}, spec: placementSpec{ResourceSelectors: []resourceSelector{
			{Version: "v1", Kind: "Namespace", Name: name, SelectionScope: "NamespaceWithResourceSelectors"},
		}}}
		_, err := readInput(nodes).selectResources(p)
		assert.EqualError(t, err, "ClusterResourcePlacement x: spec.resourceSelectors: NamespaceWithResourceSelectors mode requires exactly one namespace, but no namespaces were selected: "+want, name)
	}
}
