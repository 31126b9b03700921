// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package conditions

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// operate runs Operate and fails the test on an error.
func operate(t *testing.T, key any, op string, value any) bool {
	t.Helper()
	got, err := Operate(key, op, value)
	require.NoError(t, err)
	return got
}

func TestEquals(t *testing.T) {
	testCases := map[string]struct {
		key, value any
		equal      bool
		notEqual   bool
	}{
		"bool key, bool value":                {key: true, value: true, equal: true},
		"bool key, other bool":                {key: true, value: false, notEqual: true},
		"bool key, string value never equal":  {key: true, value: "true", notEqual: true},
		"float key, float value":              {key: 3.0, value: 3.0, equal: true},
		"float key, numeric string":           {key: 3.0, value: "3", equal: true},
		"float key, float string":             {key: 1.5, value: "1.50", equal: true},
		"float key, non-numeric string":       {key: 3.0, value: "three", notEqual: true},
		"float key, duration string is no":    {key: 3600.0, value: "1h", notEqual: true},
		"integral float key, int64 value":     {key: 3.0, value: int64(3), equal: true},
		"fractional float key, int64 value":   {key: 3.5, value: int64(3), notEqual: true},
		"float key, bool value":               {key: 1.0, value: true, notEqual: true},
		"int64 key, integral float":           {key: int64(3), value: 3.0, equal: true},
		"int64 key, fractional float":         {key: int64(3), value: 3.5, notEqual: true},
		"int64 key, integer string":           {key: int64(3), value: "3", equal: true},
		"int64 key, float string is no":       {key: int64(3), value: "3.0", notEqual: true},
		"int key":                             {key: 3, value: int64(3), equal: true},
		"string key, number value never":      {key: "5", value: 5.0, notEqual: true},
		"string key, wildcard value":          {key: "web-1", value: "web-*", equal: true},
		"string key, question mark":           {key: "web-1", value: "web-?", equal: true},
		"question mark needs one char":        {key: "web-", value: "web-?", notEqual: true},
		"key is not a pattern":                {key: "web-*", value: "web-1", notEqual: true},
		"empty value matches empty key only":  {key: "", value: "", equal: true},
		"durations compared":                  {key: "1h", value: "60m", equal: true},
		"duration key, seconds value":         {key: "1h", value: 3600.0, equal: true},
		"duration key, fractional seconds":    {key: "1s", value: 1.9, equal: true},
		"seconds key string vs duration":      {key: "3600", value: "1h", notEqual: true},
		"zero is no duration here":            {key: "0", value: "0s", notEqual: true},
		"quantities compared":                 {key: "1Gi", value: "1024Mi", equal: true},
		"quantity and plain number":           {key: "1Ki", value: "1024", equal: true},
		"quantity key, non-quantity value":    {key: "1", value: "1*", notEqual: true},
		"quantity key, empty value":           {key: "1", value: "", notEqual: true},
		"quantity key, number value":          {key: "1", value: 1.0, notEqual: true},
		"semver strings by wildcard":          {key: "1.5.2", value: "1.5.*", equal: true},
		"map deep equality":                   {key: map[string]any{"a": "b"}, value: map[string]any{"a": "b"}, equal: true},
		"map vs other map":                    {key: map[string]any{"a": "b"}, value: map[string]any{"a": "c"}, notEqual: true},
		"map vs string":                       {key: map[string]any{}, value: "{}", notEqual: true},
		"list deep equality":                  {key: []any{"a", 1.0}, value: []any{"a", 1.0}, equal: true},
		"list order matters":                  {key: []any{"a", "b"}, value: []any{"b", "a"}, notEqual: true},
		"list int64 never equals float64":     {key: []any{1.0}, value: []any{int64(1)}, notEqual: true},
		"list vs map":                         {key: []any{}, value: map[string]any{}, notEqual: true},
		"nil key: both false":                 {key: nil, value: nil},
		"nil key vs string: both false":       {key: nil, value: "x"},
		"string key vs nil value":             {key: "x", value: nil, notEqual: true},
		"unsupported key type: both false":    {key: float32(1), value: float32(1)},
		"duration key beats quantity parsing": {key: "1m", value: "60s", equal: true},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			for _, op := range []string{OpEquals, OpEqual, "equals", "EQUAL"} {
				assert.Equal(t, tc.equal, operate(t, tc.key, op, tc.value), op)
			}
			for _, op := range []string{OpNotEquals, OpNotEqual, "notequals"} {
				assert.Equal(t, tc.notEqual, operate(t, tc.key, op, tc.value), op)
			}
		})
	}
}

func TestOperateUnknownOperator(t *testing.T) {
	_, err := Operate("a", "Contains", "a")
	var unknown *UnknownOperatorError
	require.ErrorAs(t, err, &unknown)
	assert.Equal(t, "Contains", unknown.Operator)
	assert.EqualError(t, err, `unknown operator "Contains"`)
}

func TestOperators(t *testing.T) {
	ops := Operators()
	assert.Len(t, ops, 18)
	assert.Equal(t, OpEqual, ops[0])
	ops[0] = "changed"
	assert.Equal(t, OpEqual, Operators()[0], "Operators returns a copy")
	assert.True(t, IsValidOperator("AnyIn"))
	assert.False(t, IsValidOperator("anyin"))
	assert.True(t, IsDeprecatedOperator("In"))
	assert.True(t, IsDeprecatedOperator("NotIn"))
	assert.False(t, IsDeprecatedOperator("AnyIn"))
}
