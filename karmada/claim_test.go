// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

func resourceOf(t *testing.T, s string) *policy.Resource {
	t.Helper()
	return policy.NewResource(yaml.MustParse(s))
}

func mustPP(t *testing.T, kind, name, spec string) *propagationPolicy {
	t.Helper()
	meta := "metadata: {name: " + name + ", namespace: test}"
	if kind == KindClusterPropagationPolicy {
		meta = "metadata: {name: " + name + "}"
	}
	obj := yaml.MustParse("apiVersion: policy.karmada.io/v1alpha1\nkind: " + kind + "\n" + meta + "\nspec:\n" + spec)
	p, errs := decodePropagation(obj, policy.RefOf(obj))
	require.Empty(t, errs)
	return p
}

// TestIgnoredTemplate holds the templates the detector never considers
// (karmada v1.16.0 pkg/detector/detector_test.go TestEventFilter,
// TestGVRDisabled).
func TestIgnoredTemplate(t *testing.T) {
	for in, want := range map[string]string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: karmada-system}":                                               "namespace karmada-system is reserved for Karmada",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: karmada-es-member1}":                                           "namespace karmada-es-member1 is reserved for Karmada",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: kube-public}":                                                  "namespace kube-public is skipped by --skipped-propagating-namespaces (default kube-.*)",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: extension-apiserver-authentication, namespace: kube-system}":                 "namespace kube-system is skipped by --skipped-propagating-namespaces (default kube-.*)",
		"apiVersion: v1\nkind: Event\nmetadata: {name: a, namespace: default}":                                                          "the detector skips API group v1",
		"apiVersion: events.k8s.io/v1\nkind: Event\nmetadata: {name: a, namespace: default}":                                            "the detector skips API group events.k8s.io/v1",
		"apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata: {name: a, namespace: default}":                                      "the detector skips API group coordination.k8s.io/v1",
		"apiVersion: v1\nkind: Service\nmetadata: {name: a, namespace: default, labels: {resourcetemplate.karmada.io/claimed-by: mcs}}": "it is claimed by mcs (label resourcetemplate.karmada.io/claimed-by)",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: kube}":                                                         "",
		"apiVersion: v1\nkind: Namespace\nmetadata: {name: kube-system}":                                                                "",
	} {
		assert.Equal(t, want, ignoredTemplate(resourceOf(t, in)), in)
	}
}

func TestClaimKeepsClaimMetadata(t *testing.T) {
	byName := mustPP(t, KindPropagationPolicy, "a-by-name", "  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]\n")
	claimed := mustPP(t, KindPropagationPolicy, "z-claimed", "  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]\n")
	c := newClaimer([]*propagationPolicy{byName, claimed}, nil)
	const dep = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: test\n"
	p, why := c.claim(resourceOf(t, dep))
	require.Empty(t, why)
	assert.Equal(t, "a-by-name", p.ref.Name, "no claim metadata: the best policy")

	withClaim := dep + "  labels: {propagationpolicy.karmada.io/permanent-id: x}\n  annotations: {propagationpolicy.karmada.io/namespace: test, propagationpolicy.karmada.io/name: z-claimed}\n"
	p, _ = c.claim(resourceOf(t, withClaim))
	assert.Equal(t, "z-claimed", p.ref.Name, "a claimed template stays with its policy")

	gone := dep + "  labels: {propagationpolicy.karmada.io/permanent-id: x}\n  annotations: {propagationpolicy.karmada.io/namespace: test, propagationpolicy.karmada.io/name: deleted}\n"
	p, _ = c.claim(resourceOf(t, gone))
	assert.Equal(t, "a-by-name", p.ref.Name, "a claim naming a missing policy is matched afresh")

	other := mustPP(t, KindPropagationPolicy, "cm-only", "  resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]\n")
	c = newClaimer([]*propagationPolicy{other}, nil)
	stale := dep + "  labels: {propagationpolicy.karmada.io/permanent-id: x}\n  annotations: {propagationpolicy.karmada.io/namespace: test, propagationpolicy.karmada.io/name: cm-only}\n"
	p, why = c.claim(resourceOf(t, stale))
	assert.Nil(t, p)
	assert.Equal(t, "PropagationPolicy test/cm-only claims it (claim metadata), but its resourceSelectors no longer select it", why)
}

func TestClaimClusterWide(t *testing.T) {
	cpp := mustPP(t, KindClusterPropagationPolicy, "all", "  resourceSelectors: [{apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole}]\n  dependentOverrides: [roles]\n")
	c := newClaimer([]*propagationPolicy{cpp}, map[string]bool{"/roles": true})
	p, why := c.claim(resourceOf(t, "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: reader}\n"))
	require.Empty(t, why)
	assert.Equal(t, "all", p.ref.Name, "a cluster-scoped resource is claimed by a ClusterPropagationPolicy whose dependent ClusterOverridePolicy exists")

	c = newClaimer([]*propagationPolicy{cpp}, map[string]bool{"default/roles": true})
	p, why = c.claim(resourceOf(t, "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: reader}\n"))
	assert.Nil(t, p)
	assert.Equal(t, "ClusterPropagationPolicy all waits for ClusterOverridePolicy roles named in spec.dependentOverrides, which the input does not hold", why)

	p, why = c.claim(resourceOf(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: test}\n"))
	assert.Nil(t, p)
	assert.Equal(t, "no PropagationPolicy or ClusterPropagationPolicy selects it", why)
}

func TestAutoPropagatedNamespace(t *testing.T) {
	for in, want := range map[string]bool{
		"apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}":                                                              true,
		"apiVersion: v1\nkind: Namespace\nmetadata: {name: default}":                                                           false,
		"apiVersion: v1\nkind: Namespace\nmetadata: {name: kube-node-lease}":                                                   false,
		"apiVersion: v1\nkind: Namespace\nmetadata: {name: karmada-system}":                                                    false,
		"apiVersion: v1\nkind: Namespace\nmetadata: {name: x, labels: {namespace.karmada.io/skip-auto-propagation: \"TRUE\"}}": false,
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: shop}":                                                              false,
	} {
		assert.Equal(t, want, autoPropagatedNamespace(resourceOf(t, in)), in)
	}
}
