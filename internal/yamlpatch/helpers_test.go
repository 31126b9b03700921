// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlpatch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
)

// toJSON renders the JSON view of n, keeping key order.
func toJSON(n *yaml.Node) (string, error) {
	var b strings.Builder
	if err := writeJSON(&b, n, 0); err != nil {
		return "", err
	}
	return b.String(), nil
}

func writeJSON(b *strings.Builder, n *yaml.Node, depth int) error {
	if depth > 1000 {
		return errors.New("too deep")
	}
	n = yamlnode.Resolve(n)
	switch k := kindOf(n); k {
	case kindNull:
		b.WriteString("null")
	case kindBool, kindNumber:
		b.WriteString(scalarText(n, k))
	case kindString:
		s, _ := json.Marshal(n.Value)
		b.Write(s)
	case kindArray:
		b.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeJSON(b, c, depth+1); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	default:
		b.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				b.WriteByte(',')
			}
			s, _ := json.Marshal(keyString(n.Content[i]))
			b.Write(s)
			b.WriteByte(':')
			if err := writeJSON(b, n.Content[i+1], depth+1); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	}
	return nil
}

// jv is a JSON value that keeps object key order and number text.
type jv struct {
	kind byte // n(ull) b(ool) d(igits) s(tring) o(bject) a(rray)
	text string
	keys []string
	vals []jv
}

// parseOrdered parses one JSON value keeping order; it rejects duplicate
// keys (YAML and JSON disagree about them) and trailing data.
func parseOrdered(s string) (jv, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	v, err := parseValue(dec, 0)
	if err != nil {
		return jv{}, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return jv{}, errors.New("trailing data")
	}
	return v, nil
}

func parseValue(dec *json.Decoder, depth int) (jv, error) {
	if depth > 64 {
		return jv{}, errors.New("too deep")
	}
	tok, err := dec.Token()
	if err != nil {
		return jv{}, err
	}
	switch t := tok.(type) {
	case nil:
		return jv{kind: 'n'}, nil
	case bool:
		return jv{kind: 'b', text: fmt.Sprint(t)}, nil
	case json.Number:
		return jv{kind: 'd', text: string(t)}, nil
	case string:
		return jv{kind: 's', text: t}, nil
	case json.Delim:
		if t == '[' {
			v := jv{kind: 'a'}
			for dec.More() {
				c, err := parseValue(dec, depth+1)
				if err != nil {
					return jv{}, err
				}
				v.vals = append(v.vals, c)
			}
			_, err := dec.Token()
			return v, err
		}
		v := jv{kind: 'o'}
		seen := map[string]bool{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return jv{}, err
			}
			k := kt.(string)
			if seen[k] {
				return jv{}, errors.New("duplicate key")
			}
			seen[k] = true
			c, err := parseValue(dec, depth+1)
			if err != nil {
				return jv{}, err
			}
			v.keys = append(v.keys, k)
			v.vals = append(v.vals, c)
		}
		_, err := dec.Token()
		return v, err
	}
	return jv{}, errors.New("unexpected token")
}

// String renders v as compact JSON.
func (v jv) String() string {
	switch v.kind {
	case 'n':
		return "null"
	case 'b', 'd':
		return v.text
	case 's':
		s, _ := json.Marshal(v.text)
		return string(s)
	}
	var b strings.Builder
	open, end := "[", "]"
	if v.kind == 'o' {
		open, end = "{", "}"
	}
	b.WriteString(open)
	for i, c := range v.vals {
		if i > 0 {
			b.WriteByte(',')
		}
		if v.kind == 'o' {
			k, _ := json.Marshal(v.keys[i])
			b.Write(k)
			b.WriteByte(':')
		}
		b.WriteString(c.String())
	}
	b.WriteString(end)
	return b.String()
}

// sameJSON compares exactly: kinds, number text, string values, and object
// keys in order.
func sameJSON(a, b jv) bool { return a.String() == b.String() }

// sameJSONUnordered compares like sameJSON but ignores object key order.
func sameJSONUnordered(a, b jv) bool {
	if a.kind != b.kind || a.text != b.text || len(a.vals) != len(b.vals) {
		return false
	}
	if a.kind != 'o' {
		for i := range a.vals {
			if !sameJSONUnordered(a.vals[i], b.vals[i]) {
				return false
			}
		}
		return true
	}
	for i, k := range a.keys {
		j := indexOf(b.keys, k)
		if j < 0 || !sameJSONUnordered(a.vals[i], b.vals[j]) {
			return false
		}
	}
	return true
}

func indexOf(keys []string, k string) int {
	for i, x := range keys {
		if x == k {
			return i
		}
	}
	return -1
}

// evanphxResult is the outcome of evanphx on a (doc, patch) pair.
type evanphxResult struct {
	out      string
	err      error
	panicked bool
}

func runEvanphx(doc, patch string) evanphxResult { return runEvanphxWith(doc, patch, Options{}) }

// runEvanphxWith runs evanphx's ApplyWithOptions with its default options
// plus the switches of o.
func runEvanphxWith(doc, patch string, o Options) (r evanphxResult) {
	defer func() {
		if p := recover(); p != nil {
			r = evanphxResult{panicked: true, err: fmt.Errorf("panic: %v", p)}
		}
	}()
	p, err := jsonpatch.DecodePatch([]byte(patch))
	if err != nil {
		return evanphxResult{err: fmt.Errorf("decode: %w", err)}
	}
	opts := jsonpatch.NewApplyOptions()
	opts.EnsurePathExistsOnAdd = o.EnsurePathExistsOnAdd
	opts.AllowMissingPathOnRemove = o.AllowMissingPathOnRemove
	out, err := p.ApplyWithOptions([]byte(doc), opts)
	return evanphxResult{out: string(out), err: err}
}

// parseDoc parses JSON (or YAML) text into a YAML node tree.
func parseDoc(s string) (*yaml.Node, error) {
	rn, err := yaml.Parse(s)
	if err != nil {
		return nil, err
	}
	if d := rn.Document(); d == nil || (d.Kind == yaml.DocumentNode && len(d.Content) == 0) {
		return nil, errors.New("empty document")
	}
	return rn.YNode(), nil
}

// toPatch converts a JSON patch into a Patch; an explicit JSON null value
// becomes a nil Value when nilNull is set and a `null` node otherwise.
func toPatch(patch string, nilNull bool) (Patch, error) {
	var raw []map[string]json.RawMessage
	if err := json.Unmarshal([]byte(patch), &raw); err != nil {
		return nil, err
	}
	var p Patch
	for _, m := range raw {
		var op Operation
		for field, dst := range map[string]*string{"op": &op.Op, "path": &op.Path, "from": &op.From} {
			if v, ok := m[field]; ok {
				if err := json.Unmarshal(v, dst); err != nil {
					return nil, err
				}
			}
		}
		if v, ok := m["value"]; ok && !(nilNull && bytes.Equal(bytes.TrimSpace(v), []byte("null"))) {
			n, err := parseDoc(string(v))
			if err != nil {
				return nil, err
			}
			op.Value = n
		}
		p = append(p, op)
	}
	return p, nil
}
