// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package corpus

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/karmada"
	"github.com/apply-overrides/apply-overrides/policy"
)

func TestResourceList(t *testing.T) {
	b := ResourceList(6, 4)
	assert.Equal(t, string(b), string(ResourceList(6, 4)), "deterministic")
	rl, err := yaml.Parse(string(b))
	require.NoError(t, err)
	assert.Equal(t, "ResourceList", rl.GetKind())
	assert.Equal(t, "member1", rl.Field("functionConfig").Value.GetDataMap()["cluster"])

	items, err := rl.Pipe(yaml.Lookup("items"))
	require.NoError(t, err)
	nodes, err := items.Elements()
	require.NoError(t, err)
	kinds := map[string]int{}
	var resources, policies []*yaml.RNode
	for _, n := range nodes {
		kinds[n.GetKind()]++
		if ok, err := (karmada.Dialect{}).Claims(n.GetApiVersion(), n.GetKind()); err == nil && ok {
			policies = append(policies, n)
		} else if n.GetKind() != "Cluster" {
			resources = append(resources, n)
		}
	}
	assert.Equal(t, map[string]int{"Deployment": 2, "ConfigMap": 2, "Service": 2, "ClusterOverridePolicy": 1, "OverridePolicy": 4, "Cluster": 1}, kinds)

	// The policies are valid and target member1; the first Deployment
	// gets the mirror registry and its namespace's policy.
	bound, errs := policy.CompileFor(karmada.Dialect{}, policies, policy.Target{Cluster: &policy.Cluster{Name: "member1", Labels: map[string]string{"env": "prod"}}})
	require.Empty(t, errs)
	dep := resources[0]
	require.Equal(t, "app-000-00000", dep.GetName())
	n, err := policy.Apply(policy.NewResource(dep), bound.Sets)
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	assert.Equal(t, "p-0000", dep.GetLabels()["policy"])
	img, err := dep.Pipe(yaml.Lookup("spec", "template", "spec", "containers", "0", "image"))
	require.NoError(t, err)
	assert.Equal(t, "mirror.example.com/app-000:1.0", yaml.GetValue(img))
	assert.Contains(t, dep.MustString(), "# pinned", "the resources carry comments")

	_, err = kio.FromBytes(ResourceList(0, 0))
	require.NoError(t, err)
}
