// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package vars

import (
	"errors"
	"fmt"
	"strings"

	gojmespath "github.com/kyverno/go-jmespath"

	"github.com/apply-overrides/apply-overrides/kyverno/vars/functions"
)

// caller holds the JMESPath built-ins and Kyverno's functions.
var caller = functions.NewCaller()

// Query evaluates a JMESPath expression on the context with the fork's
// semantics (a missing map key is an error) and Kyverno's functions, after
// loading the deferred context entries it mentions. The result is a JSON
// value. Errors read as upstream's: "incorrect query <q>: <syntax error>",
// "JMESPath query failed: Unknown key "x" in path".
func (c *Context) Query(expr string) (any, error) {
	v, err := c.query(expr)
	if err != nil {
		return nil, err
	}
	return toJSON(v)
}

// query is Query without the conversion to a JSON value.
func (c *Context) query(expr string) (any, error) {
	if err := c.loadMatching(expr); err != nil {
		return nil, err
	}
	c.materialize()
	if strings.Contains(expr, "sort_by") {
		c.unshare()
	}
	expr = strings.TrimSpace(expr)
	if expr == "" {
		return nil, errors.New("invalid query (nil)")
	}
	compiled, err := compileCached(expr)
	if err != nil {
		return nil, fmt.Errorf("incorrect query %s: %v", expr, err)
	}
	v, err := search(compiled, c.data)
	if err != nil {
		return nil, fmt.Errorf("JMESPath query failed: %w", err)
	}
	return v, nil
}

// compile parses a JMESPath expression; a parser panic becomes an error.
func compile(expr string) (jp *gojmespath.JMESPath, err error) {
	defer func() {
		if r := recover(); r != nil {
			jp, err = nil, fmt.Errorf("SyntaxError: %v", r)
		}
	}()
	return gojmespath.Compile(expr)
}

// search evaluates a compiled expression. The fork's built-ins assume
// []any where Kyverno's functions return []map[string]any (contains(items(...),
// x) panics upstream); such a panic becomes an error.
func search(jp *gojmespath.JMESPath, data any) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, fmt.Errorf("JMESPath evaluation failed: %v", r)
		}
	}()
	return jp.Search(data, gojmespath.WithFunctionCaller(caller))
}

// Search evaluates a JMESPath expression on a JSON value (not on a
// context), with Kyverno's functions; the result is a JSON value.
func Search(expr string, data any) (any, error) {
	compiled, err := compile(expr)
	if err != nil {
		return nil, err
	}
	v, err := search(compiled, data)
	if err != nil {
		return nil, err
	}
	return toJSON(v)
}
