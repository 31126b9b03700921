// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package oracle

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/apply-overrides/apply-overrides/oracle/harness/quiet"
	"github.com/apply-overrides/apply-overrides/oracle/harness/rl"
)

func TestMain(m *testing.M) {
	quiet.Klog()
	os.Exit(m.Run())
}

// run admits the items of a ResourceList's YAML (items only).
func run(t *testing.T, items string) *Result {
	t.Helper()
	l, err := rl.Decode([]byte("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" + items))
	require.NoError(t, err)
	res, err := Run(l.Items)
	require.NoError(t, err)
	return res
}

func admitted(t *testing.T, res *Result, name string) Admitted {
	t.Helper()
	for _, a := range res.Resources {
		if a.Name == name {
			return a
		}
	}
	t.Fatalf("no resource %s in %+v", name, res)
	return Admitted{}
}

// path returns the JSON of the value at a dotted path of an outcome's
// object.
func path(t *testing.T, o Outcome, dotted string) string {
	t.Helper()
	require.Empty(t, o.Error)
	var v any = o.Object
	for _, p := range strings.Split(dotted, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[p]
		default:
			v = nil
		}
	}
	data, err := json.Marshal(v)
	require.NoError(t, err)
	return string(data)
}

const deployment = `
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: d1, namespace: default}
  spec:
    replicas: 1
    selector: {matchLabels: {app: d1}}
    template:
      metadata: {labels: {app: d1}}
      spec:
        containers: [{name: app, image: nginx}]
- apiVersion: v1
  kind: Namespace
  metadata: {name: default, labels: {env: prod}}
`

func policy(name, extra, mutations string) string {
	return `
- apiVersion: admissionregistration.k8s.io/v1
  kind: MutatingAdmissionPolicy
  metadata: {name: ` + name + `}
  spec:
    matchConstraints:
      resourceRules:
      - {apiGroups: [apps], apiVersions: [v1], operations: ["*"], resources: [deployments]}
` + extra + `
    mutations:
` + mutations + `
- apiVersion: admissionregistration.k8s.io/v1
  kind: MutatingAdmissionPolicyBinding
  metadata: {name: ` + name + `-binding}
  spec: {policyName: ` + name + `}
`
}

func applyConfiguration(expr string) string {
	return "    - patchType: ApplyConfiguration\n      applyConfiguration:\n        expression: '" + expr + "'\n"
}

func jsonPatch(expr string) string {
	return "    - patchType: JSONPatch\n      jsonPatch:\n        expression: '" + expr + "'\n"
}

// paramPolicy is a policy of the version with a ConfigMap paramKind and
// one mutation, and its binding (of bindingVersion) with paramRef.
func paramPolicy(version, bindingVersion, mutation, paramRef string) string {
	return `
- apiVersion: admissionregistration.k8s.io/` + version + `
  kind: MutatingAdmissionPolicy
  metadata: {name: policy1}
  spec:
    paramKind: {apiVersion: v1, kind: ConfigMap}
    matchConstraints:
      resourceRules:
      - {apiGroups: [apps], apiVersions: [v1], operations: ["*"], resources: [deployments]}
    mutations:
` + mutation + `
- apiVersion: admissionregistration.k8s.io/` + bindingVersion + `
  kind: MutatingAdmissionPolicyBinding
  metadata: {name: binding}
  spec:
    policyName: policy1
    paramRef: ` + paramRef + `
`
}

// Kubernetes' dispatcher_test.go TestDispatcher "with param": replicas
// plus a param's value (here a v1beta1 policy with a v1alpha1 binding).
func TestParam(t *testing.T) {
	res := run(t, deployment+`
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: cm1, namespace: default}
  data: {key: "10"}
`+paramPolicy("v1beta1", "v1alpha1", applyConfiguration(`Object{spec: Object.spec{replicas: object.spec.replicas + int(params.data["key"])}}`),
		"{name: cm1, namespace: default, parameterNotFoundAction: Deny}"))
	a := admitted(t, res, "d1")
	require.Len(t, a.Outcomes, 1)
	assert.Equal(t, "11", path(t, a.Outcomes[0], "spec.replicas"))
	assert.Equal(t, `"apps/v1"`, path(t, a.Outcomes[0], "apiVersion"))
}

// A param that is not there: parameterNotFoundAction Deny denies, Allow
// leaves the resource as it is (generic/policy_dispatcher.go CollectParams).
func TestParamNotFound(t *testing.T) {
	for action, denied := range map[string]bool{"Deny": true, "Allow": false} {
		res := run(t, deployment+paramPolicy("v1", "v1", applyConfiguration(`Object{spec: Object.spec{replicas: 5}}`),
			"{name: absent, parameterNotFoundAction: "+action+"}"))
		a := admitted(t, res, "d1")
		require.Len(t, a.Outcomes, 1, action)
		if denied {
			assert.Contains(t, a.Outcomes[0].Error, "no params found for policy binding with `Deny` parameterNotFoundAction")
		} else {
			assert.Equal(t, "1", path(t, a.Outcomes[0], "spec.replicas"))
		}
	}
}

// Kubernetes' dispatcher_test.go TestDispatcher "1st policy sets match
// condition that 2nd policy matches": in that order both labels are set;
// in the other order (a live server's order is its map's) the second
// policy's match condition is false when it runs and, without
// reinvocation, only the first label is set.
func TestOrderDependentMatchCondition(t *testing.T) {
	res := run(t, deployment+
		policy("policy1", "", applyConfiguration(`Object{metadata: Object.metadata{labels: {"environment": "production"}}}`))+
		policy("policy2", `    matchConditions:
    - name: prodonly
      expression: 'object.?metadata.labels["environment"].orValue("") == "production"'`,
			applyConfiguration(`Object{metadata: Object.metadata{labels: {"policy1invoked": "true"}}}`)))
	a := admitted(t, res, "d1")
	require.Len(t, a.Outcomes, 2)
	assert.Equal(t, `{"environment":"production","policy1invoked":"true"}`, path(t, a.Outcomes[0], "metadata.labels"))
	assert.Contains(t, a.Outcomes[0].Orders, "policies=policy1,policy2")
	assert.Equal(t, `{"environment":"production"}`, path(t, a.Outcomes[1], "metadata.labels"))
	assert.Contains(t, a.Outcomes[1].Orders, "policies=policy2,policy1")
}

// Reinvocation (reinvocationcontext_test.go, dispatcher.go): an IfNeeded
// policy runs once more when a later policy changed the object; a Never
// policy does not.
func TestReinvocation(t *testing.T) {
	for reinvocation, want := range map[string]string{"IfNeeded": `"2"`, "Never": `"none"`} {
		res := run(t, deployment+
			policy("copier", "    reinvocationPolicy: "+reinvocation,
				applyConfiguration(`Object{metadata: Object.metadata{labels: {"copy": object.metadata.?labels["src"].orValue("none")}}}`))+
			policy("setter", "", applyConfiguration(`Object{metadata: Object.metadata{labels: {"src": "2"}}}`)))
		a := admitted(t, res, "d1")
		assert.Equal(t, want, path(t, a.Outcomes[0], "metadata.labels.copy"), reinvocation)
		assert.Contains(t, a.Outcomes[0].Orders, "policies=copier,setter", reinvocation)
	}
}

// Kubernetes' plugin_test.go TestSSAMapList: an apply configuration merges
// a list-map (containers) by its key, name.
func TestListMapMerge(t *testing.T) {
	res := run(t, deployment+policy("p", "", applyConfiguration(
		`Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{containers: [Object.spec.template.spec.containers{name: "app", image: "nginx:1.27"}, Object.spec.template.spec.containers{name: "side", image: "busybox"}]}}}}`)))
	a := admitted(t, res, "d1")
	assert.Equal(t, `[{"image":"nginx:1.27","name":"app"},{"image":"busybox","name":"side"}]`, path(t, a.Outcomes[0], "spec.template.spec.containers"))
}

// JSONPatch with an escaped key (json_patch_test.go: jsonpatch.escapeKey)
// and a patch that cannot apply: failurePolicy Fail denies, Ignore admits
// the object unchanged.
func TestJSONPatchAndFailurePolicy(t *testing.T) {
	res := run(t, deployment+policy("p", "", jsonPatch(
		`[JSONPatch{op: "add", path: "/metadata/labels", value: {}}, JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("example.com/a~b"), value: "x"}]`)))
	assert.Equal(t, `{"example.com/a~b":"x"}`, path(t, admitted(t, res, "d1").Outcomes[0], "metadata.labels"))

	for fp, denied := range map[string]bool{"Fail": true, "Ignore": false} {
		res := run(t, deployment+policy("p", "    failurePolicy: "+fp, jsonPatch(`[JSONPatch{op: "remove", path: "/metadata/labels/absent"}]`)))
		o := admitted(t, res, "d1").Outcomes[0]
		if denied {
			assert.Contains(t, o.Error, `remove operation does not apply: doc is missing path: "/metadata/labels/absent"`, fp)
		} else {
			assert.Empty(t, o.Error, fp)
		}
	}
}

// The namespaceSelector reads the Namespace objects of the input.
func TestNamespaceSelector(t *testing.T) {
	for env, want := range map[string]string{"prod": `"x"`, "dev": "null"} {
		res := run(t, deployment+policy("p", "      namespaceSelector: {matchLabels: {env: "+env+"}}",
			applyConfiguration(`Object{metadata: Object.metadata{labels: {"ns": "x"}}}`)))
		assert.Equal(t, want, path(t, admitted(t, res, "d1").Outcomes[0], "metadata.labels.ns"), env)
	}
}
