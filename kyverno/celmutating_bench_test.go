// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyverno

import (
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

// benchCELPolicies are MutatingPolicies on benchDeployment, measured by
// BenchmarkPolicy next to the kyverno.io policies: an
// ApplyConfiguration through autogen (a structured merge of the pod
// template's containers) and a JSONPatch with a variable.
var benchCELPolicies = map[string]string{
	"mpol-applyconfiguration-autogen": `apiVersion: policies.kyverno.io/v1
kind: MutatingPolicy
metadata: {name: pull}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: >
        Object{spec: Object.spec{containers: object.spec.containers.map(c,
          Object.spec.containers{name: c.name, imagePullPolicy: "Always"})}}
`,
	"mpol-jsonpatch": `apiVersion: policies.kyverno.io/v1
kind: MutatingPolicy
metadata: {name: owner}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  variables:
  - name: owner
    expression: object.metadata.name
  mutations:
  - patchType: JSONPatch
    jsonPatch:
      expression: '[JSONPatch{op: "add", path: "/metadata/annotations", value: {"owner": variables.owner}}]'
`,
}

// BenchmarkMutatingPolicyCompile measures compiling one policy (once per
// policy and run; the CEL environment is built by the first and shared).
func BenchmarkMutatingPolicyCompile(b *testing.B) {
	for name, p := range benchCELPolicies {
		objs := []*yaml.RNode{yaml.MustParse(p)}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, errs := policy.CompileFor(Dialect{}, objs, policy.Target{}); len(errs) > 0 {
					b.Fatal(errs)
				}
			}
		})
	}
}
