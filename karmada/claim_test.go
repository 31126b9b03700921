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

// TestContest: the policy that claims a resource, and why each other one
// that selects it does not, in the detector's precedence.
func TestContest(t *testing.T) {
	const dep = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: test\n  labels: {app: web}\n"
	byName := mustPP(t, KindPropagationPolicy, "by-name", "  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]\n")
	byLabel := mustPP(t, KindPropagationPolicy, "by-label", "  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, labelSelector: {matchLabels: {app: web}}}]\n")
	urgent := mustPP(t, KindPropagationPolicy, "urgent", "  priority: 5\n  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]\n")
	alsoByName := mustPP(t, KindPropagationPolicy, "a-by-name", "  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]\n")
	cpp := mustPP(t, KindClusterPropagationPolicy, "cluster-wide", "  priority: 100\n  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]\n")
	waiting := mustPP(t, KindPropagationPolicy, "waiting", "  priority: 9\n  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]\n  dependentOverrides: [missing]\n")
	cm := mustPP(t, KindPropagationPolicy, "configmaps", "  resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]\n")

	lost := func(c policy.Claim) map[string]string {
		m := map[string]string{}
		for _, l := range c.Lost {
			m[l.Policy.Name] = l.Why
		}
		return m
	}
	c := newClaimer([]*propagationPolicy{byName, byLabel, alsoByName, cpp, cm}, nil)
	got := c.contest(resourceOf(t, dep))
	require.NotNil(t, got.By)
	assert.Equal(t, "a-by-name", got.By.Name)
	assert.Equal(t, map[string]string{
		"by-name":      "PropagationPolicy test/a-by-name claims it first: at the same spec.priority and selector precision, the policy whose name sorts first wins",
		"by-label":     "PropagationPolicy test/a-by-name claims it first: at the same spec.priority, its selector by name beats one by labelSelector",
		"cluster-wide": "PropagationPolicy test/a-by-name claims it first: a PropagationPolicy of the resource's namespace takes precedence over every ClusterPropagationPolicy",
	}, lost(got), "configmaps does not select it")

	c = newClaimer([]*propagationPolicy{byName, urgent}, nil)
	assert.Equal(t, map[string]string{"by-name": "PropagationPolicy test/urgent claims it first: its spec.priority 5 is higher than 0"}, lost(c.contest(resourceOf(t, dep))))

	c = newClaimer([]*propagationPolicy{byName, waiting}, nil)
	got = c.contest(resourceOf(t, dep))
	assert.Nil(t, got.By, "the detector does not fall back while the best policy waits")
	assert.Equal(t, map[string]string{
		"waiting": "PropagationPolicy test/waiting waits for OverridePolicy test/missing named in spec.dependentOverrides, which the input does not hold",
		"by-name": "PropagationPolicy test/waiting comes first: its spec.priority 9 is higher than 0, and PropagationPolicy test/waiting waits for OverridePolicy test/missing named in spec.dependentOverrides, which the input does not hold",
	}, lost(got))

	c = newClaimer([]*propagationPolicy{cpp}, nil)
	got = c.contest(resourceOf(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: kube-system}\n"))
	assert.Nil(t, got.By)
	assert.Equal(t, map[string]string{"cluster-wide": "Karmada's detector ignores it: namespace kube-system is skipped by --skipped-propagating-namespaces (default kube-.*)"}, lost(got))

	assert.Equal(t, policy.Claim{}, c.contest(resourceOf(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: test}\n")), "selected by none")
}
