// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package resourcelist

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadInput: readInput reads what io.ReadAll(io.LimitReader(r, limit))
// reads, from a regular file (read at its offset), a pipe-like reader of
// several chunks and a reader that fails, and stops at the limit.
func TestReadInput(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 3*readChunk/16+5) // three chunks and a bit
	want := func(r io.Reader, limit int64) ([]byte, error) { return io.ReadAll(io.LimitReader(r, limit)) }

	for _, limit := range []int64{int64(len(data)) + 1, int64(len(data)), 10, readChunk, readChunk + 1, 0} {
		got, err := readInput(bytes.NewReader(data), limit)
		require.NoError(t, err)
		exp, _ := want(bytes.NewReader(data), limit)
		assert.Equal(t, exp, got, "limit %d", limit)

		got, err = readInput(iotest.OneByteReader(bytes.NewReader(data[:3000])), limit)
		require.NoError(t, err)
		exp, _ = want(bytes.NewReader(data[:3000]), limit)
		assert.Equal(t, exp, got, "one byte at a time, limit %d", limit)
	}

	path := filepath.Join(t.TempDir(), "input.yaml")
	require.NoError(t, os.WriteFile(path, data, 0o600))
	for _, at := range []int64{0, 7, int64(len(data))} {
		f, err := os.Open(path)
		require.NoError(t, err)
		_, err = f.Seek(at, io.SeekStart)
		require.NoError(t, err)
		got, err := readInput(f, int64(len(data))+1)
		require.NoError(t, f.Close())
		require.NoError(t, err)
		assert.Equal(t, data[at:], got, "file read from offset %d", at)
	}
	f, err := os.Open(path)
	require.NoError(t, err)
	got, err := readInput(f, 100)
	require.NoError(t, f.Close())
	require.NoError(t, err)
	assert.Equal(t, data[:100], got, "a file larger than the limit")

	boom := errors.New("boom")
	got, err = readInput(io.MultiReader(bytes.NewReader(data), iotest.ErrReader(boom)), int64(len(data))+1)
	assert.ErrorIs(t, err, boom)
	assert.Equal(t, data, got, "what was read before the error")
}
