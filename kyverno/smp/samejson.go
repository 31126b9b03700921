// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package smp

import "sigs.k8s.io/kustomize/kyaml/yaml"

// sameJSON reports that two trees are sure to have the same JSON view
// (internal/yamlnode.MarshalJSON), without encoding them: the same maps (keys
// in any order), lists and scalars, a scalar being its resolved tag and
// its text. It is false where unsure (aliases, merge keys, duplicate
// keys, other tags, the same value spelled differently): the caller
// then compares the JSON texts.
func sameJSON(a, b *yaml.Node) bool {
	if a == nil || b == nil || a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case yaml.ScalarNode:
		return a.Value == b.Value && plainTag(a) && a.ShortTag() == b.ShortTag()
	case yaml.SequenceNode:
		if len(a.Content) != len(b.Content) {
			return false
		}
		for i := range a.Content {
			if !sameJSON(a.Content[i], b.Content[i]) {
				return false
			}
		}
		return true
	case yaml.MappingNode:
		if len(a.Content) != len(b.Content) {
			return false
		}
		index := keyIndex(b)
		seen := make(map[string]bool, len(a.Content)/2)
		for i := 0; i+1 < len(a.Content); i += 2 {
			k := a.Content[i]
			if k.Kind != yaml.ScalarNode || k.ShortTag() != yaml.NodeTagString || seen[k.Value] {
				return false
			}
			seen[k.Value] = true
			j, ok := index[k.Value]
			if !ok || !sameJSON(a.Content[i+1], b.Content[j+1]) {
				return false
			}
		}
		return true
	}
	return false
}

// plainTag reports a scalar of a tag whose value depends on its text
// only.
func plainTag(n *yaml.Node) bool {
	switch n.ShortTag() {
	case yaml.NodeTagString, yaml.NodeTagInt, yaml.NodeTagFloat, yaml.NodeTagBool, yaml.NodeTagNull:
		return true
	}
	return false
}

// keyIndex maps the string keys of a map to their indices; a key that is
// not a string, or repeated, is left out (so the map cannot match).
func keyIndex(m *yaml.Node) map[string]int {
	index := make(map[string]int, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if k.Kind != yaml.ScalarNode || k.ShortTag() != yaml.NodeTagString {
			continue
		}
		if _, dup := index[k.Value]; dup {
			index[k.Value] = -1
			continue
		}
		index[k.Value] = i
	}
	for k, i := range index {
		if i < 0 {
			delete(index, k)
		}
	}
	return index
}
