// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"errors"
	"fmt"
	"sort"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
	"github.com/apply-overrides/apply-overrides/internal/yamlvalue"
)

// messageNodes caps the size of a value quoted in an error message.
const messageNodes = 10000

// safeUnstructured is yamlvalue.ToUnstructured made safe for any node graph: it fails
// on an alias cycle and when expanding aliases would exceed
// yamlnode.MaxExpandedNodes, instead of recursing forever.
func safeUnstructured(n *yaml.Node) (any, error) {
	return safeUnstructuredLimit(n, yamlnode.MaxExpandedNodes)
}

// safeUnstructuredLimit is safeUnstructured with a cap of limit nodes.
func safeUnstructuredLimit(n *yaml.Node, limit int) (any, error) {
	budget := limit
	onPath := map[*yaml.Node]bool{}
	var conv func(n *yaml.Node) (any, error)
	conv = func(n *yaml.Node) (any, error) {
		n = yamlnode.Deref(n)
		if n == nil {
			return nil, nil
		}
		if budget--; budget < 0 {
			return nil, fmt.Errorf("the value has more than %d nodes once its YAML aliases are expanded", limit)
		}
		if onPath[n] || n.Kind == yaml.AliasNode {
			return nil, errors.New("the document's YAML aliases form a cycle")
		}
		onPath[n] = true
		defer delete(onPath, n)
		switch n.Kind {
		case yaml.MappingNode:
			m := make(map[string]any, len(n.Content)/2)
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := yamlnode.Deref(n.Content[i])
				if k == nil {
					continue
				}
				if _, dup := m[k.Value]; dup {
					continue // the first of duplicate keys counts, as yamlnode.MapGet reads them
				}
				v, err := conv(n.Content[i+1])
				if err != nil {
					return nil, err
				}
				m[k.Value] = v
			}
			return m, nil
		case yaml.SequenceNode:
			s := make([]any, 0, len(n.Content))
			for _, c := range n.Content {
				v, err := conv(c)
				if err != nil {
					return nil, err
				}
				s = append(s, v)
			}
			return s, nil
		case yaml.DocumentNode:
			if len(n.Content) == 0 {
				return nil, nil
			}
			return conv(n.Content[0])
		}
		return yamlvalue.ToUnstructured(n), nil
	}
	return conv(n)
}

// objectNode unwraps a document node.
func objectNode(obj *yaml.Node) *yaml.Node {
	obj = yamlnode.Deref(obj)
	if obj != nil && obj.Kind == yaml.DocumentNode {
		if len(obj.Content) == 0 {
			return nil
		}
		obj = yamlnode.Deref(obj.Content[0])
	}
	return obj
}

// nullNode is a JSON null value.
func nullNode() *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagNull, Value: "null"}
}

// replaceOp is the replace operation upstream emits for its own overriders.
func replaceOp(path string, value *yaml.Node) yamlpatch.Operation {
	return yamlpatch.Operation{Op: "replace", Path: path, Value: value}
}

// replaceSorted is the tail every chained KubeAdmiral overrider shares:
// one replace per touched path, paths sorted, the value built by node.
func replaceSorted[V any](values map[string]V, node func(V) (*yaml.Node, error)) (yamlpatch.Patch, error) {
	if len(values) == 0 {
		return nil, nil
	}
	paths := make([]string, 0, len(values))
	for p := range values {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	patch := make(yamlpatch.Patch, 0, len(paths))
	for _, p := range paths {
		v, err := node(values[p])
		if err != nil {
			return nil, err
		}
		patch = append(patch, replaceOp(p, v))
	}
	return patch, nil
}

// jSONNode turns JSON text into a YAML node tree that reads back as the
// same JSON (yamlvalue.FromJSON).
func jSONNode(data []byte) (*yaml.Node, error) { return yamlvalue.FromJSON(data) }
