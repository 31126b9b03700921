// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/apply-overrides/apply-overrides/internal/corpus"
)

// BenchmarkFunction runs the whole function (read, override, write) on
// generated ResourceLists; `make bench` runs it with -benchmem.
func BenchmarkFunction(b *testing.B) {
	for _, size := range []struct{ r, p int }{{100, 10}, {1000, 50}, {5000, 200}} {
		in := corpus.ResourceList(size.r, size.p)
		b.Run(fmt.Sprintf("R=%d/P=%d", size.r, size.p), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				out, results := execute(bytes.NewReader(in))
				if results.ExitCode() != 0 || len(out) == 0 {
					b.Fatalf("results=%v", results)
				}
			}
		})
	}
}
