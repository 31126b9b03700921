// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package resourcelist

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// encodePlain is encodeTo without a lent queue: go-yaml's own encoding.
func encodePlain(t testing.TB, n *yaml.Node) string {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	require.NoError(t, enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{n}}))
	require.NoError(t, enc.Close())
	return b.String()
}

// bigItem is a ConfigMap of about 4n events, comments included.
func bigItem(n int) *yaml.Node {
	var b strings.Builder
	b.WriteString("apiVersion: v1 # head\nkind: ConfigMap\nmetadata:\n  name: big\n  labels: {a: b}\ndata:\n")
	for i := range n {
		fmt.Fprintf(&b, "  k%d: v%d # line %d\n", i, i, i)
	}
	b.WriteString("list:\n- |\n  block\n  text\n- [x, y]\n")
	return yaml.MustParse(b.String()).YNode()
}

// TestEventQueueLent: with the go-yaml go.mod pins, an encoder's queue is
// found and lent, and taken back emptied; a go-yaml whose layout differs
// fails here (encoding then works unlent, only slower: see emitqueue.go).
func TestEventQueueLent(t *testing.T) {
	require.NotNil(t, eventQueue().typ, "go-yaml's Encoder no longer has the fields emitqueue.go reaches: update eventQueue to the new layout, or drop the lending")
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	q := lendQueue(enc)
	require.True(t, q.IsValid(), "a new encoder's queue is lent")
	assert.Equal(t, queueCap, q.Cap())
	require.NoError(t, enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{bigItem(10)}}))
	require.NoError(t, enc.Close())
	assert.Positive(t, q.Len(), "the emitter queued its events in the lent queue")
	returnQueue(q)
	assert.Zero(t, q.Len(), "the encoder gives the queue up")
	assert.Zero(t, q.Cap())

	used := yaml.NewEncoder(&b)
	require.NoError(t, used.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{bigItem(1)}}))
	assert.False(t, lendQueue(used).IsValid(), "an encoder that has emitted keeps its own queue")
	returnQueue(reflect.Value{}) // nothing lent, nothing taken
}

// TestEncodeSameWithLentQueue: a lent queue changes nothing in the text,
// for items smaller and larger than the room it starts with, on all cores,
// and after an encode that failed.
func TestEncodeSameWithLentQueue(t *testing.T) {
	items := []*yaml.Node{bigItem(1), bigItem(100), bigItem(queueCap), bigItem(3 * queueCap)}
	want := make([]string, len(items))
	for i, n := range items {
		want[i] = encodePlain(t, &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{n}})
	}
	assert.Error(t, encodeTo(failingWriter{}, &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{items[1]}}))
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for r := range 20 {
				i := (w + r) % len(items)
				var b bytes.Buffer
				if !assert.NoError(t, encodeTo(&b, &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{items[i]}})) {
					return
				}
				assert.Equal(t, want[i], b.String())
			}
		})
	}
	wg.Wait()
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// BenchmarkEncodeItem: what an item of about 400 events costs to encode,
// with a lent queue (encodeTo) and with go-yaml's own (plain).
func BenchmarkEncodeItem(b *testing.B) {
	n := &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{bigItem(100)}}
	b.Run("lent", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var buf bytes.Buffer
			if err := encodeTo(&buf, n); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("plain", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			encodePlain(b, n)
		}
	})
}
