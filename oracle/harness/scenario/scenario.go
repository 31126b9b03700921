// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package scenario holds what the oracles' scenario generators share: a
// seeded random source with the draws they make, and the ResourceList a
// scenario's items become. A generator's choices are its own; the same
// seed gives the same draws here, so the scenarios stay deterministic.
package scenario

import (
	"fmt"
	"math/rand/v2"
	"sort"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/apply-overrides/apply-overrides/oracle/harness/rl"
)

// SeedAnnotation on the functionConfig records the scenario's seed.
const SeedAnnotation = "oracle.apply-overrides.dev/seed"

// Rand is the random source of one scenario.
type Rand struct {
	*rand.Rand
}

// NewRand returns the random source of the scenario with this seed.
func NewRand(seed uint64) *Rand {
	return &Rand{rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// Chance is true with probability p.
func (r *Rand) Chance(p float64) bool { return r.Float64() < p }

// Pick returns one of xs.
func (r *Rand) Pick(xs []string) string { return xs[r.IntN(len(xs))] }

// Between returns a number in [lo, hi].
func (r *Rand) Between(lo, hi int) int { return lo + r.IntN(hi-lo+1) }

// Sample returns between lo and hi of xs (hi at most len(xs)), in xs's
// order.
func (r *Rand) Sample(xs []string, lo, hi int) []string {
	n := r.Between(lo, hi)
	idx := r.Perm(len(xs))[:n]
	sort.Ints(idx)
	out := make([]string, 0, n)
	for _, i := range idx {
		out = append(out, xs[i])
	}
	return out
}

// Subset returns a non-empty random subset of xs of at most max elements,
// in xs's order.
func (r *Rand) Subset(xs []string, max int) []string {
	return r.Sample(xs, 1, min(max, len(xs)))
}

// Strs converts strings to the []any of an unstructured object.
func Strs(xs []string) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// Map converts a string map to the map[string]any of an unstructured
// object.
func Map(ss map[string]string) map[string]any {
	out := map[string]any{}
	for k, v := range ss {
		out[k] = v
	}
	return out
}

// List makes the scenario with this seed of its items (each a
// map[string]any): the functionConfig is a ConfigMap named after the seed,
// with data.placement "enforce" and the seed in SeedAnnotation.
func List(seed uint64, items []any) *rl.ResourceList {
	out := &rl.ResourceList{}
	for _, it := range items {
		out.Items = append(out.Items, &unstructured.Unstructured{Object: it.(map[string]any)})
	}
	out.FunctionConfig = &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": fmt.Sprintf("scenario-%d", seed), "annotations": map[string]any{SeedAnnotation: fmt.Sprint(seed)}},
		"data":     map[string]any{"placement": "enforce"},
	}}
	return out
}

// Deterministic returns an error unless generate gives byte-identical
// scenarios twice for each seed in [1, seeds].
func Deterministic(generate func(seed uint64) *rl.ResourceList, seeds uint64) error {
	for seed := uint64(1); seed <= seeds; seed++ {
		a, err := rl.Encode(generate(seed))
		if err != nil {
			return err
		}
		b, err := rl.Encode(generate(seed))
		if err != nil {
			return err
		}
		if string(a) != string(b) {
			return fmt.Errorf("seed %d: two different scenarios", seed)
		}
	}
	return nil
}
