// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package vars

import "slices"

// EvaluateList evaluates a foreach `list` expression (pkg/engine/utils
// EvaluateList): a list result gives its elements, anything else (null
// included) a one-element list. Null elements are kept: the caller skips
// them but they count for elementIndex. Elements are the values as the
// context holds them (integers of request.object are int64), shared with
// it, not copied: nothing edits them in place (a query that could, one
// naming sort_by, first takes private copies: unshare); pass each one
// unchanged, once, to AddElement, which takes it over.
func EvaluateList(c *Context, expr string) ([]any, error) {
	v, err := c.query(expr)
	if err != nil {
		return nil, err
	}
	switch t := v.(type) {
	case []map[string]any:
		out := make([]any, len(t))
		for i, m := range t {
			out[i] = m
		}
		return out, nil
	case []any:
		return slices.Clone(t), nil
	}
	return []any{v}, nil
}
