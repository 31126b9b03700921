// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package conditions

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMembership(t *testing.T) {
	type want struct{ anyIn, allIn, anyNotIn, allNotIn bool }
	testCases := map[string]struct {
		key, value any
		want       want
	}{
		// Scalar keys: AnyIn and AllIn agree, as do AnyNotIn and AllNotIn.
		"scalar in list":                    {key: "a", value: []any{"a", "b"}, want: want{anyIn: true, allIn: true}},
		"scalar not in list":                {key: "c", value: []any{"a", "b"}, want: want{anyNotIn: true, allNotIn: true}},
		"scalar, list pattern":              {key: "team-a", value: []any{"team-*"}, want: want{anyIn: true, allIn: true}},
		"scalar pattern, list item":         {key: "team-*", value: []any{"team-a"}, want: want{anyIn: true, allIn: true}},
		"scalar, string pattern value":      {key: "team-a", value: "team-*", want: want{anyIn: true, allIn: true}},
		"scalar, plain string value":        {key: "a", value: "b", want: want{anyNotIn: true, allNotIn: true}},
		"scalar, JSON array value":          {key: "b", value: `["a","b"]`, want: want{anyIn: true, allIn: true}},
		"scalar, JSON array no wildcard":    {key: "team-a", value: `["team-*"]`, want: want{anyNotIn: true, allNotIn: true}},
		"scalar, JSON number: all false":    {key: "5", value: "5 ", want: want{}},
		"scalar, JSON object: all false":    {key: "a", value: "{}", want: want{}},
		"scalar in range":                   {key: "5", value: "1-10", want: want{anyIn: true, allIn: true}},
		"scalar out of range":               {key: "11", value: "1-10", want: want{anyNotIn: true, allNotIn: true}},
		"number key in range":               {key: 5.0, value: "1-10", want: want{anyIn: true, allIn: true}},
		"quantity range":                    {key: "1Gi", value: "512Mi-2Gi", want: want{anyIn: true, allIn: true}},
		"scalar number value: all false":    {key: "5", value: 5.0, want: want{}},
		"number key stringified":            {key: 80.0, value: []any{"80", "443"}, want: want{anyIn: true, allIn: true}},
		"float 1e6 key is 1e+06":            {key: 1000000.0, value: []any{"1000000"}, want: want{anyNotIn: true, allNotIn: true}},
		"bool key":                          {key: false, value: []any{"false"}, want: want{anyIn: true, allIn: true}},
		"nil key: all false":                {key: nil, value: []any{"a"}, want: want{}},
		"map key: all false":                {key: map[string]any{}, value: []any{"a"}, want: want{}},
		"scalar, nil value: all false":      {key: "a", value: nil, want: want{}},
		"list key, some in":                 {key: []any{"a", "x"}, value: []any{"a", "b"}, want: want{anyIn: true, anyNotIn: true}},
		"list key, all in":                  {key: []any{"a", "b"}, value: []any{"a", "b", "c"}, want: want{anyIn: true, allIn: true}},
		"list key, none in":                 {key: []any{"x", "y"}, value: []any{"a", "b"}, want: want{anyNotIn: true, allNotIn: true}},
		"list key, wildcards both ways":     {key: []any{"app-*", "db"}, value: []any{"app-1", "d?"}, want: want{anyIn: true, allIn: true}},
		"list key items stringified":        {key: []any{80.0, true}, value: []any{"80", "true"}, want: want{anyIn: true, allIn: true}},
		"empty list key":                    {key: []any{}, value: []any{"a"}, want: want{allIn: true, allNotIn: true}},
		"list key, single equal string":     {key: []any{"a"}, value: "a", want: want{anyIn: true, allIn: true}},
		"list key, string entry":            {key: []any{"a", "b"}, value: "a", want: want{anyIn: true, anyNotIn: true}},
		"list key, JSON array":              {key: []any{"a", "b"}, value: `["b","a"]`, want: want{anyIn: true, allIn: true}},
		"list key, JSON numbers: all false": {key: []any{"1"}, value: `[1]`, want: want{}},
		"list key, number value":            {key: []any{"5", "6"}, value: 5.0, want: want{anyIn: true, anyNotIn: true}},
		"list key, bool value (AllIn: no)":  {key: []any{"true"}, value: true, want: want{anyIn: true}},
		"list key, map value: all false":    {key: []any{"a"}, value: map[string]any{}, want: want{}},
		"list key, range all in":            {key: []any{"2", "3"}, value: "1-5", want: want{anyIn: true, allIn: true}},
		"list key, range some in":           {key: []any{"2", "9"}, value: "1-5", want: want{anyIn: true, anyNotIn: true}},
		"list key, range none in":           {key: []any{"7", "9"}, value: "1-5", want: want{anyNotIn: true, allNotIn: true}},
		"list key, duration range":          {key: []any{"90m"}, value: "1h-2h", want: want{anyIn: true, allIn: true}},
		// AnyNotIn rewrites the first '-' to "!-": "-5-10" becomes "!-5-10",
		// a plain inequality with "-5-10".
		"negative range, AnyNotIn quirk":   {key: []any{"0"}, value: "-5-10", want: want{anyIn: true, allIn: true, anyNotIn: true}},
		"list key, number items vs floats": {key: []any{1000000.0}, value: []any{int64(1000000)}, want: want{anyNotIn: true, allNotIn: true}},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			got := want{
				anyIn:    operate(t, tc.key, OpAnyIn, tc.value),
				allIn:    operate(t, tc.key, OpAllIn, tc.value),
				anyNotIn: operate(t, tc.key, OpAnyNotIn, tc.value),
				allNotIn: operate(t, tc.key, OpAllNotIn, tc.value),
			}
			assert.Equal(t, tc.want, got)
		})
	}
}
