// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package yamlvalue reads and builds yaml.Nodes as the JSON values of
// Kubernetes' unstructured objects: new string scalars, string lists and
// maps, the Go value a node stands for and the JSON the apiserver would
// store for it (StoredJSON). Karmada's and KubeAdmiral's
// overriders both use it; it builds on internal/yamlpatch's scalar
// helpers, so it cannot live in internal/yamlnode.
package yamlvalue

import (
	"encoding/json"
	"time"

	"sigs.k8s.io/kustomize/kyaml/yaml"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
)

// KeyValue is one entry of a string map in the policy's order, e.g.
// {Key: "team", Value: "web"}: the value of Karmada's and KubeAdmiral's
// labels and annotations overriders.
type KeyValue struct {
	Key, Value string
}

// NewString returns a new scalar node that reads back as the string s.
func NewString(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagString}
	yamlpatch.SetString(n, s)
	return n
}

// StringNodes returns one NewString node per value, in order.
func StringNodes(values []string) []*yaml.Node {
	nodes := make([]*yaml.Node, 0, len(values))
	for _, v := range values {
		nodes = append(nodes, NewString(v))
	}
	return nodes
}

// IsStringMap reports whether n is a mapping whose values are all strings
// (map[string]string), which is what unstructured.NestedStringMap accepts.
func IsStringMap(n *yaml.Node) bool {
	if n == nil || n.Kind != yaml.MappingNode {
		return false
	}
	for i := 1; i < len(n.Content); i += 2 {
		if !yamlpatch.IsString(yamlnode.Deref(n.Content[i])) {
			return false
		}
	}
	return true
}

// ToUnstructured converts n to the Go value Kubernetes' unstructured
// package would hold for it after a JSON round trip: map[string]any,
// []any, string, int64, float64, bool or nil. It is used to reproduce
// upstream messages that format such values with %v, %s or %T.
func ToUnstructured(n *yaml.Node) any {
	n = yamlnode.Deref(n)
	if n == nil {
		return nil
	}
	switch n.Kind {
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			m[n.Content[i].Value] = ToUnstructured(n.Content[i+1])
		}
		return m
	case yaml.SequenceNode:
		s := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			s = append(s, ToUnstructured(c))
		}
		return s
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil
		}
		return ToUnstructured(n.Content[0])
	}
	if yamlpatch.IsString(n) {
		return n.Value
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return n.Value
	}
	switch x := v.(type) {
	case int:
		return int64(x)
	case uint64:
		return float64(x)
	case time.Time:
		return n.Value
	}
	return v
}

// StoredJSON converts a policy value to the JSON the apiserver would have
// stored for it: kubectl reads YAML 1.1 (`yes` is true, `1.10` is 1.1) and
// object keys come out sorted. nil is null.
func StoredJSON(n *yaml.Node) (json.RawMessage, error) {
	if n == nil {
		return json.RawMessage("null"), nil
	}
	s, err := yaml.String(n)
	if err != nil {
		return nil, err
	}
	return sigsyaml.YAMLToJSON([]byte(s))
}
