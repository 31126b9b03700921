// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlnode

import (
	"math"
	"strconv"
	"unicode/utf8"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// ObjectValue returns what json.Unmarshal into a map[string]any gives for
// MarshalJSON(n), built from the nodes directly (no decoding into Go
// values, no JSON text): strings, float64 numbers, booleans, nil,
// []any and map[string]any. ok is false, and the caller takes the JSON
// text's path, wherever the two could differ or that path could fail:
// anything but a map at the root, aliases and merge keys, repeated or
// non-string keys, tags other than the JSON ones, a style that
// contradicts the tag, numbers other than plain decimals (octal, hex,
// underscores, infinities, NaN, integers of more than 15 digits), and
// strings that are not valid UTF-8.
func ObjectValue(n *yaml.Node) (map[string]any, bool) { return objectValue(n, false) }

// ObjectValueInt64 is ObjectValue with every integral number an int64, as
// jsonvalue.Int64Numbers would make it (Kyverno's views), without the
// float64s in between.
func ObjectValueInt64(n *yaml.Node) (map[string]any, bool) { return objectValue(n, true) }

func objectValue(n *yaml.Node, ints bool) (map[string]any, bool) {
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, false
	}
	v, ok := value(n, 0, ints)
	if !ok {
		return nil, false
	}
	return v.(map[string]any), true
}

// Value is ObjectValue for a node at depth (the length of its path from
// the resource's root), whatever its kind: a part of the resource's value,
// with the same ok.
func Value(n *yaml.Node, depth int) (any, bool) { return value(n, depth, false) }

// ValueInt64 is Value with integral numbers as int64s (ObjectValueInt64).
func ValueInt64(n *yaml.Node, depth int) (any, bool) { return value(n, depth, true) }

// value reads n; ints makes integral numbers int64s.
func value(n *yaml.Node, depth int, ints bool) (any, bool) {
	if depth > 1000 || n.Style&yaml.TaggedStyle != 0 {
		return nil, false
	}
	switch n.Kind {
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode || scalarTag(k) != yaml.NodeTagString || k.Style&yaml.TaggedStyle != 0 || !utf8.ValidString(k.Value) {
				return nil, false
			}
			v, ok := value(n.Content[i+1], depth+1, ints)
			if !ok {
				return nil, false
			}
			before := len(m)
			m[k.Value] = v
			if len(m) == before {
				return nil, false // a repeated key
			}
		}
		return m, true
	case yaml.SequenceNode:
		s := make([]any, len(n.Content))
		for i, c := range n.Content {
			v, ok := value(c, depth+1, ints)
			if !ok {
				return nil, false
			}
			s[i] = v
		}
		return s, true
	case yaml.ScalarNode:
		return scalar(n, ints)
	}
	return nil, false
}

// scalarTag is n.ShortTag() without resolving a tag already set.
func scalarTag(n *yaml.Node) string {
	switch n.Tag {
	case yaml.NodeTagString, yaml.NodeTagBool, yaml.NodeTagInt, yaml.NodeTagFloat, yaml.NodeTagNull:
		return n.Tag
	}
	return n.ShortTag()
}

func scalar(n *yaml.Node, ints bool) (any, bool) {
	tag := scalarTag(n)
	quoted := n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0
	if quoted && tag != yaml.NodeTagString {
		return nil, false // MarshalJSON's inconsistent trees
	}
	v := n.Value
	switch tag {
	case yaml.NodeTagString:
		return v, utf8.ValidString(v)
	case yaml.NodeTagNull:
		return nil, true
	case yaml.NodeTagBool:
		switch v {
		case "true", "True", "TRUE":
			return true, true
		case "false", "False", "FALSE":
			return false, true
		}
	case yaml.NodeTagInt:
		if decimalInt(v) {
			f, err := strconv.ParseFloat(v, 64)
			return number(f, ints), err == nil
		}
	case yaml.NodeTagFloat:
		if decimalFloat(v) {
			f, err := strconv.ParseFloat(v, 64)
			return number(f, ints), err == nil
		}
	}
	return nil, false
}

// number is f, or with ints an integral f as an int64 (what
// jsonvalue.Int64Numbers makes of it).
func number(f float64, ints bool) any {
	if ints && f == math.Trunc(f) && f >= math.MinInt64 && f < math.MaxInt64 {
		return int64(f)
	}
	return f
}

// decimalInt reports a plain decimal integer of at most 15 digits without
// leading zeros (which go-yaml reads as octal) and without "-0".
func decimalInt(v string) bool {
	negative := v != "" && v[0] == '-'
	if v != "" && (v[0] == '-' || v[0] == '+') {
		v = v[1:]
	}
	if v == "" || len(v) > 15 || (v[0] == '0' && (len(v) > 1 || negative)) {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return true
}

// decimalFloat reports digits with one dot and an optional exponent, as
// strconv.ParseFloat and go-yaml read alike.
func decimalFloat(v string) bool {
	if v != "" && (v[0] == '-' || v[0] == '+') {
		v = v[1:]
	}
	digits, dot, exp := 0, false, false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !dot && !exp:
			dot = true
		case (c == 'e' || c == 'E') && digits > 0 && !exp:
			exp = true
			if i+1 < len(v) && (v[i+1] == '-' || v[i+1] == '+') {
				i++
			}
			if i+1 >= len(v) {
				return false
			}
		default:
			return false
		}
	}
	return digits > 0 && len(v) <= 30
}
