// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package resourcelist

import (
	"bytes"
	"io"
)

// Normalize strips a UTF-8 byte order mark and turns CRLF line ends into
// LF, as kyaml's reader does, before the input is read (Parse, Split); enc
// records what the output restores (Encoding.Apply).
func Normalize(data []byte) ([]byte, Encoding) {
	var enc Encoding
	if rest, ok := bytes.CutPrefix(data, []byte("\xef\xbb\xbf")); ok {
		data, enc.bom = rest, true
	}
	if bytes.Contains(data, []byte("\r\n")) {
		enc.crlf = bytes.Count(data, []byte("\r\n")) == bytes.Count(data, []byte("\n"))
		data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	}
	// A byte order mark may also open the document after a leading ---
	// (files concatenated by a tool); it is not part of the content.
	// ReplaceAll copies the input even without a match: only call it on one.
	if bomAfterStart := []byte("---\n\xef\xbb\xbf"); bytes.Contains(data, bomAfterStart) {
		data = bytes.ReplaceAll(data, bomAfterStart, []byte("---\n"))
	}
	return data, enc
}

// Encoding is what the output restores of the input's bytes: a byte order
// mark, and CRLF line ends when every line of the input had one.
type Encoding struct{ bom, crlf bool }

// Apply turns LF-ended output back into the input's encoding.
func (e Encoding) Apply(out []byte) []byte {
	if e.crlf {
		out = bytes.ReplaceAll(out, []byte("\n"), []byte("\r\n"))
	}
	if e.bom {
		out = append([]byte("\xef\xbb\xbf"), out...)
	}
	return out
}

// Writer is w writing in the input's encoding what is written to it in
// LF-ended text, for output too large to hold and Apply at once. The byte
// order mark, if any, goes with the first write.
func (e Encoding) Writer(w io.Writer) io.Writer {
	if !e.bom && !e.crlf {
		return w
	}
	return &encodingWriter{w: w, enc: e}
}

type encodingWriter struct {
	w   io.Writer
	enc Encoding
}

func (ew *encodingWriter) Write(p []byte) (int, error) {
	if _, err := ew.w.Write(ew.enc.Apply(p)); err != nil {
		return 0, err
	}
	ew.enc.bom = false // written once
	return len(p), nil
}
