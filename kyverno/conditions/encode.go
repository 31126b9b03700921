// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package conditions

// JSON returns the conditions as upstream's JSON encoding writes them:
// canonical field names, unknown fields gone, and empty fields omitted (a
// nil key or value, an empty operator or message, an empty `any` or `all`
// block). Kyverno builds autogen rules for pod controllers by encoding a rule
// and decoding it again, so in those generated rules (and their foreach
// entries) `any: []` is absent and holds, unlike in the original rule; pass
// preconditions through JSON to reproduce that.
func (c *Conditions) JSON() any {
	if c.Legacy {
		out := make([]any, 0, len(c.List))
		for _, cond := range c.List {
			out = append(out, cond.JSON())
		}
		return out
	}
	out := map[string]any{}
	if len(c.Any) > 0 {
		out["any"] = conditionsJSON(c.Any)
	}
	if len(c.All) > 0 {
		out["all"] = conditionsJSON(c.All)
	}
	return out
}

// JSON returns the condition as upstream's JSON encoding writes it.
func (c Condition) JSON() map[string]any {
	out := map[string]any{}
	if c.Key != nil {
		out["key"] = deepCopy(c.Key)
	}
	if c.Operator != "" {
		out["operator"] = c.Operator
	}
	if c.Value != nil {
		out["value"] = deepCopy(c.Value)
	}
	if c.Message != "" {
		out["message"] = c.Message
	}
	return out
}

func conditionsJSON(conds []Condition) []any {
	out := make([]any, 0, len(conds))
	for _, c := range conds {
		out = append(out, c.JSON())
	}
	return out
}
