// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"bytes"
	"fmt"
	"io"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// writeResourceList writes a ResourceList exactly as kyaml's
// kio.ByteWriter does (KeepReaderAnnotations), but encodes every item on its
// own, on all cores, instead of building one document of the whole list:
// the YAML emitter keeps every event of a document, which for a large list
// costs most of a run's time and memory.
//
// Each item is encoded as the only element of a top-level sequence, so it
// sits at the same columns as under `items:` and the emitter folds long
// lines and places comments exactly where it would in the whole list.
func writeResourceList(w io.Writer, apiVersion, kind string, items []*yaml.RNode, fc, results *yaml.RNode) error {
	head := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Value: "apiVersion"}, {Kind: yaml.ScalarNode, Value: apiVersion},
		{Kind: yaml.ScalarNode, Value: "kind"}, {Kind: yaml.ScalarNode, Value: kind},
	}}
	if err := encodeTo(w, head); err != nil {
		return err
	}
	if len(items) == 0 {
		if _, err := io.WriteString(w, "items: []\n"); err != nil {
			return err
		}
	} else {
		if _, err := io.WriteString(w, "items:\n"); err != nil {
			return err
		}
		if err := encodeItems(w, items); err != nil {
			return err
		}
	}
	for _, f := range []struct {
		key string
		n   *yaml.RNode
	}{{"functionConfig", fc}, {"results", results}} {
		if f.n == nil {
			continue
		}
		m := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: f.key}, f.n.YNode()}}
		if err := encodeTo(w, m); err != nil {
			return err
		}
	}
	return nil
}

// encodeItems encodes the items in parallel and writes them in order.
func encodeItems(w io.Writer, items []*yaml.RNode) error {
	const chunk = 64
	type part struct {
		buf  bytes.Buffer
		err  error
		done chan struct{}
	}
	parts := make([]*part, (len(items)+chunk-1)/chunk)
	for i := range parts {
		parts[i] = &part{done: make(chan struct{})}
	}
	go forEach(len(parts), func(i int) {
		p := parts[i]
		for _, it := range items[i*chunk : min((i+1)*chunk, len(items))] {
			if p.err = encodeItem(&p.buf, it); p.err != nil {
				break
			}
		}
		close(p.done)
	})
	var werr error
	for _, p := range parts { // in order, as soon as each part is ready
		<-p.done
		switch {
		case werr != nil:
		case p.err != nil:
			werr = p.err
		default:
			_, werr = w.Write(p.buf.Bytes())
		}
		p.buf = bytes.Buffer{}
	}
	return werr
}

// encodeItem encodes one item as kio.ByteWriter would inside the list,
// after dropping an empty annotations map as the writer does.
func encodeItem(w io.Writer, it *yaml.RNode) error {
	if err := yaml.ClearEmptyAnnotations(it); err != nil {
		return err
	}
	seq := &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{it.YNode()}}
	return encodeTo(w, seq)
}

func encodeTo(w io.Writer, n *yaml.Node) error {
	enc := yaml.NewEncoder(w)
	if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{n}}); err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	return enc.Close()
}
