// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package admissionpolicy

import (
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/applyconfigurations"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
)

// converters holds the type converters, built on first use: only a run
// whose ApplyConfiguration mutation reaches a resource parses the schema.
var converters struct {
	once             sync.Once
	builtin, deduced managedfields.TypeConverter
}

// typeConverter returns the converter an ApplyConfiguration merges a
// resource of kind gvk with. For a built-in kind it is what the API
// server's static type converter holds: the structured-merge-diff schema
// of the built-in types (list types, map keys, atomic structs), here the
// copy client-go v0.36.6 ships for exactly the types of k8s.io/api v0.36.6
// (applyconfigurations.NewTypeConverter over client-go's scheme). A kind
// the scheme does not know (a custom resource) gets the deduced converter,
// which treats every list as atomic: the API server would use the CRD's
// own schema, which the input does not carry. builtin reports which one
// it is.
func typeConverter(gvk schema.GroupVersionKind) (tc managedfields.TypeConverter, builtin bool) {
	converters.once.Do(func() {
		converters.builtin = applyconfigurations.NewTypeConverter(clientgoscheme.Scheme)
		converters.deduced = managedfields.NewDeducedTypeConverter()
	})
	if clientgoscheme.Scheme.Recognizes(gvk) {
		return converters.builtin, true
	}
	return converters.deduced, false
}
