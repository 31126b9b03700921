// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlpatch

import (
	"math/rand"
	"testing"
)

// TestRandomAgainstEvanphx runs the fuzz generator on a fixed stream of
// pseudo-random inputs, so plain `go test` covers far more than the corpus,
// and checks that the mix of outcomes stays useful.
func TestRandomAgainstEvanphx(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var skipped, succeeded, failed, panicked int
	n := 5000
	if testing.Short() {
		n = 500
	}
	for i := 0; i < n; i++ {
		b := make([]byte, 10+r.Intn(200))
		r.Read(b)
		g := &generator{b: b}
		d := g.document()
		doc, patch := d.String(), g.patch(d)
		if !usablePatch(patch) {
			skipped++
			continue
		}
		if makesCycle(patch) {
			checkOursOnly(t, doc, patch, Options{})
			skipped++
			continue
		}
		switch ev := runEvanphx(doc, patch); {
		case ev.panicked:
			panicked++
		case ev.err != nil:
			failed++
		default:
			succeeded++
		}
		checkAgainstEvanphx(t, doc, patch, i%2 == 0)
	}
	t.Logf("skipped %d, evanphx succeeded %d, failed %d, panicked %d", skipped, succeeded, failed, panicked)
	if succeeded < n/10 || failed < n/10 {
		t.Fatalf("generator mix degraded: %d succeeded, %d failed", succeeded, failed)
	}
}
