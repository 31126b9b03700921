// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubeadmiral

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

// A FederatedCluster as KubeAdmiral's cluster controller fills it in
// (pkg/apis/core/v1alpha1/types_federatedcluster.go).
const fullCluster = `apiVersion: core.kubeadmiral.io/v1alpha1
kind: FederatedCluster
metadata:
  name: kubeadmiral-member-1
  labels: {region: east}
spec:
  apiEndpoint: https://member1.example.com
  taints:
  - {key: dedicated, value: gpu, effect: NoExecute}
status:
  conditions:
  - {type: Joined, status: "True"}
  - {type: Ready, status: "False", reason: ClusterNotReachable}
  apiResourceTypes:
  - {group: apps, version: v1, kind: Deployment, pluralName: deployments, scope: Namespaced}
  - {group: "", version: v1, kind: ConfigMap, pluralName: configmaps, scope: Namespaced}
  resources:
    schedulableNodes: 3
    allocatable: {cpu: "12", memory: 48Gi}
    available: {cpu: "5", memory: 20Gi}
`

func TestDecodeCluster(t *testing.T) {
	c, err := Dialect{}.DecodeCluster(yaml.MustParse(fullCluster))
	require.NoError(t, err)
	three := int64(3)
	assert.Equal(t, policy.Cluster{
		Name: "kubeadmiral-member-1", Labels: map[string]string{"region": "east"},
		Taints: []policy.Taint{{Key: "dedicated", Value: "gpu", Effect: "NoExecute"}},
		Ready:  "False",
		Joined: "True",
		APIs:   []string{"apps/v1/Deployment", "v1/ConfigMap"},
		Resources: &policy.Resources{
			SchedulableNodes: &three,
			Allocatable:      map[string]resource.Quantity{"cpu": resource.MustParse("12"), "memory": resource.MustParse("48Gi")},
			Available:        map[string]resource.Quantity{"cpu": resource.MustParse("5"), "memory": resource.MustParse("20Gi")},
		},
		Source: policy.Ref{APIVersion: ClusterAPIVersion, Kind: ClusterKind, Name: "kubeadmiral-member-1"},
	}, c)
}

func TestDecodeClusterErrors(t *testing.T) {
	for name, c := range map[string]struct{ in, want string }{
		"no name": {"apiVersion: core.kubeadmiral.io/v1alpha1\nkind: FederatedCluster\nmetadata: {}\n",
			"core.kubeadmiral.io/v1alpha1 FederatedCluster : metadata.name: Required value"},
		"bad quantity": {"apiVersion: core.kubeadmiral.io/v1alpha1\nkind: FederatedCluster\nmetadata: {name: m}\nstatus: {resources: {available: {memory: 1x}}}\n",
			`core.kubeadmiral.io/v1alpha1 FederatedCluster m: status.resources.available[memory]: Invalid value: "1x": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': write a Kubernetes quantity, e.g. 8, 500m or 32Gi`},
		"bad shape": {"apiVersion: core.kubeadmiral.io/v1alpha1\nkind: FederatedCluster\nmetadata: {name: m}\nstatus: {conditions: {a: b}}\n",
			"core.kubeadmiral.io/v1alpha1 FederatedCluster m: yaml: unmarshal errors:\n  line 4: cannot unmarshal !!map into []policy.condition"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Dialect{}.DecodeCluster(yaml.MustParse(c.in))
			assert.EqualError(t, err, c.want)
		})
	}
}

// TestUnmatchedTargetWarns holds the warning for an override rule whose
// targetClusters match no cluster of the inventory.
func TestUnmatchedTargetWarns(t *testing.T) {
	op := yaml.MustParse(`apiVersion: core.kubeadmiral.io/v1alpha1
kind: OverridePolicy
metadata: {name: op, namespace: default}
spec:
  overrideRules:
  - targetClusters: {clusters: [member-1]}
    overriders: {labels: [{operator: addIfAbsent, value: {a: b}}]}
  - targetClusters: {}
    overriders: {labels: [{operator: addIfAbsent, value: {c: d}}]}
`)
	ps, errs := Dialect{}.Compile([]*yaml.RNode{op})
	require.Empty(t, errs)
	fleet := []*policy.Cluster{{Name: "member1"}}
	_, errs = ps.For(policy.Target{Cluster: fleet[0], Fleet: fleet, Placement: policy.PlacementAuto})
	require.Len(t, errs, 1)
	assert.True(t, policy.IsWarning(errs[0]))
	assert.EqualError(t, errs[0], "OverridePolicy default/op: spec.overrideRules[0].targetClusters matches no cluster of the inventory (member1), so the rule applies nowhere: check its cluster names and labels")
}

func TestGPURequested(t *testing.T) {
	for in, want := range map[string]bool{
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\nspec: {template: {spec: {containers: [{name: c, resources: {limits: {nvidia.com/gpu: 1}}}]}}}":                            true,
		"apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: a}\nspec: {jobTemplate: {spec: {template: {spec: {initContainers: [{name: c, resources: {requests: {nvidia.com/gpu: 0}}}]}}}}}": true,
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\nspec: {template: {spec: {containers: [{name: c, resources: {limits: {cpu: 1}}}]}}}":                                       false,
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {note: nvidia.com/gpu}":                                                                                                   false,
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\nspec: {template: 3}":                                                                                                      false,
	} {
		assert.Equal(t, want, gpuRequested(policy.NewResource(yaml.MustParse(in))), in)
	}
}
