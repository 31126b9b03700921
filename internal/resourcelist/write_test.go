// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package resourcelist

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// TestWriteList: items with a text come out as that text, byte for byte
// (with a line end added when it lacks one); the others are encoded, an
// empty annotations map dropped as kyaml's writer drops it.
func TestWriteList(t *testing.T) {
	odd := "- apiVersion:   v1 # spaced\n  kind: ConfigMap\n  metadata: {name: a}"
	items := []Item{
		{Node: yaml.MustParse("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}"), Source: []byte(odd)},
		{Node: yaml.MustParse("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n  annotations: {}\ndata:\n  k: v")},
	}
	var out bytes.Buffer
	require.NoError(t, WriteList(&out, "config.kubernetes.io/v1", "ResourceList", items, yaml.MustParse("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: fc}"), nil))
	assert.Equal(t, head+"items:\n"+odd+"\n"+
		"- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: b\n  data:\n    k: v\n"+
		"functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: fc}\n", out.String())

	out.Reset()
	require.NoError(t, WriteList(&out, "config.kubernetes.io/v1", "ResourceList", nil, nil, nil))
	assert.Equal(t, head+"items: []\n", out.String())
}

// TestWriter: the items key comes with the first item, whichever batch
// writes it; `items: []` stands in for none.
func TestWriter(t *testing.T) {
	cm := func(i int) Item {
		return Item{Node: yaml.MustParse(fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm%d}", i))}
	}
	entry := func(i int) string {
		return fmt.Sprintf("- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: cm%d}\n", i)
	}
	const n = 3*groupSize + 5 // several parts, the last one short

	// Every other part writes nothing (all its items dropped), and the
	// first batch none at all.
	var out bytes.Buffer
	lw, err := NewWriter(&out, "config.kubernetes.io/v1", "ResourceList")
	require.NoError(t, err)
	require.NoError(t, lw.WriteItems(0, nil))
	require.NoError(t, lw.WriteItems(n, func(lo, hi int, buf *bytes.Buffer) error {
		for i := lo; i < hi; i++ {
			if (i/groupSize)%2 == 1 {
				continue
			}
			if err := WriteItem(buf, cm(i)); err != nil {
				return err
			}
		}
		return nil
	}))
	require.NoError(t, lw.WriteItems(1, func(lo, hi int, buf *bytes.Buffer) error { return WriteItem(buf, cm(n)) }))
	results, err := EncodeResults(framework.Results{{Severity: framework.Info, Message: "done"}})
	require.NoError(t, err)
	require.NoError(t, lw.Finish(nil, results))
	var want strings.Builder
	want.WriteString(head + "items:\n")
	for i := range n + 1 {
		if i == n || (i/groupSize)%2 == 0 {
			want.WriteString(entry(i))
		}
	}
	want.WriteString("results:\n- message: done\n  severity: info\n")
	assert.Equal(t, want.String(), out.String())

	// No part writes anything.
	out.Reset()
	lw, err = NewWriter(&out, "config.kubernetes.io/v1", "ResourceList")
	require.NoError(t, err)
	require.NoError(t, lw.WriteItems(n, func(lo, hi int, buf *bytes.Buffer) error { return nil }))
	require.NoError(t, lw.Finish(nil, nil))
	assert.Equal(t, head+"items: []\n", out.String())
}

// TestWriteItemsStopsAtAnError: an error in a middle part is returned;
// what was written is a prefix of the list, in order, and holds nothing
// from that part on.
func TestWriteItemsStopsAtAnError(t *testing.T) {
	const parts = 40
	const bad = parts / 2
	boom := errors.New("boom")
	var full strings.Builder
	for i := range parts * groupSize {
		fmt.Fprintf(&full, "- %d\n", i)
	}
	for range 20 {
		var out bytes.Buffer
		lw, err := NewWriter(&out, "config.kubernetes.io/v1", "ResourceList")
		require.NoError(t, err)
		var produced atomic.Int32
		err = lw.WriteItems(parts*groupSize, func(lo, hi int, buf *bytes.Buffer) error {
			produced.Add(1)
			if lo == bad*groupSize {
				return boom
			}
			for i := lo; i < hi; i++ {
				fmt.Fprintf(buf, "- %d\n", i)
			}
			return nil
		})
		require.ErrorIs(t, err, boom)
		written := strings.TrimPrefix(out.String(), head)
		if written != "" {
			written = strings.TrimPrefix(written, "items:\n")
			assert.True(t, strings.HasPrefix(full.String(), written), "a prefix of the items, in order")
			assert.Zero(t, strings.Count(written, "\n")%groupSize, "whole parts")
		}
		assert.NotContains(t, written, fmt.Sprintf("- %d\n", bad*groupSize))
		assert.LessOrEqual(t, int(produced.Load()), parts)
	}
}

// TestWriteFailure: the list of a failed run holds no items, only the
// results; its apiVersion is the input's, or the current one.
func TestWriteFailure(t *testing.T) {
	results := framework.Results{{Severity: framework.Error, Message: "bad", Field: &framework.Field{Path: "spec"}}}
	var out bytes.Buffer
	require.NoError(t, WriteFailure(&out, "", results))
	assert.Equal(t, head+"items: []\nresults:\n- message: bad\n  severity: error\n  field:\n    path: spec\n", out.String())

	out.Reset()
	require.NoError(t, WriteFailure(&out, "config.kubernetes.io/v1alpha1", results))
	assert.True(t, strings.HasPrefix(out.String(), "apiVersion: config.kubernetes.io/v1alpha1\nkind: ResourceList\nitems: []\n"), out.String())

	n, err := EncodeResults(nil)
	assert.NoError(t, err)
	assert.Nil(t, n)
}

// TestWriteErrors: a destination that fails at any byte fails the write,
// whichever step meets it.
func TestWriteErrors(t *testing.T) {
	items := []Item{
		{Node: yaml.MustParse("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}")},
		{Node: yaml.MustParse("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}"), Source: []byte(cmB)},
	}
	fc := yaml.MustParse("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: fc}")
	results := framework.Results{{Severity: framework.Error, Message: "bad"}}
	for name, write := range map[string]func(w *shortWriter) error{
		"list": func(w *shortWriter) error {
			return WriteList(w, "config.kubernetes.io/v1", "ResourceList", items, fc, nil)
		},
		"failure": func(w *shortWriter) error { return WriteFailure(w, "", results) },
	} {
		t.Run(name, func(t *testing.T) {
			all := &shortWriter{left: 1 << 20}
			require.NoError(t, write(all))
			size := 1<<20 - all.left
			for at := range size {
				assert.ErrorContains(t, write(&shortWriter{left: at}), errFull.Error(), "failing after %d of %d bytes", at, size)
			}
		})
	}
}

var errFull = errors.New("full")

// shortWriter accepts left bytes, then fails.
type shortWriter struct{ left int }

func (w *shortWriter) Write(p []byte) (int, error) {
	if len(p) > w.left {
		n := w.left
		w.left = 0
		return n, errFull
	}
	w.left -= len(p)
	return len(p), nil
}
