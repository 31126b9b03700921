// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package conditions

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/apply-overrides/apply-overrides/kyverno/internal/jsonvalue"
)

// Substituter resolves Kyverno variables in a JSON value (the caller
// supplies it; it returns upstream's error on failure). It receives a
// private copy of the value, so it may modify it in place.
type Substituter func(v any) (any, error)

// Evaluate evaluates a rule's raw preconditions value (nil, the plain list
// form or {any, all}) as upstream's CheckPreconditions does.
//
// ok=false comes with msg, the conditions' `message` fields of the failed
// conditions joined with "; " (for the plain-list form: the failed
// condition's message). When ok is true msg joins the messages of the
// conditions that held (";" for the plain-list form), as upstream.
//
// err is non-nil when a key or a value cannot be substituted
// ("failed to substitute variables in condition key: ..." / "... value: ...")
// or an operator is unknown ("failed to create handler for condition
// operator: ..."); the caller adds "failed to evaluate preconditions: ".
// Evaluation stops at the first error, even inside `any`.
func Evaluate(preconditions any, subst Substituter) (ok bool, msg string, err error) {
	c, err := Parse(preconditions)
	if err != nil {
		return false, "", fmt.Errorf("failed to parse preconditions: %w", err)
	}
	return c.Evaluate(subst)
}

// EvaluateForEach is [Evaluate] for a foreach entry's preconditions, which
// upstream only accepts in the {any, all} form (see [ParseForEach]).
func EvaluateForEach(preconditions any, subst Substituter) (ok bool, msg string, err error) {
	c, err := ParseForEach(preconditions)
	if err != nil {
		return false, "", fmt.Errorf("failed to parse preconditions: %w", err)
	}
	return c.Evaluate(subst)
}

// Evaluate evaluates the parsed conditions; see the package-level
// [Evaluate]. Each block stops at its first decisive condition (the first
// true one in `any`, the first false one in `all`), but the `all` block is
// evaluated even when `any` failed, so its errors still surface. An empty
// non-nil `any` block is false. A nil subst substitutes nothing.
func (c *Conditions) Evaluate(subst Substituter) (ok bool, msg string, err error) {
	if c.Legacy {
		var held []string
		for _, cond := range c.List {
			ok, err := cond.Evaluate(subst)
			if err != nil {
				return false, "", err
			}
			if !ok {
				return false, cond.Message, nil
			}
			held = append(held, cond.Message)
		}
		return true, joinNonEmpty(held, ";"), nil
	}
	var held, failed []string
	anyOK := true
	if c.Any != nil {
		anyOK = false
		for _, cond := range c.Any {
			ok, err := cond.Evaluate(subst)
			if err != nil {
				return false, "", err
			}
			if ok {
				anyOK = true
				held = append(held, cond.Message)
				break
			}
			failed = append(failed, cond.Message)
		}
	}
	allOK := true
	for _, cond := range c.All {
		ok, err := cond.Evaluate(subst)
		if err != nil {
			return false, "", err
		}
		if !ok {
			allOK = false
			failed = append(failed, cond.Message)
			break
		}
		held = append(held, cond.Message)
	}
	if anyOK && allOK {
		return true, joinNonEmpty(held, "; "), nil
	}
	return false, joinNonEmpty(failed, "; "), nil
}

// Evaluate substitutes the key, then the value, then applies the operator
// (upstream variables.Evaluate).
func (c Condition) Evaluate(subst Substituter) (bool, error) {
	key, err := substitute(c.Key, subst)
	if err != nil {
		return false, fmt.Errorf("failed to substitute variables in condition key: %w", err)
	}
	value, err := substitute(c.Value, subst)
	if err != nil {
		return false, fmt.Errorf("failed to substitute variables in condition value: %w", err)
	}
	ok, err := Operate(key, c.Operator, value)
	if err != nil {
		var unknown *UnknownOperatorError
		if errors.As(err, &unknown) {
			return false, fmt.Errorf("failed to create handler for condition operator: %w", err)
		}
		return false, fmt.Errorf("failed to evaluate condition operator %s: %w", c.Operator, err)
	}
	return ok, nil
}

// substitute resolves variables in a key or value. Only strings, lists and
// maps can hold variables; other values are returned as they are.
//
// Upstream decodes condition keys and values with Kubernetes' JSON decoder,
// which turns integral numbers into int64, and then re-encodes top-level
// scalars only. So a number written inside a list or map of the policy is an
// int64 at comparison time while a substituted number (from JMESPath) is a
// float64, which matters for deep equality and fmt.Sprint (int64 1000000 is
// "1000000", float64 is "1e+06"). substitute reproduces this by turning the
// literal integral numbers inside lists and maps into int64 after
// substitution.
func substitute(v any, subst Substituter) (any, error) {
	switch v.(type) {
	case string, []any, map[string]any:
	default:
		return v, nil
	}
	if subst == nil {
		return literalInts(v, deepCopy(v)), nil
	}
	out, err := subst(deepCopy(v))
	if err != nil {
		return nil, err
	}
	return literalInts(v, out), nil
}

// literalInts returns res with every number that sits, inside lists and
// maps, where orig has the same integral float64 converted to int64. res is
// not modified; containers are rebuilt.
func literalInts(orig, res any) any {
	switch o := orig.(type) {
	case []any:
		r, ok := res.([]any)
		if !ok || len(r) != len(o) {
			return res
		}
		out := make([]any, len(r))
		for i := range r {
			out[i] = literalInt(o[i], r[i])
		}
		return out
	case map[string]any:
		r, ok := res.(map[string]any)
		if !ok {
			return res
		}
		out := make(map[string]any, len(r))
		for k, rv := range r {
			if ov, ok := o[k]; ok {
				out[k] = literalInt(ov, rv)
			} else {
				out[k] = rv
			}
		}
		return out
	}
	return res
}

func literalInt(orig, res any) any {
	if of, ok := orig.(float64); ok {
		if rf, ok := res.(float64); ok && rf == of && isInt64(rf) {
			return int64(rf)
		}
		return res
	}
	return literalInts(orig, res)
}

// isInt64 reports whether f is integral and within int64's range.
func isInt64(f float64) bool {
	return f == math.Trunc(f) && f >= math.MinInt64 && f < math.MaxInt64
}

// deepCopy copies lists and maps so that a substituter cannot alter the
// policy.
func deepCopy(v any) any { return jsonvalue.DeepCopy(v) }

// joinNonEmpty joins the non-empty strings with sep.
func joinNonEmpty(parts []string, sep string) string {
	var kept []string
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, sep)
}
