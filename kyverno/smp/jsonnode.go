// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package smp

import (
	"strconv"
	"unicode/utf16"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// parseJSON returns yaml.Parse(string(b)) for the JSON text of a resource
// (encoding/json's output: no white space, escaped control characters).
// Upstream parses the resource's JSON with kyaml before every strategic
// merge; go-yaml's general parser is most of the cost of a foreach over a
// long list, so printable ASCII JSON, the common case, is read directly
// into the same nodes (kinds, tags, styles, values, lines and columns).
// Anything else goes to yaml.Parse.
func parseJSON(b []byte) (*yaml.RNode, error) {
	p := jsonParser{b: b}
	if root, ok := p.value(); ok && p.i == len(b) {
		return yaml.NewRNode(&yaml.Node{Kind: yaml.DocumentNode, Line: 1, Column: 1, Content: []*yaml.Node{root}}), nil
	}
	return yaml.Parse(string(b))
}

type jsonParser struct {
	b []byte
	i int
}

// value reads one JSON value; ok is false for anything unexpected.
func (p *jsonParser) value() (*yaml.Node, bool) {
	if p.i >= len(p.b) {
		return nil, false
	}
	col := p.i + 1
	switch c := p.b[p.i]; {
	case c == '{':
		return p.collection(yaml.MappingNode, yaml.NodeTagMap, '}', col)
	case c == '[':
		return p.collection(yaml.SequenceNode, yaml.NodeTagSeq, ']', col)
	case c == '"':
		s, ok := p.str()
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagString, Style: yaml.DoubleQuotedStyle, Value: s, Line: 1, Column: col}, ok
	case c == '-' || '0' <= c && c <= '9':
		start := p.i
		for p.i < len(p.b) && isNumberByte(p.b[p.i]) {
			p.i++
		}
		text := string(p.b[start:p.i])
		n := &yaml.Node{Kind: yaml.ScalarNode, Value: text, Line: 1, Column: col}
		n.Tag = n.ShortTag() // go-yaml's resolution of a plain scalar
		return n, n.Tag == yaml.NodeTagInt || n.Tag == yaml.NodeTagFloat
	default:
		for _, w := range [...]struct{ text, tag string }{{"true", yaml.NodeTagBool}, {"false", yaml.NodeTagBool}, {"null", yaml.NodeTagNull}} {
			if len(p.b)-p.i >= len(w.text) && string(p.b[p.i:p.i+len(w.text)]) == w.text {
				p.i += len(w.text)
				return &yaml.Node{Kind: yaml.ScalarNode, Tag: w.tag, Value: w.text, Line: 1, Column: col}, true
			}
		}
	}
	return nil, false
}

func isNumberByte(c byte) bool {
	return '0' <= c && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// collection reads an object or an array, p.i at its opening bracket.
func (p *jsonParser) collection(kind yaml.Kind, tag string, end byte, col int) (*yaml.Node, bool) {
	n := &yaml.Node{Kind: kind, Tag: tag, Style: yaml.FlowStyle, Line: 1, Column: col}
	p.i++
	if p.i < len(p.b) && p.b[p.i] == end {
		p.i++
		return n, true
	}
	for {
		if kind == yaml.MappingNode {
			if p.i >= len(p.b) || p.b[p.i] != '"' {
				return nil, false
			}
			k, ok := p.value()
			if !ok || p.i >= len(p.b) || p.b[p.i] != ':' {
				return nil, false
			}
			p.i++
			n.Content = append(n.Content, k)
		}
		v, ok := p.value()
		if !ok || p.i >= len(p.b) {
			return nil, false
		}
		n.Content = append(n.Content, v)
		switch p.b[p.i] {
		case ',':
			p.i++
		case end:
			p.i++
			return n, true
		default:
			return nil, false
		}
	}
}

// str reads a string, p.i at its opening quote. Only printable ASCII and
// escapes that decode to something other than a surrogate are accepted:
// go-yaml rejects some other characters.
func (p *jsonParser) str() (string, bool) {
	p.i++
	start := p.i
	for p.i < len(p.b) && p.b[p.i] != '"' && p.b[p.i] != '\\' {
		if c := p.b[p.i]; c < 0x20 || c > 0x7e {
			return "", false
		}
		p.i++
	}
	if p.i < len(p.b) && p.b[p.i] == '"' {
		p.i++
		return string(p.b[start : p.i-1]), true
	}
	buf := append([]byte(nil), p.b[start:p.i]...)
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			return string(buf), true
		case c < 0x20 || c > 0x7e:
			return "", false
		case c != '\\':
			buf = append(buf, c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.b) {
			return "", false
		}
		p.i += 2
		switch e := p.b[p.i-1]; e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			if p.i+4 > len(p.b) {
				return "", false
			}
			r, err := strconv.ParseUint(string(p.b[p.i:p.i+4]), 16, 32)
			if err != nil || utf16.IsSurrogate(rune(r)) {
				return "", false
			}
			buf = append(buf, string(rune(r))...)
			p.i += 4
		default:
			return "", false
		}
	}
	return "", false
}
