// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
)

const benchDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # the workload
  namespace: shop
  labels:
    app: web
spec:
  replicas: 2 # default
  template:
    spec:
      containers:
      - name: main
        image: registry.example.com/web:1.0 # pinned
        args: ["--port=8080"]
        env:
        - name: CONFIG
          value: '{"mode":"a"}'
      - name: sidecar
        image: envoy:1.30
`

// BenchmarkOverriders measures one application of each overrider, Karmada's
// filters and KubeAdmiral's patch builders, on a fresh parse of the same
// Deployment (the parse is excluded).
func BenchmarkOverriders(b *testing.B) {
	three := &yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagInt, Value: "3"}
	karmada := map[string]yaml.Filter{
		"karmada/image":     Image{Component: "Registry", Operator: "replace", Value: "mirror.example.com"},
		"karmada/args":      CommandArgs{Field: "args", ContainerName: "main", Operator: "add", Value: []string{"--cache"}},
		"karmada/labels":    LabelAnnotation{Field: "labels", Operator: "add", Value: []KeyValue{{Key: "team", Value: "a"}}},
		"karmada/plaintext": Plaintext{Patch: yamlpatch.Patch{{Op: "replace", Path: "/spec/replicas", Value: three}}},
		"karmada/field-json": Field{FieldPath: "/spec/template/spec/containers/0/env/0/value", JSON: []yamlpatch.Operation{
			{Op: "replace", Path: "/mode", Value: &yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagString, Value: "b"}}}},
	}
	for name, f := range karmada {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				rn := yaml.MustParse(benchDeployment)
				b.StartTimer()
				if _, err := f.Filter(rn); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	kubeadmiral := map[string]KubeAdmiralPatcher{
		"kubeadmiral/image":  KubeAdmiralImages{{Operations: []KubeAdmiralImageOperation{{Component: "Registry", Operator: "overwrite", Value: "mirror.example.com"}}}},
		"kubeadmiral/args":   KubeAdmiralEntrypoints{Field: "args", Overriders: []KubeAdmiralEntrypointOverrider{{ContainerName: "main", Operator: "append", Value: []string{"--cache"}}}},
		"kubeadmiral/labels": KubeAdmiralStringMaps{Field: "labels", Overriders: []KubeAdmiralStringMapOverrider{{Operator: "overwrite", Value: []KeyValue{{Key: "app", Value: "b"}}}}},
	}
	for name, p := range kubeadmiral {
		b.Run(name, func(b *testing.B) {
			rn := yaml.MustParse(benchDeployment)
			for b.Loop() {
				if _, err := p.Patches(rn.YNode()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
