// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package parallel runs independent pieces of work on all cores. Both the
// ResourceList codec (parsing and encoding items) and the run (overriding
// resources) use it, so it sits below both.
package parallel

import (
	"runtime"
	"sync"
)

// ForEach runs fn(i) for every i in [0, n) on all cores and returns when
// all are done. Callers keep results by index, so output order never
// depends on scheduling.
func ForEach(n int, fn func(i int)) {
	next := make(chan int, n)
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	wg.Wait()
}
