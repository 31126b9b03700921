// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package mpol

import (
	"fmt"
	"slices"
	"strings"

	"github.com/google/cel-go/common/types/ref"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apiserver/pkg/cel/mutation/dynamic"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/structured-merge-diff/v6/value"

	"github.com/apply-overrides/apply-overrides/internal/k8sschema"
)

// applyConfiguration merges the expression's Object into obj with a
// structured merge, as Kubernetes' ApplyStructuredMergeDiff does
// (k8s.io/apiserver plugin/policy/mutating/patch/smd.go), called by
// Kyverno's applyConfigPatcher (mpol/compiler/applyconfig.go). With
// spec.evaluation.useServerSideApply the guard against setting atomic
// fields is left out, as Kyverno's own copy does (mpol/compiler/smd.go).
func applyConfiguration(val ref.Val, obj map[string]any, gvk schema.GroupVersionKind, serverSide bool) (map[string]any, error) {
	ov, ok := val.(*dynamic.ObjectVal)
	if !ok {
		return nil, fmt.Errorf("unsupported return type from ApplyConfiguration expression: %v", val.Type())
	}
	if err := ov.CheckTypeNamesMatchFieldPathNames(); err != nil {
		return nil, fmt.Errorf("type mismatch: %w", err)
	}
	value, ok := ov.Value().(map[string]any)
	if !ok {
		return nil, fmt.Errorf("invalid return type: %T", val)
	}
	// The built-in schema (internal/k8sschema), where `kyverno apply`
	// reads Kubernetes 1.32's: see that package for how the two differ.
	tc, builtin := k8sschema.Get(gvk)
	if !builtin {
		return nil, fmt.Errorf("error applying patch: %s %s has no built-in OpenAPI schema, and `kyverno apply` without --crd has no type converter for it (\"type converter must not be nil\"); use patchType JSONPatch for custom resources", gvk.GroupVersion(), gvk.Kind)
	}
	p := &unstructured.Unstructured{Object: value}
	p.SetGroupVersionKind(gvk)
	live := &unstructured.Unstructured{Object: obj}
	out, err := merge(tc, live, p, !serverSide)
	if err != nil {
		return nil, fmt.Errorf("error applying patch: %w", err)
	}
	u, ok := out.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("error applying patch: unexpected result %T", out)
	}
	return u.Object, nil
}

// merge is the structured merge of ApplyStructuredMergeDiff
// (k8s.io/apiserver plugin/policy/mutating/patch/smd.go): the patch and
// the live object typed by the schema, the patch merged in. guard refuses
// a patch that sets an atomic list, map or struct, whose unset parts the
// merge would drop (validatePatch there); Kyverno's useServerSideApply
// variant leaves the guard out (mpol/compiler/smd.go), which the API
// server's exported ApplyStructuredMergeDiff always applies.
func merge(tc managedfields.TypeConverter, live, p *unstructured.Unstructured, guard bool) (any, error) {
	pt, err := tc.ObjectToTyped(p)
	if err != nil {
		return nil, fmt.Errorf("failed to convert patch object to typed object: %w", err)
	}
	if guard {
		if atomics := atomicsIn(nil, pt.Schema(), pt.TypeRef(), pt.AsValue()); len(atomics) > 0 {
			return nil, fmt.Errorf("invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: %v", strings.Join(atomics, ", "))
		}
	}
	lt, err := tc.ObjectToTyped(live, typed.AllowDuplicates)
	if err != nil {
		return nil, fmt.Errorf("failed to convert original object to typed object: %w", err)
	}
	merged, err := lt.Merge(pt)
	if err != nil {
		return nil, fmt.Errorf("failed to merge patch: %w", err)
	}
	return tc.TypedToObject(merged)
}

// atomicsIn lists the paths of the atomic lists, maps and structs the
// value sets, struct fields and list items searched.
func atomicsIn(path []fieldpath.PathElement, s *smdschema.Schema, tr smdschema.TypeRef, v value.Value) []string {
	atom, ok := s.Resolve(tr)
	if !ok {
		return nil
	}
	var out []string
	here := func() string {
		var b strings.Builder
		for _, pe := range path {
			b.WriteString(pe.String())
		}
		return b.String()
	}
	switch {
	case v.IsMap() && atom.Map != nil:
		if atom.Map.ElementRelationship == smdschema.Atomic {
			out = append(out, here())
		}
		v.AsMap().Iterate(func(key string, val value.Value) bool {
			if f, ok := atom.Map.FindField(key); ok {
				k := key
				out = append(out, atomicsIn(append(slices.Clone(path), fieldpath.PathElement{FieldName: &k}), s, f.Type, val)...)
			}
			return true
		})
	case v.IsList() && atom.List != nil:
		if atom.List.ElementRelationship == smdschema.Atomic {
			out = append(out, here())
		}
		l := v.AsList()
		for i := 0; i < l.Length(); i++ {
			idx := i
			out = append(out, atomicsIn(append(slices.Clone(path), fieldpath.PathElement{Index: &idx}), s, atom.List.ElementType, l.At(i))...)
		}
	}
	return out
}

// decodeObject decodes a resource's JSON with integers as int64, as
// unstructured objects hold them.
func decodeObject(b []byte) (map[string]any, error) {
	var obj map[string]any
	if err := utiljson.Unmarshal(b, &obj); err != nil {
		return nil, err
	}
	return obj, nil
}

// DecodeObject is decodeObject for the dialect.
func DecodeObject(b []byte) (map[string]any, error) { return decodeObject(b) }
