// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/overridertest"
)

// BenchmarkPatches measures the patch one builder of each kind computes
// for the Deployment the Karmada filter benchmarks edit.
func BenchmarkPatches(b *testing.B) {
	builders := map[string]Patcher{
		"image":  Images{{Operations: []ImageOperation{{Component: "Registry", Operator: "overwrite", Value: "mirror.example.com"}}}},
		"args":   entrypoints{Field: "args", Overriders: []Entrypoint{{ContainerName: "main", Operator: "append", Value: []string{"--cache"}}}},
		"labels": stringMaps{Field: "labels", Overriders: []StringMap{{Operator: "overwrite", Value: []KeyValue{{Key: "app", Value: "b"}}}}},
	}
	for name, p := range builders {
		b.Run(name, func(b *testing.B) {
			rn := yaml.MustParse(overridertest.BenchDeployment)
			for b.Loop() {
				if _, err := p.Patches(rn.YNode()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
