// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package scenario

import (
	"fmt"
	"slices"
	"testing"

	"github.com/apply-overrides/apply-overrides/oracle/harness/rl"
)

func TestSample(t *testing.T) {
	xs := []string{"a", "b", "c", "d", "e"}
	r := NewRand(3)
	for i := 0; i < 200; i++ {
		s := r.Sample(xs, 2, 4)
		if len(s) < 2 || len(s) > 4 || !slices.IsSorted(s) || len(slices.Compact(slices.Clone(s))) != len(s) {
			t.Fatalf("Sample gave %v", s)
		}
		if s := r.Subset(xs, 2); len(s) < 1 || len(s) > 2 {
			t.Fatalf("Subset gave %v", s)
		}
	}
}

func TestList(t *testing.T) {
	l := List(42, []any{map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "apps"}}})
	if len(l.Items) != 1 || l.FunctionConfig.GetName() != "scenario-42" || l.FunctionConfig.GetAnnotations()[SeedAnnotation] != "42" {
		t.Errorf("list %+v", l)
	}
}

func TestDeterministic(t *testing.T) {
	gen := func(seed uint64) *rl.ResourceList {
		r := NewRand(seed)
		return List(seed, []any{map[string]any{"kind": "ConfigMap", "metadata": map[string]any{"name": fmt.Sprint(r.Between(0, 1000))}}})
	}
	if err := Deterministic(gen, 5); err != nil {
		t.Error(err)
	}
	calls := 0
	flaky := func(seed uint64) *rl.ResourceList {
		calls++
		return List(uint64(calls), nil)
	}
	if Deterministic(flaky, 1) == nil {
		t.Error("Deterministic accepted two different scenarios")
	}
}
