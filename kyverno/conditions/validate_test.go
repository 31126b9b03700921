// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package conditions

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const validOps = `["Equal" "Equals" "NotEqual" "NotEquals" "In" "AnyIn" "AllIn" "NotIn" "AnyNotIn" "AllNotIn" ` +
	`"GreaterThanOrEquals" "GreaterThan" "LessThanOrEquals" "LessThan" "DurationGreaterThanOrEquals" ` +
	`"DurationGreaterThan" "DurationLessThanOrEquals" "DurationLessThan"]`

func TestValidate(t *testing.T) {
	const (
		missing = "entered value of `key`, `value` or `operator` is missing or misspelled"
		invalid = "entered value of `operator` is invalid. valid values: " + validOps
		allowed = " found under the 'value' field. Only the following values are allowed: [CREATE, UPDATE, DELETE, CONNECT]"
	)
	// Upstream's texts, with path "validate.preconditions" as upstream
	// reports it below spec.rules[i].
	testCases := map[string]struct {
		pre string
		err string
	}{
		"valid list":                   {pre: `[{key: a, operator: Equals, value: a}]`},
		"valid any/all":                {pre: `{any: [{key: a, operator: AnyIn, value: [a]}], all: [{key: 5, operator: GreaterThan, value: 1}]}`},
		"empty forms":                  {pre: `{any: []}`},
		"list without value":           {pre: `[{key: a, operator: Equals}]`, err: "validate.preconditions[0].: " + missing},
		"list without key":             {pre: `[{operator: Equals, value: a}]`, err: "validate.preconditions[0].: " + missing},
		"without operator":             {pre: `{any: [{key: a, value: a}]}`, err: "validate.preconditions.any[0].: " + missing},
		"empty operator":               {pre: `{any: [{key: a, operator: "", value: x}]}`, err: "validate.preconditions.any[0].: " + missing},
		"null value":                   {pre: `{any: [{key: a, operator: Equals, value: null}]}`, err: "validate.preconditions.any[0].: " + missing},
		"invalid operator, list":       {pre: `[{key: a, operator: Equals, value: a}, {key: a, operator: Bogus, value: a}]`, err: "validate.preconditions[1].: " + invalid},
		"operators are case-sensitive": {pre: `[{key: a, operator: equals, value: a}]`, err: "validate.preconditions[0].: " + invalid},
		"invalid operator in any":      {pre: `{any: [{key: a, operator: Bogus, value: a}]}`, err: "validate.preconditions.any[0].: " + invalid},
		"invalid operator in all says any": {
			pre: `{all: [{key: a, operator: Equals, value: a}, {key: a, operator: Bogus, value: a}]}`,
			err: "validate.preconditions.any[1].: " + invalid,
		},
		"missing fields checked before operators": {
			pre: `{any: [{key: a, operator: Bogus, value: a}], all: [{key: a, operator: Equals}]}`,
			err: "validate.preconditions.all[0].: " + missing,
		},
		"operation value":             {pre: `{all: [{key: "{{request.operation}}", operator: Equals, value: CREATE}]}`},
		"operation variable value":    {pre: `{all: [{key: "{{request.operation}}", operator: Equals, value: "{{ request.object.x }}"}]}`},
		"operation, spaces in key":    {pre: `{all: [{key: "{{ request.operation }}", operator: Equals, value: FOO}]}`, err: "validate.preconditions.all[0].value: FOO: unknown value 'FOO'" + allowed},
		"operation, empty string":     {pre: `{all: [{key: "{{request.operation}}", operator: Equals, value: ""}]}`, err: "validate.preconditions.all[0].value: : unknown value ''" + allowed},
		"operation, list form":        {pre: `[{key: "{{request.operation}}", operator: AnyIn, value: [CREATE, PATCH]}]`, err: "validate.preconditions[0].value[1]: unknown value 'PATCH'" + allowed},
		"operation, variable in list": {pre: `[{key: "{{request.operation}}", operator: AnyIn, value: ["{{ x }}"]}]`, err: "validate.preconditions[0].value[0]: unknown value '{{ x }}'" + allowed},
		"operation, integer in list": {
			pre: `{all: [{key: "{{request.operation}}", operator: AnyIn, value: [CREATE, 5]}]}`,
			err: "validate.preconditions.all[0].value[1]: 'value[1]' found to be of the type int64. The provided values are expected to be strings",
		},
		"operation, float in list": {
			pre: `{all: [{key: "{{request.operation}}", operator: AnyIn, value: [5.5]}]}`,
			err: "validate.preconditions.all[0].value[0]: 'value[0]' found to be of the type float64. The provided values are expected to be strings",
		},
		"operation, map in list": {
			pre: `{all: [{key: "{{request.operation}}", operator: AnyIn, value: [{a: 1}]}]}`,
			err: "validate.preconditions.all[0].value[0]: 'value[0]' found to be of the type map[string]interface {}. The provided values are expected to be strings",
		},
		"operation, null in list": {
			pre: `{all: [{key: "{{request.operation}}", operator: AnyIn, value: [null]}]}`,
			err: "validate.preconditions.all[0].value[0]: 'value[0]' found to be of the type <nil>. The provided values are expected to be strings",
		},
		"operation, integer value": {
			pre: `{all: [{key: "{{request.operation}}", operator: Equals, value: 5}]}`,
			err: "validate.preconditions.all[0].value: 'value' field found to be of the type int64. The provided value/values are expected to be either in the form of a string or list",
		},
		"operation, map value": {
			pre: `{all: [{key: "{{request.operation}}", operator: Equals, value: {a: b}}]}`,
			err: "validate.preconditions.all[0].value: 'value' field found to be of the type map. The provided value/values are expected to be either in the form of a string or list",
		},
		"non-string key skips the operation check": {pre: `{any: [{key: 5, operator: Equals, value: x}]}`},
		"unparsable": {pre: `{any: x}`, err: "validate.preconditions: any: expected a list of conditions, got a string"},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			err := Validate(fromYAML(t, tc.pre), "validate.preconditions")
			if tc.err == "" {
				require.NoError(t, err)
				return
			}
			require.EqualError(t, err, tc.err)
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			assert.True(t, strings.HasPrefix(tc.err, ve.Path+": "))
		})
	}
}

func TestValidateForEach(t *testing.T) {
	const path = "mutate.foreach.conditions"
	testCases := map[string]struct {
		pre string
		err string
	}{
		"valid":                     {pre: `{all: [{key: a, operator: Equals, value: a}]}`},
		"missing value is accepted": {pre: `{all: [{key: a, operator: Equals}]}`},
		"operation not checked":     {pre: `{all: [{key: "{{request.operation}}", operator: Equals, value: FOO}]}`},
		"missing operator":          {pre: `{all: [{key: a}]}`, err: path + ".any[0].: entered value of `operator` is invalid. valid values: " + validOps},
		"all reported as any":       {pre: `{all: [{key: a, operator: Equals}, {key: b}]}`, err: path + ".any[1].: entered value of `operator` is invalid. valid values: " + validOps},
		"list form":                 {pre: `[]`, err: path + ": expected an object with `any` and/or `all`, got a list (the plain-list form is only accepted for rule preconditions)"},
		"CRD enum":                  {pre: `{any: [{key: a, operator: Bogus}]}`, err: path + `: any[0].operator: Unsupported value: "Bogus": supported values: "Equals"`},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			err := ValidateForEach(fromYAML(t, tc.pre), path)
			if tc.err == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), tc.err), err.Error())
		})
	}
}
