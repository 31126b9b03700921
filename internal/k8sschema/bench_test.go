// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package k8sschema

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// BenchmarkFirstGet measures what the first ApplyConfiguration of a run
// pays: parsing client-go's schema, mapping the scheme's kinds onto it and
// typing a Deployment. client-go parses its schema once per process, so
// only a fresh process with -benchtime 1x measures the whole of it:
//
//	go test ./internal/k8sschema -run '^$' -bench FirstGet -benchtime 1x -count 1
//
// Later iterations measure the mapping and the typing alone.
func BenchmarkFirstGet(b *testing.B) {
	obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment"}}
	for b.Loop() {
		build()
		if _, err := converters.builtin.ObjectToTyped(obj); err != nil {
			b.Fatal(err)
		}
	}
}
