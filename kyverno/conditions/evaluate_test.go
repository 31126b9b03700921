// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package conditions

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEvaluateBlocks(t *testing.T) {
	testCases := map[string]struct {
		pre  string
		ok   bool
		msg  string
		errs string
	}{
		"absent":             {pre: `null`, ok: true},
		"empty object":       {pre: `{}`, ok: true},
		"empty list":         {pre: `[]`, ok: true},
		"any empty is false": {pre: `{any: []}`},
		"any null is absent": {pre: `{any: null, all: []}`, ok: true},
		"all empty":          {pre: `{all: []}`, ok: true},
		"list all hold": {
			pre: `[{key: a, operator: Equals, value: a, message: m1}, {key: b, operator: Equals, value: b, message: m2}]`,
			ok:  true, msg: "m1;m2",
		},
		"list stops at first failure": {
			pre: `[{key: a, operator: Equals, value: b, message: m1}, {key: "{{ request.object.missing }}", operator: Equals, value: b}]`,
			msg: "m1",
		},
		"any fails, all still evaluated": {
			pre: `{any: [{key: a, operator: Equals, value: b, message: x1}, {key: a, operator: Equals, value: c, message: x2}],
			       all: [{key: a, operator: Equals, value: d, message: y1}, {key: a, operator: Equals, value: a, message: y2}]}`,
			msg: "x1; x2; y1",
		},
		"any stops at first true": {
			pre: `{any: [{key: a, operator: Equals, value: b, message: x1}, {key: a, operator: Equals, value: a, message: x2},
			             {key: "{{ request.object.missing }}", operator: Equals, value: a}],
			       all: [{key: a, operator: Equals, value: a, message: y1}, {key: a, operator: Equals, value: a}, {key: a, operator: Equals, value: a, message: y3}]}`,
			ok: true, msg: "x2; y1; y3",
		},
		"true any, false all": {
			pre: `{any: [{key: a, operator: Equals, value: a, message: t1}], all: [{key: a, operator: Equals, value: b, message: f1}]}`,
			msg: "f1",
		},
		"error in all after a false any": {
			pre:  `{any: [{key: a, operator: Equals, value: b}], all: [{key: "{{ request.object.missing }}", operator: Equals, value: a}]}`,
			errs: `failed to substitute variables in condition key: failed to resolve request.object.missing at path : JMESPath query failed: Unknown key "missing" in path`,
		},
		"value substitution error": {
			pre:  `{all: [{key: a, operator: Equals, value: "{{ request.object.missing }}"}]}`,
			errs: `failed to substitute variables in condition value: failed to resolve request.object.missing at path : JMESPath query failed: Unknown key "missing" in path`,
		},
		"unknown operator after substitution": {
			pre:  `{all: [{key: a, operator: Contains, value: a}]}`,
			errs: `failed to create handler for condition operator: unknown operator "Contains"`,
		},
		"key substitution error comes first": {
			pre:  `{all: [{key: "{{ request.object.missing }}", operator: Contains, value: a}]}`,
			errs: `failed to substitute variables in condition key: failed to resolve request.object.missing at path : JMESPath query failed: Unknown key "missing" in path`,
		},
		"operators case-insensitive": {pre: `{all: [{key: a, operator: eQuAlS, value: a}]}`, ok: true},
		"missing key is nil":         {pre: `{all: [{operator: NotEquals, value: a}]}`},
		"In panic becomes an error": {
			pre:  `{all: [{key: "{{ request.object.spec.ports }}", operator: In, value: ["80"]}]}`,
			errs: "failed to evaluate condition operator In: key item 0 is a number, not a string: the In and NotIn operators need a list of strings (Kyverno panics here)",
		},
		"unparsable": {pre: `{any: x}`, errs: "failed to parse preconditions: any: expected a list of conditions, got a string"},
	}
	res := fromYAML(t, `{metadata: {name: web-1}, spec: {ports: [80, 443], replicas: 3}}`)
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			ok, msg, err := Evaluate(fromYAML(t, tc.pre), fixture{resource: res}.subst)
			if tc.errs != "" {
				require.EqualError(t, err, tc.errs)
				assert.False(t, ok)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.msg, msg)
		})
	}
}

func TestEvaluateLiteralNumbers(t *testing.T) {
	// Literal integers inside lists and maps compare as int64, substituted
	// numbers as float64, as upstream.
	res := fromYAML(t, `{spec: {ports: [80, 443], big: 1000000, m: {a: 1}, replicas: 3, tier: "1000000"}}`)
	testCases := map[string]struct {
		pre string
		ok  bool
	}{
		"list from resource vs literal list": {pre: `{all: [{key: "{{ request.object.spec.ports }}", operator: Equals, value: [80, 443]}]}`},
		"literal list vs literal list":       {pre: `{all: [{key: [80, 443], operator: Equals, value: [80, 443]}]}`, ok: true},
		"fractions stay float64":             {pre: `{all: [{key: "{{ request.object.spec.ports }}", operator: NotEquals, value: [80.5]}]}`, ok: true},
		"map from resource vs literal map":   {pre: `{all: [{key: "{{ request.object.spec.m }}", operator: Equals, value: {a: 1}}]}`},
		"substituted item in literal list":   {pre: `{all: [{key: ["{{ request.object.spec.replicas }}"], operator: Equals, value: [3]}]}`},
		"substituted map value":              {pre: `{all: [{key: {k: "{{ request.object.spec.replicas }}", n: 2}, operator: Equals, value: {k: 3, n: 2}}]}`},
		"top-level literal is float64":       {pre: `{all: [{key: 1000000, operator: AnyIn, value: ["1000000"]}]}`},
		"literal list item is int64":         {pre: `{all: [{key: [1000000], operator: AnyIn, value: ["1000000"]}]}`, ok: true},
		"substituted float in AnyIn":         {pre: `{all: [{key: "{{ request.object.spec.big }}", operator: AnyIn, value: [1000000]}]}`},
		"string key vs int64 literal list":   {pre: `{all: [{key: "{{ request.object.spec.tier }}", operator: AnyIn, value: [1000000, x]}]}`, ok: true},
		"same variable on both sides":        {pre: `{all: [{key: "{{ request.object.spec.ports }}", operator: Equals, value: "{{ request.object.spec.ports }}"}]}`, ok: true},
		"embedded variable in string":        {pre: `{all: [{key: "x-{{ request.object.spec.replicas }}", operator: Equals, value: x-3}]}`, ok: true},
		"numbers beyond int64 stay float64":  {pre: `{all: [{key: [1e19], operator: AnyIn, value: ["1e+19"]}]}`, ok: true},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			ok, _, err := Evaluate(fromYAML(t, tc.pre), fixture{resource: res}.subst)
			require.NoError(t, err)
			assert.Equal(t, tc.ok, ok)
		})
	}
}

func TestEvaluateDoesNotModifyPolicy(t *testing.T) {
	pre := fromYAML(t, `{all: [{key: ["{{ request.object.a }}", 1], operator: Equals, value: [x, 1]}]}`)
	before := fromYAML(t, `{all: [{key: ["{{ request.object.a }}", 1], operator: Equals, value: [x, 1]}]}`)
	ok, _, err := Evaluate(pre, fixture{resource: fromYAML(t, `{a: x}`)}.subst)
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, before, pre)
}

func TestEvaluateNilSubstituter(t *testing.T) {
	ok, _, err := Evaluate(fromYAML(t, `[{key: [1], operator: Equals, value: [1]}, {key: "{{ x }}", operator: Equals, value: "{{ x }}"}]`), nil)
	require.NoError(t, err)
	assert.True(t, ok)
}

func TestEvaluateSubstituterErrorIsWrapped(t *testing.T) {
	sentinel := errors.New("boom")
	_, _, err := Evaluate(fromYAML(t, `[{key: a, operator: Equals, value: b}]`), func(any) (any, error) { return nil, sentinel })
	require.ErrorIs(t, err, sentinel)
	assert.EqualError(t, err, "failed to substitute variables in condition key: boom")
}

func TestEvaluateForEach(t *testing.T) {
	ok, _, err := EvaluateForEach(fromYAML(t, `{any: [{key: a, operator: Equals, value: a}]}`), nil)
	require.NoError(t, err)
	assert.True(t, ok)

	ok, _, err = EvaluateForEach(nil, nil)
	require.NoError(t, err)
	assert.True(t, ok)

	_, _, err = EvaluateForEach(fromYAML(t, `[{key: a, operator: Equals, value: a}]`), nil)
	require.EqualError(t, err, "failed to parse preconditions: expected an object with `any` and/or `all`, got a list (the plain-list form is only accepted for rule preconditions)")
}
