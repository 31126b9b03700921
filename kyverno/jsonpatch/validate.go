// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package jsonpatch

import (
	"regexp"

	evanphx "github.com/evanphx/json-patch/v5"
	k8syaml "k8s.io/apimachinery/pkg/util/yaml"
)

// placeholder is what upstream's policy validation puts in place of every
// variable before it parses the patch.
const placeholder = "kyvernojsonpatchvariable"

var (
	// variable is Kyverno's variable regex: {{...}} (one level of inner
	// braces allowed) at the start or after any character but a backslash,
	// which the match includes.
	variable = regexp.MustCompile(`(^|[^\\])(\{\{(?:\{[^{}]*\}|[^{}])*\}\})`)
	// variableAtStart tells whether a match begins with the variable itself.
	variableAtStart = regexp.MustCompile(`^\{\{(\{[^{}]*\}|[^{}])*\}\}`)
)

// ValidationError is a patchesJson6902 that Kyverno's policy validation
// rejects. Upstream puts the rule's path in the middle of the message; use
// Message to get it exactly.
type ValidationError struct {
	// Slash marks the leading-slash check, which also reports parse and
	// decode errors of the patch: "path must begin with a forward slash:
	// spec.rules[i]: <Detail>".
	Slash bool
	// Kind is the message's first part: "path must begin with a forward
	// slash", "unexpected kind" or "invalid value".
	Kind string
	// Detail follows the rule's path: the offending path, the operation,
	// or the underlying error's text.
	Detail string
	// Err is the underlying error, when there is one.
	Err error
}

// Error returns the message without the rule's path.
func (e *ValidationError) Error() string { return e.Kind + ": " + e.Detail }

// Unwrap returns the underlying error, if any.
func (e *ValidationError) Unwrap() error { return e.Err }

// Message returns upstream's full message for the rule at rulePath, which
// Kyverno spells "spec.rules[i]" (i is the rule's index), e.g.
// "path must begin with a forward slash: spec.rules[0]: metadata/labels".
func (e *ValidationError) Message(rulePath string) string {
	return e.Kind + ": " + rulePath + ": " + e.Detail
}

func invalid(slash bool, kind, detail string) *ValidationError {
	return &ValidationError{Slash: slash, Kind: kind, Detail: detail}
}

func causedBy(e *ValidationError, err error) *ValidationError {
	e.Err = err
	return e
}

// Validate runs the checks Kyverno's policy validation makes on a rule's
// top-level patchesJson6902 (foreach patches are not checked upstream):
// with every {{...}} variable replaced by a placeholder, the patch must
// parse (JSON when it starts with "{" after white space, else YAML via
// sigs.k8s.io/yaml) and decode as evanphx's DecodePatch decodes it, every
// path must begin with "/", and test operations need a value. Every error
// is a *ValidationError. An empty patch is valid.
func Validate(patch string) error {
	ops, err := decodeRaw(replaceVariables(patch))
	if err != nil {
		return causedBy(invalid(true, "path must begin with a forward slash", err.Error()), err)
	}
	for _, op := range ops {
		path, err := op.Path()
		if err != nil {
			return causedBy(invalid(true, "path must begin with a forward slash", err.Error()), err)
		}
		if len(path) == 0 || path[0] != '/' {
			return invalid(true, "path must begin with a forward slash", path)
		}
	}
	return checkOperations(ops)
}

// checkOperations is upstream's second pass: a known kind, and a value for
// every kind but remove, move and copy. DecodePatch already rejects unknown
// kinds, so only a test without value fails here.
func checkOperations(ops evanphx.Patch) error {
	for _, op := range ops {
		switch kind := op.Kind(); kind {
		case "remove", "move", "copy":
		case "add", "replace", "test":
			if _, err := op.ValueInterface(); err != nil {
				return invalid(false, "invalid value", err.Error())
			}
		default:
			return invalid(false, "unexpected kind", kind)
		}
	}
	return nil
}

// Paths returns the path of every operation of patch, in order, as it is
// written (variables included), for the caller's check that paths hold no
// variables. The patch is read as policy validation reads it; a patch that
// does not parse or decode (e.g. one whose variables are not quoted) gives
// an error, which upstream's variable check ignores.
func Paths(patch string) ([]string, error) {
	ops, err := decodeRaw(patch)
	if err != nil {
		return nil, err
	}
	paths := make([]string, 0, len(ops))
	for _, op := range ops {
		path, err := op.Path()
		if err != nil {
			return nil, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// decodeRaw parses a patch as policy validation does, with
// k8s.io/apimachinery's yaml.ToJSON, and decodes it with DecodePatch.
func decodeRaw(patch string) (evanphx.Patch, error) {
	raw, err := k8syaml.ToJSON([]byte(patch))
	if err != nil {
		return nil, err
	}
	ops, err := evanphx.DecodePatch(raw)
	if err != nil {
		return nil, err
	}
	return ops, nil
}

// replaceVariables replaces every variable of s by the placeholder,
// keeping the character before it that the regex matched too. Like
// upstream it keeps that character's first byte only, read as a code point
// (so "é{{x}}" becomes "Ã" + placeholder).
func replaceVariables(s string) string {
	return variable.ReplaceAllStringFunc(s, func(m string) string {
		if variableAtStart.MatchString(m) {
			return placeholder
		}
		return string(rune(m[0])) + placeholder
	})
}
