// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package admissionpolicy

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

// benchPolicies is one policy per patch type over Deployments: an
// ApplyConfiguration that merges a sidecar into the containers (the
// built-in schema) and a JSONPatch that adds a label.
const benchPolicies = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: sidecar}
spec:
  matchConstraints:
    resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: 'Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{containers: [Object.spec.template.spec.containers{name: "proxy", image: "proxy:1"}]}}}}'
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: sidecar}
spec: {policyName: sidecar}
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: label}
spec:
  matchConstraints:
    resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]
  mutations:
  - patchType: JSONPatch
    jsonPatch:
      expression: '[JSONPatch{op: "add", path: "/metadata/labels/mesh", value: "on"}]'
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: label}
spec: {policyName: label}
`

// BenchmarkCompile is the cost of compiling the two policies (once per
// run that holds them; the first iteration also builds the CEL base
// environment).
func BenchmarkCompile(b *testing.B) {
	for b.Loop() {
		if _, errs := compileText(b, benchPolicies); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}

// BenchmarkPolicyResource is the cost per policy × matched resource: each
// iteration admits one Deployment through both policies; ns/op / 2 is the
// cost of one policy on one resource. It runs the whole admission chain:
// the mutations ask for a second pass, which matches both policies again
// (neither is reinvoked: reinvocationPolicy Never).
func BenchmarkPolicyResource(b *testing.B) {
	ps, errs := compileText(b, benchPolicies)
	require.Empty(b, errs)
	bind, _ := ps.For(policy.Target{})
	sets := slices.Concat(bind.Sets, bind.Reinvoke)
	i := 0
	for b.Loop() {
		i++
		n := yaml.MustParse(fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web-%d # a comment
  namespace: shop
  labels: {app: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1.27
`, i))
		if _, err := policy.Apply(policy.NewResource(n), sets); err != nil {
			b.Fatal(err)
		}
	}
}
