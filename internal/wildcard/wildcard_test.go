// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package wildcard

import (
	"strings"
	"testing"

	library "github.com/IGLOU-EU/go-wildcard"
	"github.com/stretchr/testify/assert"
)

func TestMatch(t *testing.T) {
	testCases := map[string]struct {
		pattern, name string
		want          bool
	}{
		"empty pattern, empty name":      {"", "", true},
		"empty pattern, some name":       {"", "a", false},
		"star matches empty":             {"*", "", true},
		"star matches anything":          {"*", "kube-system", true},
		"stars match empty":              {"***", "", true},
		"prefix":                         {"kube-*", "kube-system", true},
		"prefix, too short":              {"kube-*", "kube", false},
		"suffix":                         {"*-system", "kube-system", true},
		"infix":                          {"*be-sy*", "kube-system", true},
		"question is one character":      {"?", "a", true},
		"question is not zero":           {"?", "", false},
		"question is not two":            {"?", "ab", false},
		"question is one rune":           {"?", "é", true},
		"questions are runes":            {"??", "é", false},
		"dot is literal":                 {"a.c", "abc", false},
		"backslash is literal":           {`a\*`, `a\bc`, true},
		"case-sensitive":                 {"Config*", "configmap", false},
		"kind wildcard":                  {"Config*", "ConfigMap", true},
		"backtrack past a partial":       {"*ab", "aab", true},
		"backtrack to the latest star":   {"a*b*c", "abxbyc", true},
		"last star cannot reach":         {"a*b*c", "abxbyd", false},
		"question after star":            {"*?b", "ab", true},
		"question after star, too few":   {"*?b", "b", false},
		"invalid bytes read as U+FFFD":   {"\xff", "\xfe", true},
		"invalid byte vs literal U+FFFD": {"\uFFFD", "\xfe", true},
		"invalid byte is one rune":       {"?", "\xff", true},
		"pathological stars":             {strings.Repeat("*a", 21) + "*b", strings.Repeat("a", 10000), false},
		"pathological stars, matching":   {strings.Repeat("*a", 21) + "*b", strings.Repeat("a", 10000) + "b", true},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, tc.want, Match(tc.pattern, tc.name))
		})
	}
}

// TestMatchesLibrary compares with go-wildcard v1.0.3 on every pattern
// and name up to a few characters over small alphabets that hold the
// wildcards, a two-byte rune, U+FFFD and invalid bytes.
func TestMatchesLibrary(t *testing.T) {
	patterns := words([]string{"a", "b", "*", "?", "é", "\xff"}, 5)
	names := words([]string{"a", "b", "é", "\uFFFD", "\xfe"}, 4)
	for _, p := range patterns {
		for _, n := range names {
			if got, want := Match(p, n), library.Match(p, n); got != want {
				t.Fatalf("Match(%q, %q) = %t, go-wildcard says %t", p, n, got, want)
			}
		}
	}
}

// words returns every string of up to max symbols from alphabet.
func words(alphabet []string, max int) []string {
	out := []string{""}
	last := []string{""}
	for range max {
		var next []string
		for _, w := range last {
			for _, s := range alphabet {
				next = append(next, w+s)
			}
		}
		out = append(out, next...)
		last = next
	}
	return out
}

// FuzzWildcardMatchesLibrary compares with go-wildcard v1.0.3 on inputs
// small enough for its exponential backtracking.
func FuzzWildcardMatchesLibrary(f *testing.F) {
	f.Add("kube-*", "kube-system")
	f.Add("*a*b?c", "xaybzc")
	f.Add("?\xff*", "é\xfe")
	f.Fuzz(func(t *testing.T, pattern, name string) {
		if strings.Count(pattern, "*") > 8 || len(pattern) > 64 || len(name) > 64 {
			t.Skip("too large for the library's backtracking")
		}
		if got, want := Match(pattern, name), library.Match(pattern, name); got != want {
			t.Fatalf("Match(%q, %q) = %t, go-wildcard says %t", pattern, name, got, want)
		}
	})
}

// BenchmarkMatchPathological is the pattern that takes go-wildcard time
// exponential in its stars: here 10 000 characters times 43 pattern runes.
func BenchmarkMatchPathological(b *testing.B) {
	pattern := strings.Repeat("*a", 21) + "*b"
	name := strings.Repeat("a", 10000)
	for b.Loop() {
		if Match(pattern, name) {
			b.Fatal("matched")
		}
	}
}

// BenchmarkMatchKind is a typical Kyverno pattern.
func BenchmarkMatchKind(b *testing.B) {
	for b.Loop() {
		if !Match("Config*", "ConfigMap") {
			b.Fatal("no match")
		}
	}
}
