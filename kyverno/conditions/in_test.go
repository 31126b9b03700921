// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package conditions

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDeprecatedIn(t *testing.T) {
	testCases := map[string]struct {
		key, value any
		in, notIn  bool
	}{
		"string in list":                         {key: "a", value: []any{"a", "b"}, in: true},
		"string not in list":                     {key: "c", value: []any{"a", "b"}, notIn: true},
		"list item is a pattern":                 {key: "team-a", value: []any{"team-*"}, in: true},
		"key is a pattern too":                   {key: "team-*", value: []any{"team-a"}, in: true},
		"number key stringified":                 {key: 5.0, value: []any{"5"}, in: true},
		"big float key is 1e+06":                 {key: 1000000.0, value: []any{"1000000"}, notIn: true},
		"int64 key":                              {key: int64(1000000), value: []any{"1000000"}, in: true},
		"bool key":                               {key: true, value: []any{"true"}, in: true},
		"number list items stringified":          {key: "5", value: []any{5.0}, in: true},
		"empty list":                             {key: "a", value: []any{}, notIn: true},
		"string value is a pattern":              {key: "team-a", value: "team-*", in: true},
		"string value JSON array, exact":         {key: "b", value: `["a","b"]`, in: true},
		"JSON array items are no patterns":       {key: "team-a", value: `["team-*"]`, notIn: true},
		"JSON null is an empty array":            {key: "a", value: "null", notIn: true},
		"string value neither: both false":       {key: "a", value: "b", in: false, notIn: false},
		"JSON of numbers: both false":            {key: "1", value: "[1]", in: false, notIn: false},
		"number value: both false":               {key: "1", value: 1.0},
		"map value: both false":                  {key: "a", value: map[string]any{"a": "a"}},
		"nil key: both false":                    {key: nil, value: []any{"a"}},
		"map key: both false":                    {key: map[string]any{}, value: []any{"a"}},
		"list key all in":                        {key: []any{"a", "b"}, value: []any{"b", "a", "c"}, in: true},
		"list key one missing":                   {key: []any{"a", "x"}, value: []any{"a", "b"}, notIn: true},
		"list key no wildcards":                  {key: []any{"team-a"}, value: []any{"team-*"}, notIn: true},
		"empty list key is in":                   {key: []any{}, value: []any{"a"}, in: true},
		"list key, value list with a number":     {key: []any{"a"}, value: []any{"a", 1.0}},
		"list key, JSON array value":             {key: []any{"a", "b"}, value: `["a","b"]`, in: true},
		"single key equal to value: both true":   {key: []any{"a"}, value: "a", in: true, notIn: true},
		"list key, other string value: false":    {key: []any{"a"}, value: "b"},
		"list key, number value: both false":     {key: []any{"a"}, value: 1.0},
		"list key, JSON array with number":       {key: []any{"a"}, value: `["a",1]`},
		"list key, empty JSON array":             {key: []any{"a"}, value: `[]`, notIn: true},
		"empty list key, string value":           {key: []any{}, value: `[]`, in: true},
		"empty list key, JSON null value":        {key: []any{}, value: `null`, in: true},
		"string key, JSON array with whitespace": {key: "a", value: ` [ "a" ] `, in: true},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, tc.in, operate(t, tc.key, OpIn, tc.value), "In")
			assert.Equal(t, tc.notIn, operate(t, tc.key, OpNotIn, tc.value), "NotIn")
		})
	}
}

func TestDeprecatedInNonStringListKey(t *testing.T) {
	for _, op := range []string{OpIn, OpNotIn} {
		_, err := Operate([]any{"a", 80.0}, op, []any{"a"})
		require.Error(t, err, op)
		assert.Contains(t, err.Error(), "key item 1 is a number, not a string")
	}
	// The other membership operators stringify the items instead.
	assert.True(t, operate(t, []any{"a", 80.0}, OpAllIn, []any{"a", "80"}))
}
