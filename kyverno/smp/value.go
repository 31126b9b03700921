// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package smp

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/apply-overrides/apply-overrides/internal/wildcard"
	"github.com/apply-overrides/apply-overrides/kyverno/internal/strpattern"
)

// This file reimplements pkg/engine/pattern/pattern.go:Validate, the check
// of one resource value against one scalar pattern, with the operators of
// pkg/engine/operator.

// matchValue reports whether value satisfies the scalar pattern.
func matchValue(value, pattern any) bool {
	switch p := pattern.(type) {
	case bool:
		b, ok := value.(bool)
		return ok && b == p
	case int:
		return matchInt(value, int64(p))
	case int64:
		return matchInt(value, p)
	case float64:
		return matchFloat(value, p)
	case nil:
		return matchNil(value)
	case map[string]any:
		_, ok := value.(map[string]any)
		return ok
	case string:
		return matchStringPattern(value, p)
	default: // lists are not scalar patterns
		return false
	}
}

func matchInt(value any, p int64) bool {
	switch v := value.(type) {
	case int:
		return int64(v) == p
	case int64:
		return v == p
	case float64:
		return v == math.Trunc(v) && int64(v) == p
	case string:
		n, err := strconv.ParseInt(v, 10, 64)
		return err == nil && n == p
	}
	return false
}

func matchFloat(value any, p float64) bool {
	switch v := value.(type) {
	case int:
		return p == math.Trunc(p) && int(p) == v
	case int64:
		return p == math.Trunc(p) && int64(p) == v
	case float64:
		return v == p
	case string:
		f, err := strconv.ParseFloat(v, 64)
		return err == nil && f == p
	}
	return false
}

// matchNil: a null pattern accepts null and the zero values.
func matchNil(value any) bool {
	switch v := value.(type) {
	case float64:
		return v == 0
	case int:
		return v == 0
	case int64:
		return v == 0
	case string:
		return v == ""
	case bool:
		return !v
	case nil:
		return true
	}
	return false
}

// matchStringPattern evaluates "a | b" alternatives of "x & y" conjunctions.
func matchStringPattern(value any, pattern string) bool {
	if s, ok := value.(string); ok && s == pattern {
		return true
	}
	for _, alt := range strings.Split(pattern, "|") {
		if matchAll(value, strings.Trim(alt, " ")) {
			return true
		}
	}
	return false
}

func matchAll(value any, pattern string) bool {
	for _, c := range strings.Split(pattern, "&") {
		if !matchOperand(value, strings.Trim(c, " ")) {
			return false
		}
	}
	return true
}

// matchOperand evaluates one operator expression.
func matchOperand(value any, p string) bool {
	switch op := strpattern.Operator(p); op {
	case strpattern.InRange:
		lo, hi, ok := strpattern.Bounds(p)
		return ok && matchOperand(value, ">= "+lo) && matchOperand(value, "<= "+hi)
	case strpattern.NotInRange:
		lo, hi, ok := strpattern.Bounds(p)
		return ok && (matchOperand(value, "< "+lo) || matchOperand(value, "> "+hi))
	default:
		operand := strings.TrimSpace(p[len(op):])
		if res, ok := compareDuration(value, operand, op); ok {
			return res
		}
		if res, ok := compareQuantity(value, operand, op); ok {
			return res
		}
		return compareString(value, operand, op)
	}
}

// compare applies a comparison operator to the sign of a three-way
// comparison; ok is false for operators that do not compare.
func compare(cmp int, op string) (res, ok bool) { return strpattern.Compare(cmp, op) }

func compareDuration(value any, operand, op string) (res, ok bool) {
	want, err := time.ParseDuration(operand)
	if err != nil {
		return false, false
	}
	s, err := numberString(value)
	if err != nil {
		return false, false
	}
	got, err := time.ParseDuration(s)
	if err != nil {
		return false, false
	}
	switch {
	case got < want:
		return compare(-1, op)
	case got > want:
		return compare(1, op)
	}
	return compare(0, op)
}

func compareQuantity(value any, operand, op string) (res, ok bool) {
	want, err := resource.ParseQuantity(operand)
	if err != nil {
		return false, false
	}
	s, err := numberString(value)
	if err != nil {
		return false, false
	}
	got, err := resource.ParseQuantity(s)
	if err != nil {
		return false, false
	}
	return compare(got.Cmp(want), op)
}

// compareString matches the value's string form against a wildcard; only
// equality and inequality apply to strings.
func compareString(value any, operand, op string) bool {
	if op != strpattern.Equal && op != strpattern.NotEqual {
		return false
	}
	var s string
	switch v := value.(type) {
	case float64:
		s = strconv.FormatFloat(v, 'E', -1, 64)
	case int:
		s = strconv.Itoa(v)
	case int64:
		s = strconv.FormatInt(v, 10)
	case string:
		s = v
	case bool:
		s = strconv.FormatBool(v)
	default:
		return false
	}
	return wildcard.Match(operand, s) != (op == strpattern.NotEqual)
}

// numberString is the text a duration or quantity is parsed from.
func numberString(value any) (string, error) {
	switch v := value.(type) {
	case nil:
		return "0", nil
	case string:
		return v, nil
	case float64:
		return fmt.Sprintf("%f", v), nil
	case int64:
		return strconv.FormatInt(v, 10), nil
	case int:
		return strconv.Itoa(v), nil
	}
	return "", fmt.Errorf("could not convert %v to string", value)
}
