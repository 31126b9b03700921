// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package vars

import (
	"errors"
	"fmt"
	"strings"

	gojmespath "github.com/kyverno/go-jmespath"
)

// Limits against variables that expand into themselves (upstream loops
// forever on x = "{{x}}" inside a larger string).
const (
	maxRounds      = 1000
	maxStringBytes = 1 << 20
)

// resolver answers variable queries: the Context, or the validation mock.
type resolver interface {
	query(expr string) (any, error)
	Operation() string
}

// Substitute replaces, in every string and map key of doc (a JSON value),
// first the $(...) references into doc itself, then the {{ }} variables
// (pkg/engine/variables/vars.go SubstituteAll). doc is the whole rule for a
// rule without foreach, {patchStrategicMerge, patchesJson6902} for a foreach
// entry, a condition's key or value, a context entry's value. The result is
// a new JSON value; doc is not modified.
//
// Variables: innermost first, the string is scanned again after each round
// (so nested and adjacent variables resolve); a string that is exactly one
// variable takes the variable's value and type; otherwise non-strings are
// JSON-encoded into the string; {{- x}} is not scanned again; \{{ is not a
// variable and becomes {{ at the end; {{@}} is request.object plus the
// current path (see atVariable). Errors read as upstream's, e.g.
// `failed to resolve x.y at path /mutate/patchStrategicMerge/a: JMESPath
// query failed: Unknown key "y" in path` or `got nil resolved variable
// $(X) at path /mutate/...: <nil>`.
func Substitute(c *Context, doc any) (any, error) {
	if c == nil {
		return nil, errors.New("variable substitution needs a context")
	}
	return SubstituteAt(c, doc, "")
}

// SubstituteAt is Substitute for the part of a document at path (e.g.
// "/mutate"), which names the places in errors and {{@}}. The part must
// hold no $() reference: a reference reads the whole document.
func SubstituteAt(c *Context, doc any, path string) (any, error) {
	return substituteThen(c, doc, path, toJSON)
}

// SubstituteShared is SubstituteAt for a caller that only reads the
// result (a patch to apply): the parts of doc without a variable are
// shared with it instead of copied, and the result is converted to JSON
// values (toJSON) only when it holds other values. The result is the value
// SubstituteAt returns.
func SubstituteShared(c *Context, doc any, path string) (any, error) {
	return substituteThen(c, doc, path, func(v any) (any, error) {
		if isJSON(v) {
			return v, nil
		}
		return toJSON(v)
	})
}

// substituteThen substitutes doc at path in c's context and hands the
// result to finish.
func substituteThen(c *Context, doc any, path string, finish func(any) (any, error)) (any, error) {
	if c == nil {
		return nil, errors.New("variable substitution needs a context")
	}
	v, err := substituteAt(c, doc, path)
	if err != nil {
		return nil, err
	}
	return finish(v)
}

// isJSON reports whether v holds only what toJSON returns unchanged:
// strings, booleans, float64s, nil, and non-nil map[string]any and []any.
func isJSON(v any) bool {
	switch t := v.(type) {
	case nil, string, bool, float64:
		return true
	case map[string]any:
		if t == nil {
			return false // toJSON makes it an empty map
		}
		for _, e := range t {
			if !isJSON(e) {
				return false
			}
		}
		return true
	case []any:
		if t == nil {
			return false
		}
		for _, e := range t {
			if !isJSON(e) {
				return false
			}
		}
		return true
	}
	return false
}

// substitute is Substitute without the conversion to JSON numbers; the
// result is copied, as walk shares unchanged parts with doc.
func substitute(r resolver, doc any) (any, error) {
	v, err := substituteAt(r, doc, "")
	if err != nil {
		return nil, err
	}
	return deepCopy(v), nil
}

func substituteAt(r resolver, doc any, path string) (any, error) {
	doc, err := substituteReferences(doc)
	if err != nil {
		return nil, err
	}
	deleting := r.Operation() == "DELETE"
	return walkMarked(doc, path, "{{", func(elem any, at string) (any, error) {
		s, ok := elem.(string)
		if !ok {
			return elem, nil
		}
		return substituteString(r, s, at, deleting)
	})
}

func substituteString(r resolver, value, at string, deleting bool) (any, error) {
	if !strings.Contains(value, "{{") {
		return value, nil // reVariable needs "{{", and there is no \{{ to unescape
	}
	vars := findVariables(value)
	for round := 0; len(vars) > 0; round++ {
		if round >= maxRounds || len(value) > maxStringBytes {
			return nil, fmt.Errorf("failed to substitute variables at path %s: the value keeps expanding (a variable resolves to text that contains it)", at)
		}
		original := value
		shallow := false
		for _, v := range vars {
			initial := startsWithVariable(v)
			old := v
			if !initial {
				v = v[1:]
			}
			var variable string
			variable, shallow = variableTextCached(v)
			if variable == "@" {
				prefix := "target"
				if _, err := r.query("target"); err != nil {
					prefix = "request.object"
				}
				variable = atVariable(at, prefix)
			}
			if deleting {
				variable = strings.ReplaceAll(variable, "request.object", "request.oldObject")
			}
			sub, err := r.query(variable)
			if err != nil {
				switch err.(type) {
				case invalidVariableError, gojmespath.NotFoundError:
					return nil, err
				}
				return nil, fmt.Errorf("failed to resolve %v at path %s: %v", variable, at, err)
			}
			if original == v {
				return sub, nil
			}
			prefix := ""
			if !initial {
				prefix = string(rune(old[0]))
			}
			if shallow && sub != nil {
				s, ok := sub.(string)
				if !ok {
					return nil, fmt.Errorf("failed to resolve %v at path %s: a shallow variable ({{- }}) must resolve to a string, not %T", variable, at, sub)
				}
				sub = strings.ReplaceAll(s, "{{", `\{{`)
			}
			text, ok := sub.(string)
			if !ok {
				if text, err = encode(sub); err != nil {
					return nil, fmt.Errorf("failed to resolve %v at path %s: %s", variable, at, err.Error())
				}
			}
			value = strings.Replace(value, prefix+v, prefix+text, 1)
		}
		if shallow {
			break
		}
		vars = findVariables(value)
	}
	return strings.ReplaceAll(value, `\{{`, "{{"), nil
}

// The Context answers variable lookups without converting results.
var _ resolver = (*Context)(nil)
