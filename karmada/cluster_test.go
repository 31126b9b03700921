// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

// A Cluster as karmada-controller-manager's status controller fills it in
// (pkg/apis/cluster/v1alpha1/types.go at v1.16.0).
const fullCluster = `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: member1
  labels: {env: prod}
spec:
  provider: aws
  region: us-east-1
  zones: [us-east-1a, us-east-1b]
  taints:
  - {key: maintenance, value: "true", effect: NoSchedule}
status:
  conditions:
  - {type: Ready, status: "True", reason: ClusterReady}
  apiEnablements:
  - groupVersion: apps/v1
    resources:
    - {name: deployments, kind: Deployment}
    - {name: statefulsets, kind: StatefulSet}
  - groupVersion: v1
    resources:
    - {name: configmaps, kind: ConfigMap}
  resourceSummary:
    allocatable: {cpu: "16", memory: 64Gi, pods: "220"}
    allocating: {cpu: 500m}
    allocated: {cpu: "4", memory: 8Gi}
`

func TestDecodeCluster(t *testing.T) {
	c, err := Dialect{}.DecodeCluster(yaml.MustParse(fullCluster))
	require.NoError(t, err)
	assert.Equal(t, policy.Cluster{
		Name: "member1", Labels: map[string]string{"env": "prod"},
		Provider: "aws", Region: "us-east-1", Zones: []string{"us-east-1a", "us-east-1b"},
		Taints: []policy.Taint{{Key: "maintenance", Value: "true", Effect: "NoSchedule"}},
		Ready:  "True",
		APIs:   []string{"apps/v1/Deployment", "apps/v1/StatefulSet", "v1/ConfigMap"},
		Resources: &policy.Resources{
			Allocatable: map[string]resource.Quantity{"cpu": resource.MustParse("16"), "memory": resource.MustParse("64Gi"), "pods": resource.MustParse("220")},
			Allocating:  map[string]resource.Quantity{"cpu": resource.MustParse("500m")},
			Allocated:   map[string]resource.Quantity{"cpu": resource.MustParse("4"), "memory": resource.MustParse("8Gi")},
		},
		Source: policy.Ref{APIVersion: ClusterAPIVersion, Kind: ClusterKind, Name: "member1"},
	}, c)
}

func TestDecodeClusterWithoutStatus(t *testing.T) {
	c, err := Dialect{}.DecodeCluster(yaml.MustParse("apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: member2}\n"))
	require.NoError(t, err)
	assert.Equal(t, "", c.Ready, "no status: readiness unknown")
	assert.Nil(t, c.Resources)
	assert.Nil(t, c.APIs)
}

func TestDecodeClusterErrors(t *testing.T) {
	for name, c := range map[string]struct{ in, want string }{
		"no name": {"apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {labels: {a: b}}\n",
			"cluster.karmada.io/v1alpha1 Cluster : metadata.name: Required value"},
		"bad quantity": {"apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: m}\nstatus: {resourceSummary: {allocated: {cpu: four}}}\n",
			`cluster.karmada.io/v1alpha1 Cluster m: status.resourceSummary.allocated[cpu]: Invalid value: "four": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': write a Kubernetes quantity, e.g. 8, 500m or 32Gi`},
		"bad shape": {"apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: m}\nspec: {taints: yes}\n",
			"cluster.karmada.io/v1alpha1 Cluster m: yaml: unmarshal errors:\n  line 4: cannot unmarshal !!str `yes` into []policy.Taint"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Dialect{}.DecodeCluster(yaml.MustParse(c.in))
			assert.EqualError(t, err, c.want)
		})
	}
}

func TestDecodeClusterResourceModels(t *testing.T) {
	c, err := Dialect{}.DecodeCluster(yaml.MustParse(`apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: m}
spec:
  resourceModels:
  - grade: 0
    ranges:
    - {name: cpu, min: "0", max: "1"}
    - {name: memory, min: "0", max: 4Gi}
  - grade: 1
    ranges:
    - {name: cpu, min: "1", max: "2"}
    - {name: memory, min: 4Gi, max: 16Gi}
status:
  resourceSummary:
    allocatableModelings:
    - {grade: 0, count: 2}
    - {grade: 1, count: 3}
`))
	require.NoError(t, err)
	require.NotNil(t, c.Resources)
	assert.Equal(t, []policy.Modeling{{Grade: 0, Count: 2}, {Grade: 1, Count: 3}}, c.Resources.Modelings)
	require.Len(t, c.Resources.Models, 2)
	assert.Equal(t, uint(1), c.Resources.Models[1].Grade)
	assert.Equal(t, policy.ResourceRange{Min: resource.MustParse("4Gi"), Max: resource.MustParse("16Gi")}, c.Resources.Models[1].Ranges["memory"])

	_, err = Dialect{}.DecodeCluster(yaml.MustParse("apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: m}\nspec: {resourceModels: [{grade: 0, ranges: [{name: cpu, min: x, max: \"1\"}]}]}\n"))
	assert.ErrorContains(t, err, `spec.resourceModels[0].ranges[0][min]: Invalid value: "x"`)
}

func TestDecodeClusterEmptyAPIEnablements(t *testing.T) {
	c, err := Dialect{}.DecodeCluster(yaml.MustParse("apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: m}\nstatus: {apiEnablements: []}\n"))
	require.NoError(t, err)
	assert.NotNil(t, c.APIs, "an empty list is reported: the cluster serves no API the scheduler looks for")
	assert.Empty(t, c.APIs)
}
