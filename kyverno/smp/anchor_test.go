// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package smp

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestParseAnchorMatchesUpstreamSyntax compares parseAnchor with upstream's
// regular expression on every short key over a small alphabet.
func TestParseAnchorMatchesUpstreamSyntax(t *testing.T) {
	upstream := regexp.MustCompile(`^([+<=X^])?\((.+)\)$`)
	alphabet := []string{"(", ")", "+", "<", "X", "a", " ", "\n", "\xff"}
	keys := []string{"", "(name)", "+(memory)", "<(emptyDir)", " =(a) ", "((a))", "X()", "^(\t)", "(a\nb)"}
	var gen func(prefix string, depth int)
	gen = func(prefix string, depth int) {
		keys = append(keys, prefix)
		if depth == 0 {
			return
		}
		for _, c := range alphabet {
			gen(prefix+c, depth-1)
		}
	}
	gen("", 5)
	for _, k := range keys {
		var want *anchor
		if m := upstream.FindStringSubmatch(strings.TrimSpace(k)); m != nil && m[2] != "" {
			want = &anchor{mod: m[1], key: m[2]}
		}
		assert.Equal(t, want, parseAnchor(k), "%q", k)
	}
}
