// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package vars

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Odd inputs must give a value or an error, never a panic or a hang.
func TestOddInputsDoNotPanic(t *testing.T) {
	inputs := []string{
		"{{", "}}", "{{{", "{{{}}}", "{{ {{ }}", "\\", "a\\", "$(", "$()", "$(a", "$($(x))", "\\$(", "$(/)", "$(../..)",
		"{{@}}", "{{ @ }}{{@}}", "{{-}}", "{{- }}", "{{ '{{' }}", "{{ `{` }}", "\xff{{a}}", "é{{@}}", "{{ contains(items(`{}`,'a','b'), `1`) }}",
		"{{ map(&x, items(`{\"a\":1}`, 'k', 'v')) }}", "{{ sort_by(items(`{\"a\":1}`, 'k', 'v'), &k) }}", "{{ join(',', items(`{}`, 'a', 'b')) }}",
		"$(>=)", "$(1-5)", "$(1!-5)", "{{ multiply(`1e308`, `10`) }}x", "{{ divide('1h', `0.0000000001`) }}",
	}
	doc := map[string]any{}
	for i, s := range inputs {
		doc[s] = []any{s, map[string]any{s: s}}
		doc[string(rune('a'+i))] = s
	}
	c := podContext(t, busyboxPod)
	failures := 0
	count := func(err error) {
		if err != nil {
			failures++
		}
	}
	assert.NotPanics(t, func() {
		for _, s := range inputs {
			_, err := Substitute(c, s)
			count(err)
			_, err = Substitute(c, map[string]any{s: s})
			count(err)
			_, err = c.Query(s)
			count(err)
			_, err = EvaluateList(c, s)
			count(err)
			count(ValidateVariables(map[string]any{"name": "r", "mutate": map[string]any{"patchStrategicMerge": map[string]any{"a": s}}}, nil, true))
			count(CheckOffline(map[string]any{"a": s}))
			assert.NotEmpty(t, atVariable(s, "request.object"))
			NonDeterministic(map[string]any{"a": s})
		}
		_, err := Substitute(c, doc)
		count(err)
		count(ValidateVariables(doc, nil, false))
	})
	assert.Positive(t, failures)

	_, err := Substitute(c, "{{ multiply(`1e308`, `10`) }}x")
	require.EqualError(t, err, "failed to resolve multiply(`1e308`, `10`) at path : failed to marshal float64: +Inf")
}
