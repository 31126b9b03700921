// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package conditions

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/apply-overrides/apply-overrides/kyverno/internal/strpattern"
)

func TestOrdered(t *testing.T) {
	// Results for GreaterThan, GreaterThanOrEquals, LessThan, LessThanOrEquals.
	type want struct{ gt, ge, lt, le bool }
	greater, equal, less := want{gt: true, ge: true}, want{ge: true, le: true}, want{lt: true, le: true}
	testCases := map[string]struct {
		key, value any
		want       want
	}{
		"floats":                             {key: 3.0, value: 2.0, want: greater},
		"float key, int64 value":             {key: 2.0, value: int64(2), want: equal},
		"int64 key, float value":             {key: int64(1), value: 1.5, want: less},
		"int key":                            {key: 5, value: 4.0, want: greater},
		"number key, numeric string":         {key: 3.0, value: "10", want: less},
		"number key, float string":           {key: 3.0, value: "2.5", want: greater},
		"number key, duration string":        {key: 3600.0, value: "30m", want: greater},
		"fractional seconds are truncated":   {key: 1.9, value: "1s", want: equal},
		"number key, quantity string: false": {key: 3.0, value: "1Gi"},
		"number key, bool value: false":      {key: 3.0, value: true},
		"number key, nil value: false":       {key: 3.0, value: nil},
		"duration strings":                   {key: "90m", value: "1h", want: greater},
		"duration key, seconds value":        {key: "1h", value: 3600.0, want: equal},
		"numeric string key vs duration":     {key: "3600", value: "1h", want: equal},
		"quantities":                         {key: "1Gi", value: "512Mi", want: greater},
		"quantity vs plain number":           {key: "1k", value: "999", want: greater},
		"milli quantity":                     {key: "100m", value: "0.5", want: less},
		"quantity key, number value":         {key: "10", value: 5.0, want: greater},
		"float string key, number value":     {key: "1.5", value: 1.5, want: equal},
		"1m is a duration, not milli":        {key: "1m", value: "59s", want: greater},
		"semver strings":                     {key: "1.10.0", value: "1.9.3", want: greater},
		"semver prerelease is lower":         {key: "1.0.0-rc.1", value: "1.0.0", want: less},
		"semver v prefix: false":             {key: "v1.2.3", value: "1.0.0"},
		"semver key, non-semver value":       {key: "1.2.3", value: "1.2"},
		"semver key, number value: false":    {key: "1.2.3", value: 1.0},
		"non-numeric strings: false":         {key: "abc", value: "abd"},
		"bool key: false":                    {key: true, value: false},
		"nil key: false":                     {key: nil, value: 1.0},
		"list key: false":                    {key: []any{1.0}, value: 0.0},
		"NaN string compares false":          {key: "NaN", value: 1.0},
		"inf string":                         {key: "inf", value: 1e300, want: greater},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			got := want{
				gt: operate(t, tc.key, OpGreaterThan, tc.value),
				ge: operate(t, tc.key, OpGreaterThanOrEquals, tc.value),
				lt: operate(t, tc.key, OpLessThan, tc.value),
				le: operate(t, tc.key, OpLessThanOrEquals, tc.value),
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestOrderedOperatorCase(t *testing.T) {
	// Found case-insensitively, compared by exact spelling: always false.
	assert.True(t, operate(t, 5.0, OpGreaterThan, 1.0))
	assert.False(t, operate(t, 5.0, "greaterthan", 1.0))
	assert.False(t, operate(t, 5.0, "GREATERTHANOREQUALS", 1.0))
	assert.True(t, operate(t, "2h", OpDurationGreaterThan, "1h"))
	assert.False(t, operate(t, "2h", "durationgreaterthan", "1h"))
}

func TestDurationOrdered(t *testing.T) {
	type want struct{ gt, ge, lt, le bool }
	greater, equal, less := want{gt: true, ge: true}, want{ge: true, le: true}, want{lt: true, le: true}
	testCases := map[string]struct {
		key, value any
		want       want
	}{
		"duration strings":                 {key: "2h", value: "90m", want: greater},
		"zero string is a duration here":   {key: "0", value: "1s", want: less},
		"seconds key, duration value":      {key: 60.0, value: "1m", want: equal},
		"fractional seconds truncated":     {key: 1.9, value: 1.0, want: equal},
		"int64 seconds":                    {key: int64(5), value: int64(6), want: less},
		"duration key, seconds value":      {key: "1m", value: 59.0, want: greater},
		"numeric string key: false":        {key: "60", value: 60.0},
		"non-duration value string: false": {key: "1h", value: "1Gi"},
		"bool value: false":                {key: "1h", value: true},
		"nil key: false":                   {key: nil, value: "1h"},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			got := want{
				gt: operate(t, tc.key, OpDurationGreaterThan, tc.value),
				ge: operate(t, tc.key, OpDurationGreaterThanOrEquals, tc.value),
				lt: operate(t, tc.key, OpDurationLessThan, tc.value),
				le: operate(t, tc.key, OpDurationLessThanOrEquals, tc.value),
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestRangeMatch(t *testing.T) {
	testCases := map[string]struct {
		value, pattern string
		want           bool
	}{
		"inside":                      {value: "5", pattern: "1-10", want: true},
		"lower bound":                 {value: "1", pattern: "1-10", want: true},
		"upper bound":                 {value: "10", pattern: "1-10", want: true},
		"outside":                     {value: "11", pattern: "1-10"},
		"fractions":                   {value: "1.5", pattern: "1.2-1.7", want: true},
		"quantities":                  {value: "1Gi", pattern: "512Mi-2Gi", want: true},
		"durations":                   {value: "90m", pattern: "1h-2h", want: true},
		"non-number value":            {value: "abc", pattern: "1-10"},
		"not in range":                {value: "11", pattern: "1!-10", want: true},
		"not in range, inside":        {value: "5", pattern: "1!-10"},
		"equal strings":               {value: "x-y", pattern: "x-y", want: true},
		"alternatives":                {value: "20", pattern: "1-10 | 15-25", want: true},
		"conjunction":                 {value: "5", pattern: ">1 & <10", want: true},
		"inequality with wildcard":    {value: "web-1", pattern: "!db-*", want: true},
		"ordering of plain strings":   {value: "b", pattern: ">a"},
		"leading pipe is alternative": {value: "5", pattern: "|1-10", want: true},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, tc.want, rangeMatch(tc.value, tc.pattern))
		})
	}
	assert.Equal(t, strpattern.InRange, strpattern.Operator("-5-10"))
	assert.Equal(t, strpattern.NotInRange, strpattern.Operator("1!-10"))
	assert.Equal(t, strpattern.NotEqual, strpattern.Operator("!-5-10"))
	assert.Equal(t, strpattern.Equal, strpattern.Operator("a-b"))
	assert.Equal(t, strpattern.Equal, strpattern.Operator("5"))
}
