// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyverno

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/apply-overrides/apply-overrides/kyverno/internal/jsonvalue"
)

// TestSameJSON: reflect.DeepEqual on JSON values, whichever side holds
// request.object's int64 numbers.
func TestSameJSON(t *testing.T) {
	values := []any{nil, true, false, "", "1", 1.0, 1.5, 0.0, -2.0, 1e19,
		map[string]any{}, map[string]any{"a": 1.0}, map[string]any{"a": nil}, map[string]any{"b": 1.0},
		map[string]any{"a": 1.0, "b": []any{2.0, "x"}}, map[string]any{"a": 1.0, "b": []any{2.0, "y"}},
		[]any{}, []any{nil}, []any{1.0}, []any{1.5}, []any{map[string]any{"n": 3.0}}, []any{map[string]any{"n": 3.5}}}
	for _, a := range values {
		for _, b := range values {
			want := reflect.DeepEqual(a, b)
			assert.Equal(t, want, sameJSON(a, b), "%#v %#v", a, b)
			assert.Equal(t, want, sameJSON(jsonvalue.Int64Numbers(jsonvalue.DeepCopy(a)), b), "int64 %#v, %#v", a, b)
			assert.Equal(t, want, sameJSON(a, jsonvalue.Int64Numbers(jsonvalue.DeepCopy(b))), "%#v, int64 %#v", a, b)
		}
	}
	assert.False(t, sameJSON(map[string]any(nil), map[string]any{}), "nil and empty differ, as for reflect.DeepEqual")
	assert.False(t, sameJSON([]any{}, []any(nil)))
	assert.True(t, sameJSON([]any(nil), []any(nil)))
}
