// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package mpol

import (
	"testing"

	"k8s.io/apimachinery/pkg/util/managedfields"
	openapispec "k8s.io/kube-openapi/pkg/validation/spec"
	"sigs.k8s.io/kustomize/kyaml/openapi"
)

// BenchmarkEnvironment measures building the CEL environment, which a run
// does once, on its first MutatingPolicy.
func BenchmarkEnvironment(b *testing.B) {
	for b.Loop() {
		if _, err := newEnv(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTypeConverter measures building the structured-merge type
// converter from kyaml's schema, which a run does once, on its first
// ApplyConfiguration mutation (kyaml's schema is parsed before the loop,
// as the Kyverno dialect loads it for every run with policies).
func BenchmarkTypeConverter(b *testing.B) {
	defs := openapi.Schema().Definitions
	for b.Loop() {
		m := make(map[string]*openapispec.Schema, len(defs))
		for k := range defs {
			d := defs[k]
			m[k] = &d
		}
		if _, err := managedfields.NewTypeConverter(m, false); err != nil {
			b.Fatal(err)
		}
	}
}
