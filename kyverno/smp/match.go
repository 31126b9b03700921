// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package smp

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// This file reimplements Kyverno's validate-pattern engine
// (pkg/engine/validate/validate.go:MatchPattern and its helpers), which
// mutate uses to check the value of a conditional or global anchor. Only
// whether it fails matters to mutate, but its errors are classified by
// their text (anchor/error.go:isError falls back to a substring search),
// so the messages are kept as upstream words them.

// Messages that mark an error as an anchor error.
const (
	negationMsg    = "negation anchor matched in resource"
	conditionalMsg = "conditional anchor mismatch"
	globalMsg      = "global anchor mismatch"
)

type anchorErrKind int

const (
	conditionalErr anchorErrKind = iota
	globalErr
	negationErr
)

// anchorError is a failed conditional, global or negation anchor.
type anchorError struct {
	kind anchorErrKind
	msg  string
}

func (e anchorError) Error() string { return e.msg }

func newAnchorError(kind anchorErrKind, prefix, msg string) anchorError {
	return anchorError{kind: kind, msg: prefix + ": " + msg}
}

// patternError is a failed pattern; skip marks a condition that did not
// apply rather than a violation.
type patternError struct {
	err  error
	path string
	skip bool
}

func (e *patternError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}

// isAnchorErr classifies err the way upstream does: by type when it is an
// anchorError, by message otherwise.
func isAnchorErr(err error, kind anchorErrKind, msg string) bool {
	if err == nil {
		return false
	}
	if ae, ok := err.(anchorError); ok { //nolint:errorlint // upstream checks the dynamic type only
		return ae.kind == kind
	}
	return strings.Contains(err.Error(), msg)
}

// isSkip is true for errors of conditional and global anchors.
func isSkip(err error) bool {
	return isAnchorErr(err, conditionalErr, conditionalMsg) || isAnchorErr(err, globalErr, globalMsg)
}

// combine joins errors as go.uber.org/multierr.Combine does: one error is
// returned as is, several read as their messages joined by "; ".
func combine(errs []error) error {
	if len(errs) == 1 {
		return errs[0]
	}
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Error()
	}
	return errors.New(strings.Join(msgs, "; "))
}

// matchPattern reports whether resource satisfies pattern; both are JSON
// values. A nil error is a match.
func matchPattern(resource, pattern any) error {
	path, err := matchElement(resource, pattern, "/")
	if err != nil {
		return &patternError{err: err, path: path, skip: isSkip(err)}
	}
	return nil
}

// matchElement dispatches on the pattern's type.
func matchElement(resource, pattern any, path string) (string, error) {
	switch p := pattern.(type) {
	case map[string]any:
		r, ok := resource.(map[string]any)
		if !ok {
			return path, fmt.Errorf("pattern and resource have different structures. Path: %s. Expected %T, found %T", path, pattern, resource)
		}
		return matchMap(r, p, path)
	case []any:
		r, ok := resource.([]any)
		if !ok {
			return path, fmt.Errorf("validation rule failed at path %s, resource does not satisfy the expected overlay pattern", path)
		}
		return matchArray(r, p, path)
	case string, float64, int, int64, bool, nil:
		values := []any{resource}
		if list, ok := resource.([]any); ok {
			values = list
		}
		for _, v := range values {
			if !matchValue(v, pattern) {
				return path, fmt.Errorf("resource value '%v' does not match '%v' at path %s", resource, pattern, path)
			}
		}
		return "", nil
	default:
		return path, fmt.Errorf("failed at '%s', pattern contains unknown type", path)
	}
}

// matchMap checks the anchors of a map pattern first (sorted by key), then
// its other keys.
func matchMap(resource, pattern map[string]any, path string) (string, error) {
	pattern = expandMetadata(pattern, resource)
	anchors, plain := splitAnchors(pattern)
	keys := make([]string, 0, len(anchors))
	for k := range anchors {
		keys = append(keys, k)
	}
	sort.Strings(keys)

	var skipped []error
	applied := 0
	for _, k := range keys {
		errPath, err := handleKey(k, anchors[k], path, resource)
		if err == nil {
			applied++
			continue
		}
		if isSkip(err) {
			skipped = append(skipped, err)
			continue
		}
		if !hasNonPatternError(skipped) {
			return errPath, err
		}
	}
	if len(skipped) > 0 && (applied == 0 || hasNonPatternError(skipped)) {
		return path, &patternError{err: combine(skipped), path: path, skip: true}
	}
	for _, k := range plainKeyOrder(plain) {
		if errPath, err := handleKey(k, plain[k], path, resource); err != nil {
			return errPath, err
		}
	}
	return "", nil
}

// hasNonPatternError is true if some error is not a *patternError (upstream
// calls such an error a skipped sibling).
func hasNonPatternError(errs []error) bool {
	for _, e := range errs {
		if _, ok := e.(*patternError); !ok { //nolint:errorlint // upstream checks the dynamic type only
			return true
		}
	}
	return false
}

// splitAnchors separates the condition, existence, equality and negation
// anchors of a map pattern from its other keys (global and add anchors
// count as other keys).
func splitAnchors(pattern map[string]any) (anchors, plain map[string]any) {
	anchors, plain = map[string]any{}, map[string]any{}
	for k, v := range pattern {
		if a := parseAnchor(k); a.is(modCondition, modExistence, modEquality, modNegation) {
			anchors[k] = v
		} else {
			plain[k] = v
		}
	}
	return anchors, plain
}

// plainKeyOrder is upstream's evaluation order of the other keys: sorted,
// then global anchors and keys with nested anchors moved to the front (each
// in front of the previous one), the rest behind.
func plainKeyOrder(plain map[string]any) []string {
	keys := make([]string, 0, len(plain))
	for k := range plain {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var front, back []string
	for _, k := range keys {
		if isGlobal(parseAnchor(k)) || hasNestedAnchors(plain[k]) {
			front = append([]string{k}, front...)
		} else {
			back = append(back, k)
		}
	}
	return append(front, back...)
}

// hasNestedAnchors reports whether a pattern value has a validation anchor
// key anywhere.
func hasNestedAnchors(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if parseAnchor(k).is(modCondition, modExistence, modEquality, modNegation, modGlobal) || hasNestedAnchors(x) {
				return true
			}
		}
	case []any:
		for _, x := range t {
			if hasNestedAnchors(x) {
				return true
			}
		}
	}
	return false
}

// matchArray checks a list pattern: a list of maps applies its first map to
// every element, a list of scalars its first scalar to every element, and
// nested lists are compared index by index.
func matchArray(resource, pattern []any, path string) (string, error) {
	if len(pattern) == 0 {
		return path, errors.New("pattern Array empty")
	}
	switch first := pattern[0].(type) {
	case map[string]any:
		return matchEachMap(resource, first, path)
	case string, float64, int, int64, bool, nil:
		return matchElement(resource, first, path)
	}
	if len(resource) < len(pattern) {
		return "", fmt.Errorf("validate Array failed, array length mismatch, resource Array len is %d and pattern Array len is %d", len(resource), len(pattern))
	}
	var skipped []error
	applied := 0
	for i, p := range pattern {
		errPath, err := matchElement(resource[i], p, path+strconv.Itoa(i)+"/")
		if err != nil {
			if isSkip(err) {
				skipped = append(skipped, err)
				continue
			}
			return errPath, err
		}
		applied++
	}
	if applied == 0 && len(skipped) > 0 {
		return path, &patternError{err: combine(skipped), path: path, skip: true}
	}
	return "", nil
}

// matchEachMap checks every resource element against one map pattern;
// elements whose conditions do not apply are skipped, and the list fails
// as skipped if no element applied.
func matchEachMap(resource []any, pattern map[string]any, path string) (string, error) {
	var skipped []error
	applied := 0
	for i, r := range resource {
		errPath, err := matchElement(r, pattern, path+strconv.Itoa(i)+"/")
		if err != nil {
			if isSkip(err) {
				skipped = append(skipped, err)
				continue
			}
			return errPath, err
		}
		applied++
	}
	if applied == 0 && len(skipped) > 0 {
		return path, &patternError{err: combine(skipped), path: path, skip: true}
	}
	return "", nil
}
