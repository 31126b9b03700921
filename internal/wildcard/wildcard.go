// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package wildcard matches Kyverno's wildcard patterns: `*` matches any
// run of characters (none included) and `?` exactly one; every other
// character, `.` and `\` included, matches itself, case-sensitively.
//
// The semantics are those of github.com/IGLOU-EU/go-wildcard v1.0.3, the
// version Kyverno v1.19.1 pins (its ext/wildcard.Match calls it), down to
// the corner cases: characters are runes, and a byte that is not valid
// UTF-8 reads as U+FFFD on both sides, so it matches any other invalid
// byte and a literal U+FFFD. The library is not used because it
// backtracks recursively at every `*`, which takes time exponential in
// the number of stars (`*a*a*a…*b` against a long run of `a`); Match
// keeps only the last star it met and takes O(len(pattern)·len(name))
// steps at worst, O(len(pattern)+len(name)) without a star.
package wildcard

import "unicode/utf8"

// Match reports whether name matches pattern, e.g. Match("kube-*", "kube-system").
//
// It is the classic greedy match with one backtrack point: a literal or
// `?` advances both strings, a `*` records where it stands, and on a
// mismatch the latest `*` takes one more character of name and matching
// resumes just after it. Going back to the latest star only is enough:
// whatever an earlier star could still absorb, the latest one can absorb
// too, since the pattern between them has matched at its leftmost place.
func Match(pattern, name string) bool {
	p, n := 0, 0
	star, mark := -1, 0 // star: pattern offset just after the latest '*'; mark: where its run of name ends
	for n < len(name) {
		if p < len(pattern) {
			pc, pw := utf8.DecodeRuneInString(pattern[p:])
			nc, nw := utf8.DecodeRuneInString(name[n:])
			switch {
			case pc == '*':
				p += pw
				star, mark = p, n
				continue
			case pc == '?' || pc == nc:
				p += pw
				n += nw
				continue
			}
		}
		if star < 0 {
			return false
		}
		_, w := utf8.DecodeRuneInString(name[mark:])
		mark += w
		p, n = star, mark
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}
