// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyverno

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

// TestClaimsCELKinds: the kinds and versions `kyverno apply` v1.19.1
// loads are claimed, others are errors that list the versions, exceptions
// are errors and the other CEL policy kinds are ignored.
func TestClaimsCELKinds(t *testing.T) {
	for _, c := range []struct{ apiVersion, kind, err string }{
		{"policies.kyverno.io/v1alpha1", "MutatingPolicy", ""},
		{"policies.kyverno.io/v1beta1", "MutatingPolicy", ""},
		{"policies.kyverno.io/v1", "MutatingPolicy", ""},
		{"policies.kyverno.io/v1beta1", "NamespacedMutatingPolicy", ""},
		{"policies.kyverno.io/v1", "NamespacedMutatingPolicy", ""},
		{"policies.kyverno.io/v1alpha1", "NamespacedMutatingPolicy", "loads NamespacedMutatingPolicy in policies.kyverno.io/v1beta1, policies.kyverno.io/v1"},
		{"policies.kyverno.io/v2", "MutatingPolicy", "loads MutatingPolicy in policies.kyverno.io/v1alpha1, policies.kyverno.io/v1beta1, policies.kyverno.io/v1"},
		{"policies.kyverno.io/v1", "PolicyException", "policy exceptions are not applied offline"},
		{"policies.kyverno.io/v1", "ValidatingPolicy", ""},
	} {
		claimed, err := Dialect{}.Claims(c.apiVersion, c.kind)
		assert.True(t, claimed, c.apiVersion+" "+c.kind)
		if c.err == "" {
			assert.NoError(t, err, c.apiVersion+" "+c.kind)
		} else {
			assert.ErrorContains(t, err, c.err, c.apiVersion+" "+c.kind)
		}
	}
}

// TestMutatingPolicyErrorsNameTheField: a policy that cannot be applied
// offline is an error naming the policy and the field.
func TestMutatingPolicyErrorsNameTheField(t *testing.T) {
	head := "apiVersion: policies.kyverno.io/v1\nkind: MutatingPolicy\nmetadata: {name: p}\nspec:\n"
	rules := "  matchConstraints:\n    resourceRules:\n    - {apiGroups: [\"\"], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}\n"
	for name, c := range map[string]struct{ spec, field, msg string }{
		"no rules":       {"  mutations: []\n", "spec.matchConstraints.resourceRules", "Required value"},
		"patch type":     {rules + "  mutations:\n  - patchType: Merge\n", "spec.mutations[0].patchType", `Unsupported value: "Merge"`},
		"syntax":         {rules + "  mutations:\n  - patchType: JSONPatch\n    jsonPatch: {expression: '[JSONPatch{'}\n", "spec.mutations[0].jsonPatch.expression", "compilation failed"},
		"output type":    {rules + "  mutations:\n  - patchType: JSONPatch\n    jsonPatch: {expression: '1'}\n", "spec.mutations[0].jsonPatch.expression", "output is expected to be of type list"},
		"mutateExisting": {rules + "  evaluation: {mutateExisting: {enabled: true}}\n", "spec.evaluation.mutateExisting.enabled", "not applied offline"},
		"unknown field":  {rules + "  mutation: []\n", "spec", `unknown field "mutation"`},
		"variable":       {rules + "  variables:\n  - {name: v, expression: 'resource.Get(\"v1\", \"configmaps\", \"\", \"x\")'}\n", "spec.variables[0].expression", "not available offline"},
	} {
		_, errs := compileSet(t, nil, head+c.spec)
		require.Len(t, errs, 1, name)
		var pe *policy.Error
		require.ErrorAs(t, errs[0], &pe, name)
		assert.Equal(t, "p", pe.Policy.Name, name)
		assert.Equal(t, c.field, pe.Field, name)
		assert.ErrorContains(t, errs[0], c.msg, name)
	}
}

// TestMutatingPolicyKeepsComments: a mutation's result is reconciled onto
// the node, so comments, styles and key order of what it keeps stay, and
// a missing namespace (matched as "default") is not written.
func TestMutatingPolicyKeepsComments(t *testing.T) {
	sets, errs := compileSet(t, nil, `apiVersion: policies.kyverno.io/v1
kind: MutatingPolicy
metadata: {name: mode}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}
  matchConditions:
  - {name: default-ns, expression: "request.namespace == 'default'"}
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: 'Object{data: {"mode": "prod"}}'
`)
	require.Empty(t, errs)
	res := yaml.MustParse(`apiVersion: v1
kind: ConfigMap
metadata:
  name: cm # the name
data:
  z: "1" # last key first
  mode: dev # replaced
`)
	n, err := policy.Apply(policy.NewResource(res), sets)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.Equal(t, `apiVersion: v1
kind: ConfigMap
metadata:
  name: cm # the name
data:
  z: "1" # last key first
  mode: prod # replaced
`, res.MustString())
}

// TestCELNamespacesAsRead: the input's Namespace objects are read once,
// as copies without the orchestrators' wire annotations and in their
// typed form (spec and status present, unknown fields dropped); a
// Namespace that is not one is an error naming it, its file and the fix.
func TestCELNamespacesAsRead(t *testing.T) {
	ns := yaml.MustParse(`apiVersion: v1
kind: Namespace
metadata:
  name: shop
  labels: {team: payments}
  annotations:
    config.kubernetes.io/path: ns.yaml
    internal.config.kubernetes.io/index: "0"
unknown: 1
`)
	got, errs := readCELNamespaces([]*yaml.RNode{ns})
	require.Empty(t, errs)
	assert.Equal(t, map[string]any{
		"apiVersion": "v1", "kind": "Namespace",
		"metadata": map[string]any{"name": "shop", "labels": map[string]any{"team": "payments"}},
		"spec":     map[string]any{}, "status": map[string]any{},
	}, got["shop"])
	// The copy is independent of the node: a later edit of the node
	// (the Namespace admitted on another core) is not seen.
	require.NoError(t, ns.SetLabels(map[string]string{"team": "changed"}))
	assert.Equal(t, map[string]any{"team": "payments"}, got["shop"]["metadata"].(map[string]any)["labels"])

	bad := yaml.MustParse("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: dev\n  annotations: {config.kubernetes.io/path: ns.yaml}\nspec: {finalizers: 5}\n")
	_, errs = readCELNamespaces([]*yaml.RNode{bad})
	require.Len(t, errs, 1)
	assert.ErrorContains(t, errs[0], "v1 Namespace dev (file ns.yaml)")
	assert.ErrorContains(t, errs[0], "fix the Namespace object")
}
