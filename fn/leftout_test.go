// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

func TestNotPlacedResult(t *testing.T) {
	n, err := yaml.Parse(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
  annotations:
    internal.config.kubernetes.io/path: web.yaml
    internal.config.kubernetes.io/index: '0'
`)
	require.NoError(t, err)
	pp := &policy.Ref{APIVersion: "policy.karmada.io/v1alpha1", Kind: "PropagationPolicy", Namespace: "shop", Name: "web", File: "policies.yaml"}
	cpp := &policy.Ref{APIVersion: "policy.karmada.io/v1alpha1", Kind: "ClusterPropagationPolicy", Name: "all", File: "cluster.yaml"}
	excluded := &policy.Placement{By: pp, Reason: "PropagationPolicy shop/web: excluded by clusterAffinity.exclude"}
	none := &policy.Placement{Reason: "no PropagationPolicy or ClusterPropagationPolicy selects it"}
	other := &policy.Placement{By: cpp, Reason: "ClusterPropagationPolicy all: excluded by clusterAffinity.exclude"}
	c := func(name string) *policy.Cluster { return &policy.Cluster{Name: name} }

	var one notPlaced
	one.add(n, c("member2"), excluded)
	assert.Equal(t, leftOut(n, c("member2"), excluded), one.result(), "left out of one cluster: the single-cluster run's result")

	var some notPlaced
	some.add(n, c("member1"), excluded)
	some.add(n, c("member2"), none)
	some.add(n, c("member3"), excluded)
	some.add(n, c("member4"), other)
	want := &framework.Result{
		Severity: framework.Info,
		Message: "apps/v1 Deployment shop/web is not placed on clusters member1, member3: PropagationPolicy shop/web: excluded by clusterAffinity.exclude" +
			"; on cluster member2: no PropagationPolicy or ClusterPropagationPolicy selects it" +
			"; on cluster member4: ClusterPropagationPolicy all: excluded by clusterAffinity.exclude",
		ResourceRef: &yaml.ResourceIdentifier{
			TypeMeta: yaml.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
			NameMeta: yaml.NameMeta{Name: "web", Namespace: "shop"},
		},
		File: &framework.File{Path: "web.yaml"},
		Tags: map[string]string{"policy": "PropagationPolicy shop/web, ClusterPropagationPolicy all", policyFileTag: "policies.yaml, cluster.yaml"},
	}
	assert.Equal(t, want, some.result())

	var same notPlaced
	same.add(n, c("member1"), none)
	same.add(n, c("member2"), none)
	assert.Equal(t, "apps/v1 Deployment shop/web is not placed on clusters member1, member2: no PropagationPolicy or ClusterPropagationPolicy selects it", same.result().Message)
	assert.Nil(t, same.result().Tags, "no policy decided")
}
