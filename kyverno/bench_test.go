// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyverno

import (
	"maps"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

const benchDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # the workload
  namespace: shop
  labels:
    app: web
spec:
  replicas: 2
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: main
        image: registry.example.com/web:latest # pinned
      - name: sidecar
        image: envoy:1.30
`

// benchPolicies exercise each patch kind: a strategic merge with anchors
// (through autogen), a JSON patch with a variable, and foreach.
var benchPolicies = map[string]string{
	"smp-autogen": `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: smp}
spec:
  rules:
  - name: defaults
    match: {any: [{resources: {kinds: [Pod]}}]}
    mutate:
      patchStrategicMerge:
        metadata: {labels: {team: shop}}
        spec:
          containers:
          - (name): "*"
            (image): "*:latest"
            imagePullPolicy: Always
`,
	"jsonpatch": `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: jp}
spec:
  rules:
  - name: annotate
    match: {any: [{resources: {kinds: [Deployment]}}]}
    mutate:
      patchesJson6902: |-
        - op: add
          path: /metadata/annotations/owner
          value: "{{request.object.metadata.name}}"
`,
	"foreach": `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: fe}
spec:
  background: false
  rules:
  - name: requests
    match: {any: [{resources: {kinds: [Deployment]}}]}
    mutate:
      foreach:
      - list: request.object.spec.template.spec.containers
        patchStrategicMerge:
          spec:
            template:
              spec:
                containers:
                - name: "{{element.name}}"
                  resources: {requests: {+(memory): 64Mi}}
`,
}

// BenchmarkPolicy measures one policy applied to a fresh parse of the
// same Deployment (the parse is excluded), the kyverno.io policies and the
// CEL MutatingPolicies (benchCELPolicies).
func BenchmarkPolicy(b *testing.B) {
	all := maps.Clone(benchPolicies)
	maps.Copy(all, benchCELPolicies)
	for name, p := range all {
		bound, errs := policy.CompileFor(Dialect{}, []*yaml.RNode{yaml.MustParse(p)}, policy.Target{})
		sets := bound.Sets
		if len(errs) > 0 {
			b.Fatal(errs)
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				res := policy.NewResource(yaml.MustParse(benchDeployment))
				b.StartTimer()
				if n, err := policy.Apply(res, sets); err != nil || n == 0 {
					b.Fatalf("applied %d: %v", n, err)
				}
			}
		})
	}
}
