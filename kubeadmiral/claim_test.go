// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubeadmiral

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

// TestContest: the propagation policy a resource's labels name claims it;
// a ClusterPropagationPolicy label loses to a PropagationPolicy label,
// even one naming a policy the input lacks (no fallback); a resource
// KubeAdmiral does not federate is claimed by none.
func TestContest(t *testing.T) {
	ps := &placements{pps: map[string]*propagationPolicy{}}
	for _, obj := range []string{
		"apiVersion: core.kubeadmiral.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: web, namespace: shop}\nspec: {schedulingMode: Duplicate}\n",
		"apiVersion: core.kubeadmiral.io/v1alpha1\nkind: ClusterPropagationPolicy\nmetadata: {name: all}\nspec: {schedulingMode: Duplicate}\n",
	} {
		n := yaml.MustParse(obj)
		ref := policy.RefOf(n)
		p, errs := decodePropagation(n, ref)
		require.Empty(t, errs)
		key, ok := propagationKey(ref)
		require.True(t, ok)
		ps.pps[key] = p
	}
	contest := func(labels string) policy.Claim {
		return ps.contest(policy.NewResource(yaml.MustParse("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\n  labels: {" + labels + "}\n")))
	}
	lost := func(c policy.Claim) map[string]string {
		m := map[string]string{}
		for _, l := range c.Lost {
			m[l.Policy.String()] = l.Why
		}
		return m
	}

	got := contest(PropagationPolicyLabel + ": web, " + ClusterPropagationPolicyLabel + ": all")
	require.NotNil(t, got.By)
	assert.Equal(t, "PropagationPolicy shop/web", got.By.String())
	assert.Equal(t, map[string]string{"ClusterPropagationPolicy all": "its label kubeadmiral.io/propagation-policy-name names PropagationPolicy shop/web, which KubeAdmiral reads before label kubeadmiral.io/cluster-propagation-policy-name"}, lost(got))

	got = contest(PropagationPolicyLabel + ": gone, " + ClusterPropagationPolicyLabel + ": all")
	assert.Nil(t, got.By)
	assert.Equal(t, map[string]string{"ClusterPropagationPolicy all": "label kubeadmiral.io/propagation-policy-name names PropagationPolicy shop/gone, which the input does not hold (KubeAdmiral does not fall back to a ClusterPropagationPolicy)"}, lost(got))

	got = contest(ClusterPropagationPolicyLabel + ": all")
	require.NotNil(t, got.By)
	assert.Equal(t, "ClusterPropagationPolicy all", got.By.String())
	assert.Empty(t, got.Lost)

	assert.Equal(t, policy.Claim{}, contest("app: web"), "named by no label")

	unfed := ps.contest(policy.NewResource(yaml.MustParse("apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  namespace: shop\n  labels: {" + PropagationPolicyLabel + ": web}\n")))
	assert.Nil(t, unfed.By)
	assert.Equal(t, map[string]string{"PropagationPolicy shop/web": "KubeAdmiral federates no example.com/v1 Widget: no default FederatedTypeConfig has it as source type"}, lost(unfed))
}
