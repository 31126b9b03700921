// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package conditions

import (
	"regexp"
	"strings"
	"time"

	wildcard "github.com/IGLOU-EU/go-wildcard"
	"k8s.io/apimachinery/pkg/api/resource"
)

// Pattern operators of Kyverno's string patterns (upstream pkg/engine/operator).
const (
	opEqual      = ""
	opMoreEqual  = ">="
	opLessEqual  = "<="
	opNotEqual   = "!"
	opMore       = ">"
	opLess       = "<"
	opInRange    = "-"
	opNotInRange = "!-"
)

// Range bounds: an optional sign (upstream's character class also admits
// '|'), digits, an optional fraction and an optional unit such as "Gi" or
// "m".
const rangeBound = `([-+|]?\d+(?:\.\d+)?[A-Za-z]*)`

var (
	inRangeRe    = regexp.MustCompile(`^` + rangeBound + `-` + rangeBound + `$`)
	notInRangeRe = regexp.MustCompile(`^` + rangeBound + `!-` + rangeBound + `$`)
)

// patternOp returns the operator a string pattern starts with, or the range
// operators for "a-b" and "a!-b" patterns, or opEqual.
func patternOp(p string) string {
	if len(p) < 2 {
		return opEqual
	}
	for _, op := range []string{opMoreEqual, opLessEqual, opMore, opLess, opNotEqual} {
		if strings.HasPrefix(p, op) {
			return op
		}
	}
	switch {
	case notInRangeRe.MatchString(p):
		return opNotInRange
	case inRangeRe.MatchString(p):
		return opInRange
	}
	return opEqual
}

// rangeMatch matches a string against a Kyverno string pattern the way
// upstream's pattern.Validate does for a string value: equal strings match;
// otherwise the pattern is a '|'-separated list of alternatives, each a
// '&'-separated list of conditions such as ">=1Gi", "!web-*", "1-10" or
// "1!-10". A condition compares durations when both sides are Go durations,
// then quantities when both are quantities; otherwise only equality and
// inequality apply, with wildcards.
func rangeMatch(value, pattern string) bool {
	if value == pattern {
		return true
	}
	for _, alt := range strings.Split(pattern, "|") {
		if allConditions(value, strings.Trim(alt, " ")) {
			return true
		}
	}
	return false
}

func allConditions(value, pattern string) bool {
	for _, c := range strings.Split(pattern, "&") {
		if !condition(value, strings.Trim(c, " ")) {
			return false
		}
	}
	return true
}

func condition(value, pattern string) bool {
	switch op := patternOp(pattern); op {
	case opInRange:
		m := inRangeRe.FindStringSubmatch(pattern)
		return condition(value, ">= "+m[1]) && condition(value, "<= "+m[2])
	case opNotInRange:
		m := notInRangeRe.FindStringSubmatch(pattern)
		return condition(value, "< "+m[1]) || condition(value, "> "+m[2])
	default:
		return compareWithOp(value, strings.TrimSpace(pattern[len(op):]), op)
	}
}

func compareWithOp(value, pattern, op string) bool {
	if pd, err := time.ParseDuration(pattern); err == nil {
		if vd, err := time.ParseDuration(value); err == nil {
			return applyOp(compareDurations(vd, pd), op)
		}
	}
	if pq, err := resource.ParseQuantity(pattern); err == nil {
		if vq, err := resource.ParseQuantity(value); err == nil {
			return applyOp(vq.Cmp(pq), op)
		}
	}
	switch op {
	case opEqual:
		return wildcard.Match(pattern, value)
	case opNotEqual:
		return !wildcard.Match(pattern, value)
	}
	return false
}

func compareDurations(a, b time.Duration) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// applyOp turns a comparison result (-1, 0, 1) into the operator's verdict.
func applyOp(cmp int, op string) bool {
	switch op {
	case opEqual:
		return cmp == 0
	case opNotEqual:
		return cmp != 0
	case opMore:
		return cmp > 0
	case opLess:
		return cmp < 0
	case opMoreEqual:
		return cmp >= 0
	case opLessEqual:
		return cmp <= 0
	}
	return false
}
