// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package parallel

import (
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestForEach: every index runs exactly once, on more than one goroutine
// when there are cores for it, and ForEach returns only when all are done.
func TestForEach(t *testing.T) {
	for _, n := range []int{0, 1, 7, 1000} {
		runs := make([]atomic.Int32, n)
		var running, most atomic.Int32
		ForEach(n, func(i int) {
			now := running.Add(1)
			for m := most.Load(); now > m && !most.CompareAndSwap(m, now); m = most.Load() {
			}
			runtime.Gosched()
			runs[i].Add(1)
			running.Add(-1)
		})
		for i := range runs {
			assert.Equal(t, int32(1), runs[i].Load(), "n=%d: index %d", n, i)
		}
		assert.Zero(t, running.Load(), "n=%d: every call returned", n)
		assert.LessOrEqual(t, int(most.Load()), max(1, min(runtime.GOMAXPROCS(0), n)), "n=%d: at most one worker per core", n)
	}
}
