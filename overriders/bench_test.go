// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/overridertest"
	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
)

// BenchmarkOverriders measures one application of each of Karmada's
// filters on a fresh parse of the same Deployment (the parse is excluded).
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
				rn := yaml.MustParse(overridertest.BenchDeployment)
				b.StartTimer()
				if _, err := f.Filter(rn); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
