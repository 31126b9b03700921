// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package strpattern holds the operators of Kyverno's string patterns
// (upstream pkg/engine/operator), shared by condition operators and by the
// strategic-merge anchors' pattern checks: ">=1Gi", "!web-*", "1-10",
// "1!-10".
package strpattern

import (
	"regexp"
	"strings"
)

// The operators a string pattern can start with, and the two range forms.
const (
	Equal      = ""
	MoreEqual  = ">="
	LessEqual  = "<="
	NotEqual   = "!"
	More       = ">"
	Less       = "<"
	InRange    = "-"
	NotInRange = "!-"
)

// Range bounds: an optional sign (upstream's character class also admits
// '|'), digits, an optional fraction and an optional unit such as "Gi".
const bound = `([-+|]?\d+(?:\.\d+)?[A-Za-z]*)`

var (
	inRange    = regexp.MustCompile(`^` + bound + `-` + bound + `$`)
	notInRange = regexp.MustCompile(`^` + bound + `!-` + bound + `$`)
)

// Operator returns the operator pattern p starts with, InRange or
// NotInRange for "a-b" and "a!-b", or Equal.
func Operator(p string) string {
	if len(p) < 2 {
		return Equal
	}
	for _, op := range []string{MoreEqual, LessEqual, More, Less, NotEqual} {
		if strings.HasPrefix(p, op) {
			return op
		}
	}
	switch {
	case notInRange.MatchString(p):
		return NotInRange
	case inRange.MatchString(p):
		return InRange
	}
	return Equal
}

// Bounds returns the bounds of a range pattern ("a-b" or "a!-b").
func Bounds(p string) (lo, hi string, ok bool) {
	m := notInRange.FindStringSubmatch(p)
	if m == nil {
		m = inRange.FindStringSubmatch(p)
	}
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

// Compare applies a comparison operator to the result of a three-way
// comparison; ok is false for the range operators.
func Compare(cmp int, op string) (res, ok bool) {
	switch op {
	case Equal:
		return cmp == 0, true
	case NotEqual:
		return cmp != 0, true
	case More:
		return cmp > 0, true
	case Less:
		return cmp < 0, true
	case MoreEqual:
		return cmp >= 0, true
	case LessEqual:
		return cmp <= 0, true
	}
	return false, false
}
