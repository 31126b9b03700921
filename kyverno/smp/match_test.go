// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package smp

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMatchValue covers the scalar operators of the validate-pattern engine
// as mutate uses them: anchor values are compared as YAML text, so both
// sides are strings there.
func TestMatchValue(t *testing.T) {
	tests := []struct {
		value, pattern any
		want           bool
	}{
		{"nginx:latest", "nginx:*", true},
		{"nginx:latest", "*:latest", true},
		{"envoy:1.2", "envoy:?.?", true},
		{"hello", "hello?", false}, // ? is exactly one character
		{"nginx", "!nginx*", false},
		{"envoy", "!nginx*", true},
		{"b", "a | b", true},
		{"abc", "a* & *c", true},
		{"abc", "a* & !*c", false},
		{"3", ">2", true},
		{"3", ">=3", true},
		{"3", "<3", false},
		{"3", "2-4", true},
		{"3", "4-6", false},
		{"3", "1!-2", true},
		{"3", "3!-9", false},
		{"200Mi", ">=100Mi", true},
		{"200Mi", "0.2Gi", false},
		{"1Gi", "1024Mi", true}, // quantities compare by value
		{"30s", "<1m", true},
		{"30", ">10s", false}, // "30" is no duration; a quantity compare with "10s" fails too
		{"", "", true},
		{"x", "", false},
		{"x", "*", true},
		{"", "*", true},
		{"true", "true", true},
		{true, "true", true}, // string form of a bool
		{float64(3), "3", true},
		{float64(3), "3*", true}, // wildcards see 3E+00... no: see below
		{float64(2.5), ">2", true},
		{nil, "0", true}, // null reads as quantity/duration 0
		{"", nil, true},
		{float64(0), nil, true},
		{false, nil, true},
		{"x", nil, false},
		{float64(3), float64(3), true},
		{"3", float64(3), true},
		{true, true, true},
		{"true", true, false},
		{map[string]any{}, map[string]any{"a": "b"}, true}, // only the kind counts
		{[]any{}, []any{}, false},
	}
	for _, tc := range tests {
		got := matchValue(tc.value, tc.pattern)
		if tc.value == float64(3) && tc.pattern == "3*" {
			// "3" is a quantity equal to 3, so the wildcard is never reached.
			assert.True(t, got)
			continue
		}
		assert.Equal(t, tc.want, got, "value %#v pattern %#v", tc.value, tc.pattern)
	}
}

func TestMatchPattern(t *testing.T) {
	resource := mustJSON(t, `{
		"metadata": {"name": "p", "labels": {"app": "web", "tier": "fe"}},
		"spec": {"containers": [{"name": "a", "image": "nginx:1"}, {"name": "b", "image": "envoy:2"}], "replicas": 3}
	}`)
	tests := map[string]struct {
		pattern string
		want    bool
	}{
		"subset map":                    {`{"metadata": {"labels": {"app": "web"}}}`, true},
		"subset map mismatch":           {`{"metadata": {"labels": {"app": "api"}}}`, false},
		"missing key":                   {`{"metadata": {"labels": {"zone": "*"}}}`, false},
		"wildcard label key expands":    {`{"metadata": {"labels": {"ti*": "fe"}}}`, true},
		"list: every element":           {`{"spec": {"containers": [{"image": "*:*"}]}}`, true},
		"list: one element fails":       {`{"spec": {"containers": [{"image": "nginx*"}]}}`, false},
		"list: condition skips element": {`{"spec": {"containers": [{"(name)": "a", "image": "nginx*"}]}}`, true},
		"list: no element applies":      {`{"spec": {"containers": [{"(name)": "z", "image": "nginx*"}]}}`, false},
		"negation":                      {`{"metadata": {"labels": {"X(owner)": null}}}`, true},
		"negation fails":                {`{"spec": {"X(replicas)": null}}`, false},
		"metadata drops non-string":     {`{"metadata": {"labels": {"X(app)": null, "tier": 1}}}`, true},
		"metadata keeps strings":        {`{"metadata": {"labels": {"X(app)": "x"}}}`, false},
		"equality absent passes":        {`{"metadata": {"labels": {"=(owner)": "x"}}}`, true},
		"existence":                     {`{"spec": {"^(containers)": [{"name": "b"}]}}`, true},
		"existence fails":               {`{"spec": {"^(containers)": [{"name": "c"}]}}`, false},
		"global absent passes":          {`{"spec": {"<(hostname)": "h"}}`, true},
		"global mismatch":               {`{"spec": {"<(replicas)": ">5"}}`, false},
		"structure mismatch":            {`{"spec": {"replicas": {"a": 1}}}`, false},
		"empty list pattern":            {`{"spec": {"containers": []}}`, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			err := matchPattern(resource, mustJSON(t, tc.pattern))
			assert.Equal(t, tc.want, err == nil, "err: %v", err)
		})
	}
}

func TestParseAnchor(t *testing.T) {
	for in, want := range map[string]*anchor{
		"(name)":      {mod: "", key: "name"},
		"<(emptyDir)": {mod: "<", key: "emptyDir"},
		"+(memory)":   {mod: "+", key: "memory"},
		"=(a)":        {mod: "=", key: "a"},
		"X(a)":        {mod: "X", key: "a"},
		"^(a)":        {mod: "^", key: "a"},
		" (a) ":       {mod: "", key: "a"},
		"(a)(b)":      {mod: "", key: "a)(b"},
		"()":          nil,
		"name":        nil,
		"-(a)":        nil,
	} {
		assert.Equal(t, want, parseAnchor(in), in)
	}
}

func mustJSON(t *testing.T, s string) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal([]byte(s), &v))
	return v
}
