// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package conditions

import (
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/apply-overrides/apply-overrides/internal/wildcard"
	"github.com/apply-overrides/apply-overrides/kyverno/internal/strpattern"
)

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
	switch op := strpattern.Operator(pattern); op {
	case strpattern.InRange:
		lo, hi, _ := strpattern.Bounds(pattern)
		return condition(value, ">= "+lo) && condition(value, "<= "+hi)
	case strpattern.NotInRange:
		lo, hi, _ := strpattern.Bounds(pattern)
		return condition(value, "< "+lo) || condition(value, "> "+hi)
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
	case strpattern.Equal:
		return wildcard.Match(pattern, value)
	case strpattern.NotEqual:
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
	res, _ := strpattern.Compare(cmp, op)
	return res
}
