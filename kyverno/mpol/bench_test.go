// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package mpol

import "testing"

// BenchmarkEnvironment measures building the CEL environment, which a run
// does once, on its first MutatingPolicy.
func BenchmarkEnvironment(b *testing.B) {
	for b.Loop() {
		if _, err := newEnv(); err != nil {
			b.Fatal(err)
		}
	}
}
