// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"bytes"
	"fmt"
	"io"
	"sync/atomic"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/parallel"
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
//
// An item that no override touched and whose text the input kept is written
// as that text, byte for byte.
func writeResourceList(w io.Writer, apiVersion, kind string, items []outItem, source func(int) []byte, fc, results *yaml.RNode) error {
	return writeList(w, apiVersion, kind, len(items) > 0, func(w io.Writer) error {
		return writeOrdered(w, len(items), func(lo, hi int, buf *bytes.Buffer) error {
			for _, it := range items[lo:hi] {
				if err := writeItem(buf, it.node, source(it.index), it.touched); err != nil {
					return err
				}
			}
			return nil
		})
	}, fc, results)
}

// writeItem writes an item's text from the input when it has one and was
// not touched, else encodes it.
func writeItem(buf *bytes.Buffer, n *yaml.RNode, src []byte, touched bool) error {
	if src == nil || touched {
		return encodeItem(buf, n)
	}
	buf.Write(src)
	if len(src) > 0 && src[len(src)-1] != '\n' {
		buf.WriteByte('\n')
	}
	return nil
}

// writeFailure writes the ResourceList of a failed run: no items, only the
// results, so that nothing downstream can take it for rendered output.
func writeFailure(w io.Writer, apiVersion string, results framework.Results) error {
	if apiVersion == "" {
		apiVersion = kio.ResourceListAPIVersion
	}
	enc, err := encodeResults(results)
	if err != nil {
		return err
	}
	return writeList(w, apiVersion, kio.ResourceListKind, false, nil, nil, enc)
}

// writeList writes a ResourceList whose items writeItems writes; any is
// false for an empty list.
func writeList(w io.Writer, apiVersion, kind string, any bool, writeItems func(io.Writer) error, fc, results *yaml.RNode) error {
	if err := writeHead(w, apiVersion, kind); err != nil {
		return err
	}
	if !any {
		if _, err := io.WriteString(w, emptyItems); err != nil {
			return err
		}
	} else {
		if _, err := io.WriteString(w, itemsKey); err != nil {
			return err
		}
		if err := writeItems(w); err != nil {
			return err
		}
	}
	return writeTail(w, fc, results)
}

// The items key before the items, and in place of none.
const (
	itemsKey   = "items:\n"
	emptyItems = "items: []\n"
)

// writeHead writes a list's apiVersion and kind.
func writeHead(w io.Writer, apiVersion, kind string) error {
	head := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Value: "apiVersion"}, {Kind: yaml.ScalarNode, Value: apiVersion},
		{Kind: yaml.ScalarNode, Value: "kind"}, {Kind: yaml.ScalarNode, Value: kind},
	}}
	return encodeTo(w, head)
}

// writeTail writes a list's functionConfig and results, when present.
func writeTail(w io.Writer, fc, results *yaml.RNode) error {
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

// writeOrdered runs produce(lo, hi, buf) for consecutive parts [lo, hi) of
// [0, n) on all cores and writes the buffers to w in order, as soon as each
// is ready. The first error stops the parts that have not started and is
// returned.
func writeOrdered(w io.Writer, n int, produce func(lo, hi int, buf *bytes.Buffer) error) error {
	const chunk = groupSize
	type part struct {
		buf  bytes.Buffer
		err  error
		done chan struct{}
	}
	parts := make([]*part, (n+chunk-1)/chunk)
	for i := range parts {
		parts[i] = &part{done: make(chan struct{})}
	}
	var stop atomic.Bool
	go parallel.ForEach(len(parts), func(i int) {
		p := parts[i]
		defer close(p.done)
		if stop.Load() {
			return
		}
		if p.err = produce(i*chunk, min((i+1)*chunk, n), &p.buf); p.err != nil {
			stop.Store(true)
		}
	})
	var werr error
	for _, p := range parts { // in order, as soon as each part is ready
		<-p.done
		switch {
		case werr != nil:
		case p.err != nil:
			werr = p.err
		case stop.Load():
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
