// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package vars

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMemoIsBounded(t *testing.T) {
	var m memo[int]
	calls := 0
	f := func(s string) int { calls++; n, _ := strconv.Atoi(s); return n }
	for i := range maxMemo + 10 {
		assert.Equal(t, i, m.get(strconv.Itoa(i), f))
	}
	assert.Equal(t, int64(maxMemo), m.n.Load(), "no more than maxMemo entries")
	calls = 0
	assert.Equal(t, 1, m.get("1", f))
	assert.Equal(t, maxMemo+5, m.get(strconv.Itoa(maxMemo+5), f), "past the bound, still the right answer")
	assert.Equal(t, 1, calls, "a remembered key is not computed again")
}

func TestCompileCachedKeepsErrors(t *testing.T) {
	_, err := compileCached("request.[")
	require.EqualError(t, err, "SyntaxError: Incomplete expression")
	_, err = compileCached("request.[")
	require.EqualError(t, err, "SyntaxError: Incomplete expression", "the same error the second time")
	jp, err := compileCached("a.b")
	require.NoError(t, err)
	v, err := search(jp, map[string]any{"a": map[string]any{"b": "x"}})
	require.NoError(t, err)
	assert.Equal(t, "x", v)
}

func TestVariablePartsCached(t *testing.T) {
	for _, v := range []string{"{{a}}", "x{{a}}", "{{- a.b }}", " {{ {x} }}", "{{{a}}}", "a{{-b}}"} {
		for range 2 { // computed, then remembered
			assert.Equal(t, reVariableStart.MatchString(v), startsWithVariable(v), v)
			text, shallow := variableText(v)
			gotText, gotShallow := variableTextCached(v)
			assert.Equal(t, text, gotText, v)
			assert.Equal(t, shallow, gotShallow, v)
		}
	}
}
