// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyvernogen

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// Scenario is one generated differential case.
type Scenario struct {
	// Name is unique within a seed: "gen-<seed>-<index>".
	Name string
	// Resources are the manifests, one YAML document each.
	Resources []string
	// Namespaces are v1 Namespace objects of the resources' namespaces
	// (CEL scenarios only), one YAML document each: the render reads
	// them from its input, the CLI from a values file.
	Namespaces []string
	// Policies are the kyverno.io/v1 or v2beta1 ClusterPolicy or Policy
	// objects (some validate-only, which the render ignores) and, in CEL
	// scenarios, policies.kyverno.io MutatingPolicy or
	// NamespacedMutatingPolicy objects, one YAML document each, applied
	// in order.
	Policies []string
	// Features names the templates the policies were built from, for
	// reading failures.
	Features []string
}

// DefaultSeed is the seed the differential test uses unless told otherwise.
const DefaultSeed = 1

// Generate returns n scenarios for seed; scenario i depends on seed and i
// only.
func Generate(seed uint64, n int) []Scenario { return generate(seed, n, GenerateOne) }

// generate returns scenarios 0 to n-1 of seed, drawn by one.
func generate(seed uint64, n int, one func(seed uint64, i int) Scenario) []Scenario {
	out := make([]Scenario, 0, max(n, 0))
	for i := range n {
		out = append(out, one(seed, i))
	}
	return out
}

// GenerateOne returns scenario i of seed: three to six resources and one
// to three policies.
func GenerateOne(seed uint64, i int) Scenario {
	g := &gen{r: rand.New(rand.NewPCG(seed, uint64(i))), features: map[string]bool{}}
	s := Scenario{Name: fmt.Sprintf("gen-%d-%03d", seed, i)}
	used := map[string]bool{}
	for range 3 + g.r.IntN(4) {
		r := g.newResource(used)
		g.resources = append(g.resources, r)
		s.Resources = append(s.Resources, r.yaml())
	}
	for j := range 1 + g.r.IntN(3) {
		s.Policies = append(s.Policies, g.policy(j))
	}
	s.Features = g.sortedFeatures()
	return s
}

// sortedFeatures lists the templates drawn so far, sorted.
func (g *gen) sortedFeatures() []string {
	out := make([]string, 0, len(g.features))
	for f := range g.features {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// gen holds the random source and what a scenario has drawn so far.
type gen struct {
	r         *rand.Rand
	resources []resource
	features  map[string]bool
	// namespaced is set while drawing the rules of a namespaced Policy.
	namespaced bool
	// v2beta1 is set while drawing the rules of a kyverno.io/v2beta1
	// policy, which has no inline match form nor plain precondition list.
	v2beta1 bool
}

// chance reports true with probability p.
func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

// feature records that a template was used.
func (g *gen) feature(name string) { g.features[name] = true }

// pick returns a random element of xs, which must not be empty.
func pick[T any](g *gen, xs []T) T { return xs[g.r.IntN(len(xs))] }

// sample returns n distinct elements of xs (all of them when n is
// larger), in xs's order.
func sample[T any](g *gen, xs []T, n int) []T {
	idx := g.r.Perm(len(xs))
	if n < len(idx) {
		idx = idx[:n]
	}
	slices.Sort(idx)
	out := make([]T, 0, len(idx))
	for _, i := range idx {
		out = append(out, xs[i])
	}
	return out
}
