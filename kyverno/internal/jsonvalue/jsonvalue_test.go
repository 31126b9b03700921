// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package jsonvalue

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDeepCopy(t *testing.T) {
	orig := map[string]any{
		"spec": map[string]any{"containers": []any{map[string]any{"name": "a", "args": []any{"x"}}}},
		"list": []map[string]any{{"k": []any{1.0}}, nil},
		"n":    1.5,
		"nil":  nil,
	}
	cp := DeepCopy(orig).(map[string]any)
	assert.Equal(t, orig, cp)

	cp["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)["args"].([]any)[0] = "changed"
	cp["list"].([]map[string]any)[0]["k"].([]any)[0] = 2.0
	cp["n"] = 0
	assert.Equal(t, "x", orig["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)["args"].([]any)[0], "nested lists are copied")
	assert.Equal(t, 1.0, orig["list"].([]map[string]any)[0]["k"].([]any)[0], "JMESPath's []map[string]any is copied")
	assert.Equal(t, 1.5, orig["n"])
	assert.Nil(t, cp["list"].([]map[string]any)[1], "a nil map stays nil")

	for _, scalar := range []any{"s", true, nil, 3.0, int64(4)} {
		assert.Equal(t, scalar, DeepCopy(scalar))
	}
}

func TestInt64Numbers(t *testing.T) {
	in := map[string]any{
		"replicas": 3.0,
		"ratio":    0.5,
		"neg":      -2.0,
		"int":      7,
		"big":      1e19, // beyond int64: stays a float
		"min":      float64(math.MinInt64),
		"list":     []any{1.0, "1", map[string]any{"port": 8080.0}},
		"s":        "text",
	}
	want := map[string]any{
		"replicas": int64(3),
		"ratio":    0.5,
		"neg":      int64(-2),
		"int":      int64(7),
		"big":      1e19,
		"min":      int64(math.MinInt64),
		"list":     []any{int64(1), "1", map[string]any{"port": int64(8080)}},
		"s":        "text",
	}
	assert.Equal(t, want, Int64Numbers(in))
	assert.Equal(t, 3.0, in["replicas"], "the input is not changed")
	assert.Equal(t, float64(math.MaxInt64), Int64Numbers(float64(math.MaxInt64)), "2^63 does not fit")
	assert.True(t, math.IsNaN(Int64Numbers(math.NaN()).(float64)))
	assert.Equal(t, math.Inf(1), Int64Numbers(math.Inf(1)))
}

func TestInt64NumbersInPlace(t *testing.T) {
	build := func() map[string]any {
		return map[string]any{
			"replicas": 3.0,
			"ratio":    0.5,
			"int":      7,
			"big":      1e19,
			"list":     []any{1.0, "1", map[string]any{"port": 8080.0}, []any{2.0}},
			"maps":     []map[string]any{{"k": 1.0}},
			"s":        "text",
			"nil":      nil,
		}
	}
	in := build()
	out := Int64NumbersInPlace(in)
	assert.Equal(t, Int64Numbers(build()), out, "the same value as Int64Numbers")
	assert.Equal(t, int64(3), in["replicas"], "the input itself is converted")
	assert.Equal(t, int64(8080), in["list"].([]any)[2].(map[string]any)["port"])
	assert.Equal(t, int64(5), Int64NumbersInPlace(5.0))
	assert.Equal(t, "s", Int64NumbersInPlace("s"))
}
