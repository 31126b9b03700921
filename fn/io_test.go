// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/kio"
)

// TestWriteResourceListMatchesKyaml holds the item-by-item writer to kyaml's
// whole-list kio.ByteWriter, byte for byte, on every ResourceList of the
// repository (goldens full of comments, examples).
func TestWriteResourceListMatchesKyaml(t *testing.T) {
	var files []string
	for _, pattern := range []string{"../testdata/golden/*/*.yaml", "../examples/*/resourcelist.yaml", "../examples/stdin/.expected/output.yaml", "../examples/kubeadmiral/.expected/output.yaml"} {
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
		require.NoError(t, writeResourceList(&out, rw.WrappingAPIVersion, rw.WrappingKind, items, rw.FunctionConfig, rw.Results))
	} else {
		require.NoError(t, rw.Write(items))
	}
	return out.String()
}
