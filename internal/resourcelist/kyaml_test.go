// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package resourcelist

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
)

// TestWriteListMatchesKyaml holds the item-by-item writer to kyaml's
// whole-list kio.ByteWriter, byte for byte, on every ResourceList of the
// repository (goldens full of comments, examples). The writer differs on
// purpose in one way: block scalars go-yaml writes as another value are
// written in a style that keeps it (yamlnode.BlockScalarsSafe), so kyaml is
// given the items through BlockScalarsSafe too.
func TestWriteListMatchesKyaml(t *testing.T) {
	var files []string
	for _, pattern := range []string{"../../testdata/golden/*/*.yaml", "../../examples/*/resourcelist.yaml", "../../testdata/examples/stdin/output.yaml", "../../testdata/examples/kubeadmiral/output.yaml"} {
		m, err := filepath.Glob(pattern)
		require.NoError(t, err)
		files = append(files, m...)
	}
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			b, err := os.ReadFile(f)
			require.NoError(t, err)
			want := roundTrip(t, b, false)
			got := roundTrip(t, b, true)
			assert.Equal(t, want, got)
		})
	}
}

func roundTrip(t *testing.T, in []byte, ours bool) string {
	t.Helper()
	var out bytes.Buffer
	rw := &kio.ByteReadWriter{Reader: bytes.NewReader(in), Writer: &out, KeepReaderAnnotations: true}
	items, err := rw.Read()
	require.NoError(t, err)
	if ours {
		require.NoError(t, WriteList(&out, rw.WrappingAPIVersion, rw.WrappingKind, encodeAll(items), rw.FunctionConfig, resultsText(t, rw.Results)))
	} else {
		require.NoError(t, rw.Write(yamlnode.BlockScalarsSafeRNodes(items)))
	}
	return out.String()
}

// resultsText is a results field's text as EncodeResults writes it, one
// result at a time.
func resultsText(t *testing.T, results *yaml.RNode) []byte {
	t.Helper()
	if results == nil {
		return nil
	}
	buf := bytes.NewBufferString(resultsKey)
	for _, r := range results.Content() {
		require.NoError(t, encodeTo(buf, &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{r}}))
	}
	return buf.Bytes()
}

// encodeAll marks every item for encoding.
func encodeAll(items []*yaml.RNode) []Item {
	out := make([]Item, len(items))
	for i, n := range items {
		out[i] = Item{Node: n}
	}
	return out
}

// TestParseMatchesKyaml holds the parallel reader to kio.ByteReader: the
// same items, comments included, as rendered by the writer (and by
// kio.ByteWriter through BlockScalarsSafe, as above).
func TestParseMatchesKyaml(t *testing.T) {
	files, err := filepath.Glob("../../testdata/golden/*/*.yaml")
	require.NoError(t, err)
	more, err := filepath.Glob("../../examples/*/resourcelist.yaml")
	require.NoError(t, err)
	files = append(files, more...)
	// A fan-out output holds each resource id once per cluster, which the
	// reader refuses as input (duplicate items): it is not one.
	fanOut := []string{"../../testdata/golden/fan-out/expected.yaml", "../../testdata/golden/admissionpolicy-reinvocation-scoped/expected.yaml"}
	files = slices.DeleteFunc(files, func(f string) bool { return slices.Contains(fanOut, f) })
	inputs := map[string][]byte{
		"comments at column 0 above entries": []byte("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n# first\n# second\n- apiVersion: v1 # a\n  kind: ConfigMap\n  metadata: {name: a}\n  data:\n    x: |\n      line\n\n      after blank\n# third\n- apiVersion: v1\n  kind: Secret\n  metadata: {name: b}\n  # foot\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n"),
		"comment after the last entry":       []byte("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n# trailing\n"),
		"indented sequence":                  []byte("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata: {name: a}\n"),
		"CRLF":                               []byte("apiVersion: config.kubernetes.io/v1\r\nkind: ResourceList\r\nitems:\r\n- apiVersion: v1\r\n  kind: ConfigMap\r\n  metadata: {name: a}\r\n"),
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		inputs[f] = b
	}
	fast := 0
	for name, b := range inputs {
		t.Run(name, func(t *testing.T) {
			var want bytes.Buffer
			rw := &kio.ByteReadWriter{Reader: bytes.NewReader(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))), Writer: &want, KeepReaderAnnotations: true}
			items, err := rw.Read()
			require.NoError(t, err)
			require.NoError(t, rw.Write(yamlnode.BlockScalarsSafeRNodes(items)))

			norm, _ := Normalize(b)
			in, err := Parse(norm, Options{})
			require.NoError(t, err)
			var got bytes.Buffer
			require.NoError(t, WriteList(&got, in.APIVersion, in.Kind, encodeAll(in.Items), in.FunctionConfig, resultsText(t, rw.Results)))
			assert.Equal(t, want.String(), got.String())
			if _, ok := splitItems(norm); ok {
				fast++
			}
		})
	}
	assert.Greater(t, fast, len(files)/2, "the parallel path must serve most inputs")
}
