// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyverno

import (
	"fmt"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

// foreachPolicies patch every container of a Pod, one foreach element at
// a time, in both patch forms.
var foreachPolicies = map[string]string{
	"smp": `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: pull}
spec:
  background: false
  rules:
  - name: pull
    match: {any: [{resources: {kinds: [Pod]}}]}
    mutate:
      foreach:
      - list: request.object.spec.containers
        patchStrategicMerge:
          spec:
            containers:
            - (name): "{{element.name}}"
              imagePullPolicy: IfNotPresent
`,
	"jsonpatch": `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: pull}
spec:
  background: false
  rules:
  - name: pull
    match: {any: [{resources: {kinds: [Pod]}}]}
    mutate:
      foreach:
      - list: request.object.spec.containers
        patchesJson6902: |-
          - op: add
            path: /spec/containers/{{elementIndex}}/imagePullPolicy
            value: IfNotPresent
`,
}

// podWithContainers is a Pod with n commented containers.
func podWithContainers(n int) string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: Pod\nmetadata:\n  name: big # many containers\n  namespace: shop\nspec:\n  containers:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - name: c%d # container %d\n    image: registry.example.com/app%d:1.%d\n", i, i, i, i)
	}
	return b.String()
}

// BenchmarkForEachContainers measures a foreach over all containers of a
// Pod for growing numbers of containers; the time per operation should
// grow about linearly with n per element, i.e. quadratically at worst.
func BenchmarkForEachContainers(b *testing.B) {
	for _, form := range []string{"smp", "jsonpatch"} {
		bound, errs := policy.CompileFor(Dialect{}, []*yaml.RNode{yaml.MustParse(foreachPolicies[form])}, policy.Target{})
		sets := bound.Sets
		if len(errs) > 0 {
			b.Fatal(errs)
		}
		for _, n := range []int{100, 200, 400, 800} {
			pod := podWithContainers(n)
			b.Run(fmt.Sprintf("%s/%d", form, n), func(b *testing.B) {
				for b.Loop() {
					b.StopTimer()
					res := policy.NewResource(yaml.MustParse(pod))
					b.StartTimer()
					if applied, err := policy.Apply(res, sets); err != nil || applied == 0 {
						b.Fatalf("applied %d: %v", applied, err)
					}
				}
			})
		}
	}
}
