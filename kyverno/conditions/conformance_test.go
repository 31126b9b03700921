// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package conditions

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The precondition halves of the conformance cases in
// testdata/conformance/kyverno (named in each test), checked per resource.

func pod(t *testing.T, y string) any {
	t.Helper()
	return fromYAML(t, y)
}

func TestConformanceDeprecatedInAndWildcardEquals(t *testing.T) {
	// pre-deprecated-in-and-wildcard-equals: any + all must both pass.
	pre := fromYAML(t, `
any:
  - key: "{{ request.object.metadata.namespace }}"
    operator: In
    value:
      - team-*
all:
  - key: "{{ request.object.metadata.name }}"
    operator: Equals
    value: "web-*"
`)
	for resource, want := range map[string]bool{
		"{metadata: {name: web-1, namespace: team-a}}": true,
		"{metadata: {name: web-2, namespace: ops}}":    false,
		"{metadata: {name: db-1, namespace: team-b}}":  false,
	} {
		ok, _, err := Evaluate(pre, fixture{resource: pod(t, resource)}.subst)
		require.NoError(t, err)
		assert.Equal(t, want, ok, resource)
	}
	require.NoError(t, Validate(pre, "validate.preconditions"))
}

func TestConformanceEqualsIsTypeStrict(t *testing.T) {
	// pre-equals-is-type-strict: a bool key only equals a bool value.
	res := pod(t, `{spec: {hostNetwork: true}}`)
	for value, want := range map[string]bool{`"true"`: false, `true`: true} {
		pre := fromYAML(t, `
all:
  - key: "{{ request.object.spec.hostNetwork }}"
    operator: Equals
    value: `+value)
		ok, _, err := Evaluate(pre, fixture{resource: res}.subst)
		require.NoError(t, err)
		assert.Equal(t, want, ok, value)
	}
}

func TestConformanceGreaterThanQuantity(t *testing.T) {
	// pre-greaterthan-quantity.
	pre := fromYAML(t, `
all:
  - key: "{{ request.object.spec.containers[0].resources.requests.memory }}"
    operator: GreaterThan
    value: 512Mi
`)
	for memory, want := range map[string]bool{"1Gi": true, "256Mi": false} {
		res := pod(t, `{spec: {containers: [{name: app, resources: {requests: {memory: `+memory+`}}}]}}`)
		ok, _, err := Evaluate(pre, fixture{resource: res}.subst)
		require.NoError(t, err)
		assert.Equal(t, want, ok, memory)
	}
}

func TestConformanceOldListFormEquals(t *testing.T) {
	// pre-old-list-form-equals: the plain list form, a quoted label key.
	pre := fromYAML(t, `
- key: '{{ request.object.metadata.labels."app.kubernetes.io/managed-by"}}'
  operator: Equals
  value: Helm
`)
	for manager, want := range map[string]bool{"Helm": true, "Kustomize": false} {
		res := pod(t, `{metadata: {labels: {app.kubernetes.io/managed-by: `+manager+`}}}`)
		ok, _, err := Evaluate(pre, fixture{resource: res}.subst)
		require.NoError(t, err)
		assert.Equal(t, want, ok, manager)
	}
}

func TestConformanceForEachElementPrecondition(t *testing.T) {
	// fe-remove-by-element-precondition-descending: a literal key looked up
	// in a list produced by a variable.
	pre := fromYAML(t, `
all:
  - key: hostPath
    operator: AnyIn
    value: "{{ element.keys(@) }}"
`)
	for keys, want := range map[string]bool{
		"[name, hostPath]": true,
		"[name, emptyDir]": false,
	} {
		f := fixture{vars: map[string]any{"element.keys(@)": fromYAML(t, keys)}}
		ok, _, err := EvaluateForEach(pre, f.subst)
		require.NoError(t, err)
		assert.Equal(t, want, ok, keys)
	}
	require.NoError(t, ValidateForEach(pre, "mutate.foreach.conditions"))
}

func TestConformanceAnyInWildcardsAndAllNotIn(t *testing.T) {
	// pre-anyin-wildcards-and-allnotin (spec §5): wildcards both ways.
	pre := fromYAML(t, `
all:
  - key: "{{ request.object.spec.containers[].name }}"
    operator: AnyIn
    value: ["istio-*", "linkerd-proxy"]
  - key: "{{ request.object.metadata.namespace }}"
    operator: AllNotIn
    value: ["kube-*"]
`)
	names := func(ns string, containers ...string) fixture {
		list := make([]any, 0, len(containers))
		for _, c := range containers {
			list = append(list, c)
		}
		return fixture{
			resource: map[string]any{"metadata": map[string]any{"namespace": ns}},
			vars:     map[string]any{"request.object.spec.containers[].name": list},
		}
	}
	for name, tc := range map[string]struct {
		f    fixture
		want bool
	}{
		"sidecar by pattern":     {f: names("apps", "app", "istio-proxy"), want: true},
		"sidecar by exact name":  {f: names("apps", "linkerd-proxy"), want: true},
		"no sidecar":             {f: names("apps", "app")},
		"excluded namespace":     {f: names("kube-system", "istio-proxy")},
		"namespace pattern item": {f: names("kube*", "istio-proxy")},
	} {
		ok, _, err := Evaluate(pre, tc.f.subst)
		require.NoError(t, err)
		assert.Equal(t, tc.want, ok, name)
	}
}

func TestConformanceMissingKeyErrors(t *testing.T) {
	// pre-missing-key-errors (spec §5): a missing key is an error even
	// inside `any`, and evaluation stops there.
	pre := fromYAML(t, `
any:
  - key: "{{ request.object.metadata.labels.team }}"
    operator: Equals
    value: a
  - key: x
    operator: Equals
    value: x
`)
	_, _, err := Evaluate(pre, fixture{resource: pod(t, `{metadata: {name: p}}`)}.subst)
	require.Error(t, err)
	assert.EqualError(t, err, `failed to substitute variables in condition key: failed to resolve request.object.metadata.labels.team at path : JMESPath query failed: Unknown key "labels" in path`)
}

func TestConformanceInvalidPreconditionOperator(t *testing.T) {
	// err-invalid-precondition-operator (spec §2 item 6).
	pre := fromYAML(t, `
all:
  - key: "{{ request.object.metadata.name }}"
    operator: Equals
    value: a
  - key: "{{ request.object.metadata.name }}"
    operator: Contains
    value: a
`)
	err := Validate(pre, "validate.preconditions")
	require.Error(t, err)
	assert.Equal(t, "validate.preconditions.any[1].: entered value of `operator` is invalid. valid values: "+
		`["Equal" "Equals" "NotEqual" "NotEquals" "In" "AnyIn" "AllIn" "NotIn" "AnyNotIn" "AllNotIn" `+
		`"GreaterThanOrEquals" "GreaterThan" "LessThanOrEquals" "LessThan" "DurationGreaterThanOrEquals" `+
		`"DurationGreaterThan" "DurationLessThanOrEquals" "DurationLessThan"]`, err.Error())
}
