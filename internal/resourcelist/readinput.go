// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package resourcelist

import (
	"errors"
	"io"
	"os"
)

// readChunk is the size of the reads readInput makes when it cannot learn
// the input's size (a pipe): 1 MiB.
const readChunk = 1 << 20

// readInput reads r up to limit bytes, as io.ReadAll(io.LimitReader(r,
// limit)) does, without its way of growing one buffer: io.ReadAll copies
// everything read so far each time the buffer doubles, and a copy of many
// megabytes into memory the process has not touched yet cannot be
// preempted, so that a garbage collection starting meanwhile stops every
// other goroutine until it ends (tens of milliseconds per copy on a large
// input). readInput reads a regular file into one buffer of its size, and
// anything else in chunks of readChunk, joined once at the end one chunk
// at a time.
func readInput(r io.Reader, limit int64) ([]byte, error) {
	size := int64(readChunk)
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			if at, err := f.Seek(0, io.SeekCurrent); err == nil && st.Size() >= at {
				size = st.Size() - at + 1 // one byte more: the read that finds the end needs room
			}
		}
	}
	r = io.LimitReader(r, limit)
	var chunks [][]byte
	total := 0
	for {
		chunk := make([]byte, 0, min(size, limit+1))
		for len(chunk) < cap(chunk) {
			n, err := r.Read(chunk[len(chunk):cap(chunk)])
			chunk = chunk[:len(chunk)+n]
			if err != nil {
				total += len(chunk)
				chunks = append(chunks, chunk)
				if errors.Is(err, io.EOF) {
					err = nil
				}
				return join(chunks, total), err
			}
		}
		total += len(chunk)
		chunks = append(chunks, chunk)
		size = readChunk // the file grew, or the input is a pipe
	}
}

// join concatenates chunks of total bytes: the only chunk itself, else a
// new buffer filled one chunk at a time.
func join(chunks [][]byte, total int) []byte {
	if len(chunks) == 1 {
		return chunks[0]
	}
	out := make([]byte, 0, total)
	for _, c := range chunks {
		out = append(out, c...)
	}
	return out
}
