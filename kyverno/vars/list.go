// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package vars

// EvaluateList evaluates a foreach `list` expression (pkg/engine/utils
// EvaluateList): a list result gives its elements, anything else (null
// included) a one-element list. Null elements are kept: the caller skips
// them but they count for elementIndex. Elements are copies of the values
// as the context holds them (integers of request.object are int64); pass
// each one unchanged, once, to AddElement, which takes it over.
func EvaluateList(c *Context, expr string) ([]any, error) {
	v, err := c.query(expr)
	if err != nil {
		return nil, err
	}
	switch t := v.(type) {
	case []map[string]any:
		out := make([]any, len(t))
		for i, m := range t {
			out[i] = copyMap(m)
		}
		return out, nil
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = deepCopy(e)
		}
		return out, nil
	}
	return []any{deepCopy(v)}, nil
}
