// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlpatch

import (
	"encoding/json"
	"regexp"
	"strconv"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
)

// jsonKind is the JSON type a YAML node reads as.
type jsonKind int

const (
	kindNull jsonKind = iota
	kindBool
	kindNumber
	kindString
	kindObject
	kindArray
)

// String names the kind the way encoding/json does in its type errors.
func (k jsonKind) String() string {
	switch k {
	case kindBool:
		return "bool"
	case kindNumber:
		return "number"
	case kindString:
		return "string"
	case kindObject:
		return "object"
	case kindArray:
		return "array"
	default:
		return "null"
	}
}

// kindOf reports the JSON type of n, which must already be resolved. Scalars
// are typed by their resolved YAML tag, as kyaml / yaml.v3 decode them:
// !!null, !!bool, !!int and !!float keep their type, anything else (!!str,
// !!timestamp, !!binary, custom tags) reads as a string.
func kindOf(n *yaml.Node) jsonKind {
	if n == nil {
		return kindNull
	}
	switch n.Kind {
	case yaml.MappingNode:
		return kindObject
	case yaml.SequenceNode:
		return kindArray
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case yaml.NodeTagNull:
			return kindNull
		case yaml.NodeTagBool:
			return kindBool
		case yaml.NodeTagInt, yaml.NodeTagFloat:
			return kindNumber
		default:
			return kindString
		}
	default:
		return kindNull
	}
}

// isNullNode reports whether n (resolved or not) reads as JSON null.
func isNullNode(n *yaml.Node) bool {
	return kindOf(yamlnode.Resolve(n)) == kindNull
}

var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$`)

// scalarText is the JSON text of a resolved bool or number scalar. Numbers
// that already are JSON number literals keep their exact text, as evanphx
// keeps raw number bytes; other spellings (0x1F, 1_000, .5) are decoded and
// re-encoded. Values JSON cannot hold (.inf, .nan) keep their YAML text.
func scalarText(n *yaml.Node, kind jsonKind) string {
	if kind == kindBool {
		var b bool
		if err := n.Decode(&b); err == nil {
			return strconv.FormatBool(b)
		}
		return n.Value
	}
	if jsonNumber.MatchString(n.Value) {
		return n.Value
	}
	var v any
	if err := n.Decode(&v); err == nil {
		if b, err := json.Marshal(v); err == nil {
			return string(b)
		}
	}
	return n.Value
}

// keyString is the JSON object key a mapping key node stands for.
func keyString(k *yaml.Node) string {
	if r := yamlnode.Resolve(k); r != nil {
		return r.Value
	}
	return ""
}

// findKey returns the index in m.Content of the first key named key, or -1.
func findKey(m *yaml.Node, key string) int {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if keyString(m.Content[i]) == key {
			return i
		}
	}
	return -1
}

// newNull returns a fresh `null` scalar.
func newNull() *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagNull, Value: "null"}
}

// newString returns a fresh string scalar styled so that YAML 1.1 and 1.2
// readers both read it back as s.
func newString(s string) *yaml.Node {
	n := &yaml.Node{}
	SetString(n, s)
	return n
}
