// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package gen

import (
	"bytes"
	"testing"

	"github.com/apply-overrides/apply-overrides/oracle/kubeadmiral/internal/rl"
)

func TestDeterministic(t *testing.T) {
	for seed := uint64(1); seed < 20; seed++ {
		a, err := rl.Encode(Scenario(seed))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := rl.Encode(Scenario(seed))
		if !bytes.Equal(a, b) {
			t.Fatalf("seed %d: two different scenarios", seed)
		}
	}
}
