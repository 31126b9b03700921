// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package resourcelist

import (
	"bytes"
	"fmt"
	"io"
	"sync/atomic"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/parallel"
	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
)

// Writer writes one ResourceList exactly as kyaml's kio.ByteWriter does
// (KeepReaderAnnotations), but encodes every item on its own, on all cores,
// instead of building one document of the whole list: the YAML emitter
// keeps every event of a document, which for a large list costs most of a
// run's time and memory.
//
// Each item is encoded as the only element of a top-level sequence, so it
// sits at the same columns as under `items:` and the emitter folds long
// lines and places comments exactly where it would in the whole list.
//
// NewWriter writes the list's apiVersion and kind, WriteItems its items (as
// many times as the caller has batches of them) and Finish its
// functionConfig and results. The items key comes with the first item
// written, and `items: []` in its place when none was: the caller need not
// know in advance whether any item goes to the output.
type Writer struct {
	w     io.Writer
	items bool // the items key is written
}

// NewWriter writes the head of a list (apiVersion and kind) to w.
func NewWriter(w io.Writer, apiVersion, kind string) (*Writer, error) {
	if err := writeHead(w, apiVersion, kind); err != nil {
		return nil, err
	}
	return &Writer{w: w}, nil
}

// WriteItems runs produce(lo, hi, buf) for consecutive parts [lo, hi) of
// [0, n) on all cores and writes the buffers in order, as soon as each is
// ready (see writeOrdered). produce writes items with WriteItem.
func (lw *Writer) WriteItems(n int, produce func(lo, hi int, buf *bytes.Buffer) error) error {
	return writeOrdered(lw.write, n, produce)
}

// write writes items' text, after the items key when it is the first.
func (lw *Writer) write(p []byte) error {
	if len(p) == 0 {
		return nil
	}
	if !lw.items {
		if _, err := io.WriteString(lw.w, itemsKey); err != nil {
			return err
		}
		lw.items = true
	}
	_, err := lw.w.Write(p)
	return err
}

// Finish writes `items: []` when no item was written, then the list's
// functionConfig and results (EncodeResults), when present.
func (lw *Writer) Finish(fc *yaml.RNode, results []byte) error {
	if !lw.items {
		if _, err := io.WriteString(lw.w, emptyItems); err != nil {
			return err
		}
	}
	return writeTail(lw.w, fc, results)
}

// Item is an item to write: its node, and its text in the input when the
// node still holds what the text says (nil otherwise, e.g. when an override
// changed it, or it held an alias). An item that has a text is written as
// that text, byte for byte; any other is encoded.
type Item struct {
	Node   *yaml.RNode
	Source []byte
}

// WriteList writes a ResourceList of the given items with a Writer.
func WriteList(w io.Writer, apiVersion, kind string, items []Item, fc *yaml.RNode, results []byte) error {
	lw, err := NewWriter(w, apiVersion, kind)
	if err != nil {
		return err
	}
	err = lw.WriteItems(len(items), func(lo, hi int, buf *bytes.Buffer) error {
		for _, it := range items[lo:hi] {
			if err := WriteItem(buf, it); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return lw.Finish(fc, results)
}

// WriteItem writes an item's text when it has one, else encodes it.
func WriteItem(buf *bytes.Buffer, it Item) error {
	if it.Source == nil {
		return encodeItem(buf, it.Node)
	}
	buf.Write(it.Source)
	if len(it.Source) > 0 && it.Source[len(it.Source)-1] != '\n' {
		buf.WriteByte('\n')
	}
	return nil
}

// WriteFailure writes the ResourceList of a failed run: no items, only the
// results, so that nothing downstream can take it for rendered output. An
// empty apiVersion is the current ResourceList API's.
func WriteFailure(w io.Writer, apiVersion string, results framework.Results) error {
	if apiVersion == "" {
		apiVersion = kio.ResourceListAPIVersion
	}
	enc, err := EncodeResults(results)
	if err != nil {
		return err
	}
	lw, err := NewWriter(w, apiVersion, kio.ResourceListKind)
	if err != nil {
		return err
	}
	return lw.Finish(nil, enc)
}

// EncodeResults turns the results into a ResourceList's results field,
// its text; nil when there are none. The results are encoded a part at a
// time, on all cores, as items are (see Writer): a fan-out run reports one
// per resource and cluster placement leaves out, and one document of them
// all would keep every event in the emitter.
func EncodeResults(results framework.Results) ([]byte, error) {
	if len(results) == 0 {
		return nil, nil
	}
	buf := bytes.NewBufferString(resultsKey)
	err := writeOrdered(func(p []byte) error { _, err := buf.Write(p); return err }, len(results), func(lo, hi int, part *bytes.Buffer) error {
		// A part of the list, marshalled as a sequence by the encoder the
		// writer uses, is its text under the results key.
		b, err := yaml.Marshal(results[lo:hi])
		if err != nil {
			return fmt.Errorf("encode results: %w", err)
		}
		part.Write(b)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// The items key before the items, and in place of none; the results key.
const (
	itemsKey   = "items:\n"
	emptyItems = "items: []\n"
	resultsKey = "results:\n"
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
func writeTail(w io.Writer, fc *yaml.RNode, results []byte) error {
	if fc != nil {
		m := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "functionConfig"}, fc.YNode()}}
		if err := encodeTo(w, m); err != nil {
			return err
		}
	}
	_, err := w.Write(results)
	return err
}

// writeOrdered runs produce(lo, hi, buf) for consecutive parts [lo, hi) of
// [0, n) on all cores and hands the buffers to write in order, as soon as
// each is ready. The first error stops the parts that have not started and
// is returned.
func writeOrdered(write func([]byte) error, n int, produce func(lo, hi int, buf *bytes.Buffer) error) error {
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
			werr = write(p.buf.Bytes())
		}
		p.buf = bytes.Buffer{}
	}
	return werr
}

// encodeItem encodes one item as kio.ByteWriter would inside the list,
// after dropping an empty annotations map as the writer does, except that
// block scalars go-yaml would write wrongly are written in a style that
// keeps their value (yamlnode.BlockScalarsSafe).
func encodeItem(w io.Writer, it *yaml.RNode) error {
	if err := yaml.ClearEmptyAnnotations(it); err != nil {
		return err
	}
	seq := &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{yamlnode.BlockScalarsSafe(it.YNode())}}
	return encodeTo(w, seq)
}

func encodeTo(w io.Writer, n *yaml.Node) error {
	enc := yaml.NewEncoder(w)
	q := lendQueue(enc)
	if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{n}}); err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	if err := enc.Close(); err != nil {
		return err
	}
	returnQueue(q) // only a queue whose every event was emitted and cleared
	return nil
}

// WriteText writes items' text as WriteItem writes it, for a caller that
// built the text itself.
func (lw *Writer) WriteText(p []byte) error { return lw.write(p) }
