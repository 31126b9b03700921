// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package conditions

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	c, err := Parse(fromYAML(t, `
ANY:
  - KEY: a
    Operator: Equals
    value: [1]
    message: m
    extra: ignored
all: []
`))
	require.NoError(t, err)
	assert.Equal(t, &Conditions{
		Any: []Condition{{Key: "a", Operator: "Equals", Value: []any{1.0}, Message: "m"}},
		All: []Condition{},
	}, c)

	c, err = Parse(fromYAML(t, `[null, {key: a, operator: In}]`))
	require.NoError(t, err)
	assert.Equal(t, &Conditions{Legacy: true, List: []Condition{{}, {Key: "a", Operator: "In"}}}, c)

	c, err = Parse(fromYAML(t, `[]`))
	require.NoError(t, err)
	assert.Equal(t, &Conditions{Legacy: true, List: []Condition{}}, c)

	c, err = Parse(nil)
	require.NoError(t, err)
	assert.Equal(t, &Conditions{}, c)
}

func TestParseErrors(t *testing.T) {
	testCases := map[string]struct {
		raw     string
		forEach bool
		err     string
	}{
		"scalar":                  {raw: `x`, err: "expected a list of conditions or an object with `any` and/or `all`, got a string"},
		"block not a list":        {raw: `{any: x}`, err: "any: expected a list of conditions, got a string"},
		"condition not an object": {raw: `[1]`, err: "[0]: expected a condition object, got a number"},
		"operator not a string":   {raw: `{all: [{key: a, operator: 5}]}`, err: "all[0].operator: expected a string, got a number"},
		"message not a string":    {raw: `[{key: a, message: [x]}]`, err: "[0].message: expected a string, got a list"},
		"foreach list form":       {raw: `[]`, forEach: true, err: "expected an object with `any` and/or `all`, got a list (the plain-list form is only accepted for rule preconditions)"},
		"foreach unknown fields":  {raw: `{alll: [], Any: []}`, forEach: true, err: `unknown field "Any", unknown field "alll"`},
		"foreach unknown in cond": {raw: `{all: [{key: a, operator: Equals, bogus: 1}]}`, forEach: true, err: `unknown field "all[0].bogus"`},
		"foreach null condition":  {raw: `{any: [null]}`, forEach: true, err: "any[0]: expected a condition object, got null"},
		"foreach CRD enum": {raw: `{all: [{key: a, operator: Equal, value: a}]}`, forEach: true,
			err: `all[0].operator: Unsupported value: "Equal": supported values: "Equals", "NotEquals", "In", "AnyIn", "AllIn", "NotIn", "AnyNotIn", "AllNotIn", "GreaterThanOrEquals", "GreaterThan", "LessThanOrEquals", "LessThan", "DurationGreaterThanOrEquals", "DurationGreaterThan", "DurationLessThanOrEquals", "DurationLessThan"`},
		"foreach CRD enum case": {raw: `{all: [{key: a, operator: equals}]}`, forEach: true, err: `all[0].operator: Unsupported value: "equals"`},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			parse := Parse
			if tc.forEach {
				parse = ParseForEach
			}
			_, err := parse(fromYAML(t, tc.raw))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
		})
	}

	// Absent or null operators pass the strict parse (validation reports them).
	c, err := ParseForEach(fromYAML(t, `{all: [{key: a, operator: null}, {value: b}]}`))
	require.NoError(t, err)
	assert.Equal(t, []Condition{{Key: "a"}, {Value: "b"}}, c.All)
}

func TestJSON(t *testing.T) {
	c, err := Parse(fromYAML(t, `{ANY: [], all: [{KEY: a, operator: Equals, value: null, message: ""}], x: 1}`))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"all": []any{map[string]any{"key": "a", "operator": "Equals"}}}, c.JSON())

	// After the round trip an empty `any` is gone, so the result changes.
	c, err = Parse(fromYAML(t, `{any: []}`))
	require.NoError(t, err)
	ok, _, err := c.Evaluate(nil)
	require.NoError(t, err)
	assert.False(t, ok)
	ok, _, err = Evaluate(c.JSON(), nil)
	require.NoError(t, err)
	assert.True(t, ok)

	c, err = Parse(fromYAML(t, `[{key: [1], operator: In, value: x, message: m}]`))
	require.NoError(t, err)
	assert.Equal(t, []any{map[string]any{"key": []any{1.0}, "operator": "In", "value": "x", "message": "m"}}, c.JSON())
}
