// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package admissionpolicy

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

func TestClaims(t *testing.T) {
	for _, v := range []string{"v1", "v1beta1", "v1alpha1"} {
		for _, k := range []string{KindPolicy, KindBinding} {
			ok, err := Dialect{}.Claims(Group+"/"+v, k)
			assert.True(t, ok, v+" "+k)
			assert.NoError(t, err, v+" "+k)
		}
	}
	ok, err := Dialect{}.Claims(Group+"/v2", KindPolicy)
	assert.True(t, ok)
	assert.ErrorContains(t, err, "Kubernetes v1.36 serves MutatingAdmissionPolicy in v1, v1beta1, v1alpha1")
	for _, k := range []string{"ValidatingAdmissionPolicy", "MutatingWebhookConfiguration"} {
		ok, err := Dialect{}.Claims(Group+"/v1", k)
		assert.False(t, ok, k)
		assert.NoError(t, err, k)
	}
	assert.True(t, Dialect{}.Observes("v1", "Namespace"))
}

// compileText compiles the policies of a YAML stream.
func compileText(t testing.TB, text string) (policy.Policies, []error) {
	t.Helper()
	nodes, err := kio.FromBytes([]byte(text))
	require.NoError(t, err)
	return Dialect{}.Compile(nodes)
}

const matchConfigMaps = `    matchConstraints:
      resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}]
`

func TestCompileErrors(t *testing.T) {
	for name, tc := range map[string]struct{ text, want string }{
		"unknown field": {`apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: p}
spec:
` + matchConfigMaps + `    mutation: []
`, `MutatingAdmissionPolicy p: unknown field "spec.mutation": remove the field or fix its spelling`},
		"no matchConstraints": {`apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: p}
spec:
  mutations: [{patchType: JSONPatch, jsonPatch: {expression: '[JSONPatch{op: "test", path: "/kind", value: "ConfigMap"}]'}}]
`, "MutatingAdmissionPolicy p: spec.matchConstraints: Required value"},
		"patch type": {`apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: p}
spec:
` + matchConfigMaps + `    mutations: [{patchType: StrategicMerge}]
`, `spec.mutations[0].patchType: Unsupported value: "StrategicMerge": supported values: "ApplyConfiguration", "JSONPatch"`},
		"expression type": {`apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: p}
spec:
` + matchConfigMaps + `    mutations: [{patchType: ApplyConfiguration, applyConfiguration: {expression: "'a'"}}]
`, "spec.mutations[0].applyConfiguration.expression: Invalid value"},
		"variable": {`apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: p}
spec:
` + matchConfigMaps + `    variables: [{name: v, expression: "object.("}]
    mutations: [{patchType: JSONPatch, jsonPatch: {expression: '[JSONPatch{op: "test", path: "/kind", value: "ConfigMap"}]'}}]
`, "spec.variables[0].expression: Invalid value"},
		"paramRef name and selector": {`apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: b}
spec:
  policyName: p
  paramRef: {name: x, selector: {}, parameterNotFoundAction: Allow}
`, "MutatingAdmissionPolicyBinding b: spec.paramRef.name: Forbidden: name and selector are mutually exclusive"},
		"paramRef action": {`apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: b}
spec:
  policyName: p
  paramRef: {name: x}
`, "spec.paramRef.parameterNotFoundAction: Required value"},
		"duplicate": {`apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: b}
spec: {policyName: p}
---
apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicyBinding
metadata: {name: b}
spec: {policyName: p}
`, "MutatingAdmissionPolicyBinding b"},
	} {
		t.Run(name, func(t *testing.T) {
			_, errs := compileText(t, tc.text)
			require.NotEmpty(t, errs)
			var msgs []string
			for _, e := range errs {
				msgs = append(msgs, e.Error())
			}
			assert.Contains(t, strings.Join(msgs, "\n"), tc.want)
		})
	}
}

func TestForScopingAndWarnings(t *testing.T) {
	ps, errs := compileText(t, `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: prod-only}
spec:
`+matchConfigMaps+`    mutations: [{patchType: JSONPatch, jsonPatch: {expression: '[JSONPatch{op: "test", path: "/kind", value: "ConfigMap"}]'}}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: prod-only}
spec: {policyName: prod-only}
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: unbound}
spec:
`+matchConfigMaps+`    mutations: [{patchType: JSONPatch, jsonPatch: {expression: '[JSONPatch{op: "test", path: "/kind", value: "ConfigMap"}]'}}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: orphan}
spec: {policyName: gone}
`)
	require.Empty(t, errs)
	b, warnings := ps.For(policy.Target{})
	require.Len(t, warnings, 2)
	assert.ErrorContains(t, warnings[0], `MutatingAdmissionPolicyBinding orphan: names MutatingAdmissionPolicy "gone", which is not in the input`)
	assert.ErrorContains(t, warnings[1], "MutatingAdmissionPolicy unbound: no MutatingAdmissionPolicyBinding names it")
	assert.Len(t, b.Sets, 1)
	assert.Equal(t, []policy.Ref{ps.(*policies).list[0].ref}, b.Overrides)
	assert.False(t, b.PlacesWhole)

	scoped, _ := ps.For(policy.Target{Admission: &policy.Selection{Scoped: []string{"prod-*"}}})
	assert.Empty(t, scoped.Sets, "prod-only is scoped to other clusters")
	selected, _ := ps.For(policy.Target{Admission: &policy.Selection{Scoped: []string{"prod-*"}, Selected: []string{"prod-*"}}})
	assert.Len(t, selected.Sets, 1)
}

// TestCompiledOnce: a policy's CEL is compiled by Compile, and every
// resource's invocations share it.
func TestCompiledOnce(t *testing.T) {
	ps, errs := compileText(t, `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: p}
spec:
`+matchConfigMaps+`    mutations: [{patchType: ApplyConfiguration, applyConfiguration: {expression: 'Object{data: {"b": "2"}}'}}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: p}
spec: {policyName: p}
`)
	require.Empty(t, errs)
	b, _ := ps.For(policy.Target{})
	eval := ps.(*policies).list[0].eval
	for _, name := range []string{"one", "two"} {
		res := policy.NewResource(yaml.MustParse("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + " # kept\n  namespace: x\ndata:\n  a: \"1\" # kept too\n"))
		rs, err := b.Sets[0].Rules(res)
		require.NoError(t, err)
		require.Len(t, rs, 2, "the invocation and the end of the first pass")
		assert.True(t, rs[1].Internal)
		assert.Same(t, eval, rs[0].Steps[0].Filter.(mutation).inv.p.eval)
		_, err = policy.Apply(res, slices.Concat(b.Sets, b.Reinvoke))
		require.NoError(t, err)
		assert.Equal(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "+name+" # kept\n  namespace: x\ndata:\n  a: \"1\" # kept too\n  b: \"2\"\n", res.Node.MustString())
	}
}

// TestConcurrentResources: the run admits resources on all cores through
// one compiled Set; each gets its own result (go test -race checks the
// sharing).
func TestConcurrentResources(t *testing.T) {
	ps, errs := compileText(t, benchPolicies)
	require.Empty(t, errs)
	b, _ := ps.For(policy.Target{})
	var wg sync.WaitGroup
	out := make([]string, 16)
	for i := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := policy.NewResource(yaml.MustParse(fmt.Sprintf("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d%d\n  namespace: x\n  labels: {}\nspec:\n  template:\n    spec:\n      containers:\n      - name: app\n        image: app:%d\n", i, i)))
			if _, err := policy.Apply(res, slices.Concat(b.Sets, b.Reinvoke)); err != nil {
				out[i] = err.Error()
				return
			}
			out[i] = res.Node.MustString()
		}()
	}
	wg.Wait()
	for i, got := range out {
		assert.Equal(t, fmt.Sprintf("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d%d\n  namespace: x\n  labels:\n    mesh: \"on\"\nspec:\n  template:\n    spec:\n      containers:\n      - name: app\n        image: app:%d\n      - image: proxy:1\n        name: proxy\n", i, i), got)
	}
}
