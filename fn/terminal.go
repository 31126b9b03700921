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
	return hintAfter(stdin, stderr, terminalHintAfter)
}

// terminalHint is what a person at a terminal is told.
const terminalHint = "apply-overrides: waiting for a KRM ResourceList on stdin (end it with Ctrl-D; pipe a file in, e.g. bin/apply-overrides < examples/stdin/resourcelist.yaml; --help for usage)"

// hintAfter writes terminalHint to stderr when nothing was read from r
// within d.
func hintAfter(r io.Reader, stderr io.Writer, d time.Duration) io.Reader {
	h := &hintReader{r: r}
	h.timer = time.AfterFunc(d, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		if !h.got {
			fmt.Fprintln(stderr, terminalHint)
		}
	})
	return h
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
