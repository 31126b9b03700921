// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// terminalHintAfter is how long the function waits on a terminal for input
// before it says what it is waiting for.
const terminalHintAfter = time.Second

// watchTerminal returns stdin unchanged, unless it is a terminal: then a
// hint goes to stderr when no input came within terminalHintAfter, so that
// a person who ran the command by hand is not left facing a silent prompt.
func watchTerminal(stdin io.Reader, stderr io.Writer) io.Reader {
	f, ok := stdin.(*os.File)
	if !ok {
		return stdin
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return stdin
	}
	r := &hintReader{r: stdin}
	r.timer = time.AfterFunc(terminalHintAfter, func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		if !r.got {
			fmt.Fprintln(stderr, "apply-overrides: waiting for a KRM ResourceList on stdin (end it with Ctrl-D; pipe a file in, e.g. bin/apply-overrides < examples/stdin/resourcelist.yaml; --help for usage)")
		}
	})
	return r
}

// hintReader notes that input arrived.
type hintReader struct {
	r     io.Reader
	timer *time.Timer
	mu    sync.Mutex
	got   bool
}

func (h *hintReader) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if n > 0 || err != nil {
		h.mu.Lock()
		h.got = true
		h.mu.Unlock()
		h.timer.Stop()
	}
	return n, err
}
