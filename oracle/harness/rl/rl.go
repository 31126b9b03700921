// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package rl reads and writes the KRM ResourceLists of the oracles' commands:
// the scenarios, the function's input and its output.
package rl

import (
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// ResourceList is a KRM function input or output.
type ResourceList struct {
	Items          []*unstructured.Unstructured
	FunctionConfig *unstructured.Unstructured
}

type raw struct {
	APIVersion     string            `json:"apiVersion"`
	Kind           string            `json:"kind"`
	Items          []json.RawMessage `json:"items"`
	FunctionConfig json.RawMessage   `json:"functionConfig,omitempty"`
}

// Decode reads a ResourceList in YAML or JSON. Numbers become int64 where
// they are integral, as in objects an API server returns.
func Decode(data []byte) (*ResourceList, error) {
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, fmt.Errorf("ResourceList: %w", err)
	}
	var r raw
	if err := json.Unmarshal(js, &r); err != nil {
		return nil, fmt.Errorf("ResourceList: %w", err)
	}
	out := &ResourceList{}
	for i, it := range r.Items {
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(it); err != nil {
			return nil, fmt.Errorf("ResourceList items[%d]: %w", i, err)
		}
		out.Items = append(out.Items, u)
	}
	if len(r.FunctionConfig) > 0 && string(r.FunctionConfig) != "null" {
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(r.FunctionConfig); err != nil {
			return nil, fmt.Errorf("ResourceList functionConfig: %w", err)
		}
		out.FunctionConfig = u
	}
	return out, nil
}

// Encode writes a ResourceList as YAML.
func Encode(l *ResourceList) ([]byte, error) {
	m := map[string]any{
		"apiVersion": "config.kubernetes.io/v1",
		"kind":       "ResourceList",
	}
	items := make([]any, 0, len(l.Items))
	for _, it := range l.Items {
		items = append(items, it.Object)
	}
	m["items"] = items
	if l.FunctionConfig != nil {
		m["functionConfig"] = l.FunctionConfig.Object
	}
	return yaml.Marshal(m)
}

// SpecInt returns spec.<field> of an item when it is a number (an int64,
// or a float64 as JSON decodes numbers), else nil.
func SpecInt(u *unstructured.Unstructured, field string) *int64 {
	v, ok, err := unstructured.NestedFieldNoCopy(u.Object, "spec", field)
	if !ok || err != nil {
		return nil
	}
	switch n := v.(type) {
	case int64:
		return &n
	case float64:
		i := int64(n)
		return &i
	}
	return nil
}
