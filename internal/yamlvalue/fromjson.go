// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlvalue

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// maxJSONDepth bounds the nesting of a JSON value FromJSON reads.
const maxJSONDepth = 10000

// FromJSON turns JSON text into a YAML node tree with the same JSON view:
// objects keep their key order (of duplicate keys the last value wins, as
// a JSON decoder reads them), numbers keep their text (evanphx compares and
// writes number bytes as they are), strings get the plainest style that
// reads back as the same string (NewString), and collections are block
// style (yamlpatch makes them flow inside flow collections). Both Kyverno's
// JSON patch values and KubeAdmiral's computed patch values read this way.
func FromJSON(raw []byte) (*yaml.Node, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	n, err := readValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("trailing data after JSON value")
	}
	return n, nil
}

func readValue(dec *json.Decoder, depth int) (*yaml.Node, error) {
	if depth > maxJSONDepth {
		return nil, errors.New("JSON value nested too deeply")
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagNull, Value: "null"}, nil
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagBool, Value: fmt.Sprint(t)}, nil
	case json.Number:
		tag := yaml.NodeTagInt
		if strings.ContainsAny(string(t), ".eE") {
			tag = yaml.NodeTagFloat
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: string(t)}, nil
	case string:
		return NewString(t), nil
	case json.Delim:
		if t == '[' {
			return readArray(dec, depth)
		}
		return readObject(dec, depth)
	default:
		return nil, fmt.Errorf("unexpected JSON token %v", tok)
	}
}

func readArray(dec *json.Decoder, depth int) (*yaml.Node, error) {
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: yaml.NodeTagSeq}
	for dec.More() {
		c, err := readValue(dec, depth+1)
		if err != nil {
			return nil, err
		}
		n.Content = append(n.Content, c)
	}
	if _, err := dec.Token(); err != nil { // ]
		return nil, err
	}
	return n, nil
}

func readObject(dec *json.Decoder, depth int) (*yaml.Node, error) {
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: yaml.NodeTagMap}
	at := map[string]int{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("unexpected JSON object key %v", tok)
		}
		v, err := readValue(dec, depth+1)
		if err != nil {
			return nil, err
		}
		if i, dup := at[key]; dup {
			n.Content[i+1] = v
			continue
		}
		at[key] = len(n.Content)
		n.Content = append(n.Content, NewString(key), v)
	}
	if _, err := dec.Token(); err != nil { // }
		return nil, err
	}
	return n, nil
}
