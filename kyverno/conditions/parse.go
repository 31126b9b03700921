// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package conditions

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Condition is one precondition, e.g. {key: "{{ request.object.kind }}",
// operator: Equals, value: Pod}.
type Condition struct {
	// Key is the left-hand side as written (a JSON value, nil when absent).
	Key any
	// Operator is the operator name as written, e.g. "AnyIn".
	Operator string
	// Value is the right-hand side as written (a JSON value, nil when absent).
	Value any
	// Message is the optional text reported with the result.
	Message string
}

// Conditions is a parsed preconditions value.
type Conditions struct {
	// Legacy is true for the deprecated plain-list form; its conditions are
	// in List and must all hold.
	Legacy bool
	// List holds the conditions of the plain-list form.
	List []Condition
	// Any holds the `any` block: at least one must hold. nil means the block
	// is absent (or null); an empty, non-nil block is never satisfied.
	Any []Condition
	// All holds the `all` block: every condition must hold.
	All []Condition
}

// Parse reads a rule's raw preconditions JSON value the way upstream's
// ConditionsWrapper does with encoding/json: nil means no preconditions; a
// list is the plain-list form; an object holds `any` and `all`. As with
// encoding/json, unknown fields are ignored and field names match
// case-insensitively (an exact match wins).
func Parse(raw any) (*Conditions, error) {
	return parse(raw, false)
}

// ParseForEach reads a foreach entry's raw preconditions value. The Kyverno
// CLI checks it against the policy CRD's schema and decodes it strictly:
// only the object form, exact field names, unknown fields are errors, a
// condition may not be null, and a present operator must be one of the CRD's
// enum, which is [Operators] without Equal and NotEqual.
func ParseForEach(raw any) (*Conditions, error) {
	return parse(raw, true)
}

func parse(raw any, strict bool) (*Conditions, error) {
	switch r := raw.(type) {
	case nil:
		return &Conditions{}, nil
	case []any:
		if strict {
			return nil, fmt.Errorf("expected an object with `any` and/or `all`, got a list (the plain-list form is only accepted for rule preconditions)")
		}
		list, err := parseList(r, "", strict)
		if err != nil {
			return nil, err
		}
		if list == nil {
			list = []Condition{}
		}
		return &Conditions{Legacy: true, List: list}, nil
	case map[string]any:
		if strict {
			if err := unknownFields(r, "", "any", "all"); err != nil {
				return nil, err
			}
		}
		c := &Conditions{}
		var err error
		if v, ok := field(r, "any", strict); ok {
			if c.Any, err = parseBlock(v, "any", strict); err != nil {
				return nil, err
			}
		}
		if v, ok := field(r, "all", strict); ok {
			if c.All, err = parseBlock(v, "all", strict); err != nil {
				return nil, err
			}
		}
		return c, nil
	}
	return nil, fmt.Errorf("expected a list of conditions or an object with `any` and/or `all`, got %s", typeName(raw))
}

// parseBlock reads an `any` or `all` block; null gives nil, [] gives an
// empty non-nil slice.
func parseBlock(v any, name string, strict bool) ([]Condition, error) {
	switch b := v.(type) {
	case nil:
		return nil, nil
	case []any:
		list, err := parseList(b, name, strict)
		if err != nil {
			return nil, err
		}
		if list == nil {
			list = []Condition{}
		}
		return list, nil
	}
	return nil, fmt.Errorf("%s: expected a list of conditions, got %s", name, typeName(v))
}

func parseList(items []any, path string, strict bool) ([]Condition, error) {
	var out []Condition
	for i, item := range items {
		c, err := parseCondition(item, fmt.Sprintf("%s[%d]", path, i), strict)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// parseCondition reads one condition; null is a condition with every field
// empty, as encoding/json leaves it.
func parseCondition(item any, path string, strict bool) (Condition, error) {
	var c Condition
	if item == nil {
		if strict {
			return c, fmt.Errorf("%s: expected a condition object, got null", path)
		}
		return c, nil
	}
	m, ok := item.(map[string]any)
	if !ok {
		return c, fmt.Errorf("%s: expected a condition object, got %s", path, typeName(item))
	}
	if strict {
		if err := unknownFields(m, path, "key", "operator", "value", "message"); err != nil {
			return c, err
		}
	}
	c.Key, _ = field(m, "key", strict)
	c.Value, _ = field(m, "value", strict)
	var err error
	if c.Operator, err = stringField(m, path, "operator", strict); err != nil {
		return c, err
	}
	if op, present := m["operator"]; strict && present && op != nil && !slices.Contains(crdOperators, c.Operator) {
		return c, fmt.Errorf("%s.operator: Unsupported value: %q: supported values: %s", path, c.Operator, quoteAll(crdOperators))
	}
	if c.Message, err = stringField(m, path, "message", strict); err != nil {
		return c, err
	}
	return c, nil
}

func stringField(m map[string]any, path, name string, strict bool) (string, error) {
	v, _ := field(m, name, strict)
	switch s := v.(type) {
	case nil:
		return "", nil
	case string:
		return s, nil
	}
	return "", fmt.Errorf("%s.%s: expected a string, got %s", path, name, typeName(v))
}

// field looks name up in m: exactly, or (unless strict) case-insensitively,
// taking the first matching key in sorted order when there are several.
func field(m map[string]any, name string, strict bool) (any, bool) {
	if v, ok := m[name]; ok {
		return v, true
	}
	if strict {
		return nil, false
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if strings.EqualFold(k, name) {
			return m[k], true
		}
	}
	return nil, false
}

// unknownFields reports fields of m other than known, sorted, as the
// unstructured converter's strict decoding does.
func unknownFields(m map[string]any, path string, known ...string) error {
	var unknown []string
	for k := range m {
		if !slices.Contains(known, k) {
			name := k
			if path != "" {
				name = path + "." + k
			}
			unknown = append(unknown, fmt.Sprintf("unknown field %q", name))
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	return errors.New(strings.Join(unknown, ", "))
}

// crdOperators is the operator enum of the policy CRD, which the Kyverno CLI
// enforces where it decodes preconditions strictly (foreach entries).
var crdOperators = []string{
	OpEquals, OpNotEquals, OpIn, OpAnyIn, OpAllIn, OpNotIn, OpAnyNotIn, OpAllNotIn,
	OpGreaterThanOrEquals, OpGreaterThan, OpLessThanOrEquals, OpLessThan,
	OpDurationGreaterThanOrEquals, OpDurationGreaterThan, OpDurationLessThanOrEquals, OpDurationLessThan,
}

// quoteAll formats names as `"a", "b"`.
func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}
