// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
	"github.com/apply-overrides/apply-overrides/internal/yamlvalue"
)

// KeyValue is one entry of a StringMap's value.
type KeyValue = yamlvalue.KeyValue

// StringMap is one entry of overriders.labels or
// overriders.annotations (kubeadmiral pkg/apis/core/v1alpha1
// StringMapOverrider @19de01c).
type StringMap struct {
	// Operator is addIfAbsent, overwrite (also when empty) or delete; any
	// other operator does nothing.
	Operator string
	// Value in the policy's order, e.g. [{Key: "team", Value: "web"}].
	// Of repeated keys the last value counts, at the first one's place.
	Value []KeyValue
}

// stringMaps is a rule's overriders.labels or
// overriders.annotations list (kubeadmiral
// pkg/controllers/override/annotationslabelspatch.go
// parseStringMapOverriders). Starting from the resource's current map, the
// overriders run in order: addIfAbsent adds keys and fails on an existing
// one, overwrite updates existing keys only (never adds), delete removes
// keys (values ignored). Patches returns a single replace of
// /metadata/<field> with the whole resulting map ({} if empty), even when
// nothing changed. Existing keys keep their order; new keys follow in the
// policy's order (upstream sorts them, which JSON does not observe).
type stringMaps struct {
	// Field is "labels" or "annotations".
	Field      string
	Overriders []StringMap
}

var _ Patcher = stringMaps{}

// Patches computes the labels or annotations patch for obj.
func (o stringMaps) Patches(obj *yaml.Node) (yamlpatch.Patch, error) {
	if o.Field != "labels" && o.Field != "annotations" {
		return nil, fmt.Errorf("string map field must be labels or annotations, not %q", o.Field)
	}
	if len(o.Overriders) == 0 {
		return nil, nil
	}
	m := currentStringMap(objectNode(obj), o.Field)
	for i := range o.Overriders {
		if err := o.Overriders[i].apply(m); err != nil {
			return nil, fmt.Errorf("failed to parse %s overriders: failed to apply %s overrider: %w", o.Field, o.Field, err)
		}
	}
	value := &yaml.Node{Kind: yaml.MappingNode, Tag: yaml.NodeTagMap}
	for _, k := range m.keys {
		value.Content = append(value.Content, yamlvalue.NewString(k), yamlvalue.NewString(m.values[k]))
	}
	return yamlpatch.Patch{replaceOp("/metadata/"+o.Field, value)}, nil
}

// stringMap is a map[string]string that remembers its key order.
type stringMap struct {
	keys   []string
	values map[string]string
}

func (m *stringMap) set(k, v string) {
	if _, ok := m.values[k]; !ok {
		m.keys = append(m.keys, k)
	}
	m.values[k] = v
}

func (m *stringMap) remove(k string) {
	if _, ok := m.values[k]; !ok {
		return
	}
	delete(m.values, k)
	for i, key := range m.keys {
		if key == k {
			m.keys = append(m.keys[:i:i], m.keys[i+1:]...)
			break
		}
	}
}

// currentStringMap is unstructured's GetLabels / GetAnnotations: the map
// when metadata.<field> is an object of strings, else empty (upstream
// ignores the accessor error).
func currentStringMap(obj *yaml.Node, field string) *stringMap {
	m := &stringMap{values: map[string]string{}}
	n := yamlnode.MapGet(yamlnode.MapGet(obj, "metadata"), field)
	if !yamlvalue.IsStringMap(n) {
		return m
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := yamlnode.Deref(n.Content[i])
		if k == nil {
			continue
		}
		if _, dup := m.values[k.Value]; !dup {
			m.set(k.Value, yamlnode.Deref(n.Content[i+1]).Value)
		}
	}
	return m
}

// apply is applyStringMapOverrider, with the policy's keys in their order,
// so the conflict addIfAbsent reports is the first one in the policy.
func (ov *StringMap) apply(m *stringMap) error {
	operator := ov.Operator
	if operator == "" {
		operator = opOverwrite
	}
	if operator == opAddIfAbsent && len(ov.Value) == 0 {
		return fmt.Errorf("%s operation needs value", opAddIfAbsent)
	}
	for _, kv := range dedupeKeys(ov.Value) {
		_, exists := m.values[kv.Key]
		switch operator {
		case opAddIfAbsent:
			if exists {
				return fmt.Errorf("%s is not allowed to operate on exist key:%s", opAddIfAbsent, kv.Key)
			}
			m.set(kv.Key, kv.Value)
		case opOverwrite:
			if exists {
				m.set(kv.Key, kv.Value)
			}
		case opDelete:
			m.remove(kv.Key)
		}
	}
	return nil
}

// dedupeKeys reads kvs the way a JSON decoder fills a map: the last value of
// a repeated key wins.
func dedupeKeys(kvs []KeyValue) []KeyValue {
	seen := make(map[string]int, len(kvs))
	out := make([]KeyValue, 0, len(kvs))
	for _, kv := range kvs {
		if i, ok := seen[kv.Key]; ok {
			out[i].Value = kv.Value
			continue
		}
		seen[kv.Key] = len(out)
		out = append(out, kv)
	}
	return out
}
