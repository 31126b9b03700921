// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package k8sschema

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

func build() {
	converters.builtin = applyconfigurations.NewTypeConverter(clientgoscheme.Scheme)
	converters.deduced = managedfields.NewDeducedTypeConverter()
}

// Get returns the converter an ApplyConfiguration merges a resource of
// kind gvk with, as the API server's static type converter does: for a
// built-in kind (one client-go v0.36.6's scheme registers) the schema of
// the built-in types, and builtin is true; for
// any other kind (a custom resource) the deduced converter, which treats
// every list as atomic (the API server would read the CRD's own schema,
// which the input does not carry).
func Get(gvk schema.GroupVersionKind) (tc managedfields.TypeConverter, builtin bool) {
	converters.once.Do(build)
	if clientgoscheme.Scheme.Recognizes(gvk) {
		return converters.builtin, true
	}
	return converters.deduced, false
}
