// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package jsonvalue holds helpers on JSON values (what encoding/json
// decodes into any) shared by the Kyverno packages.
package jsonvalue

import "math"

// DeepCopy copies the maps and lists of a JSON value (and the
// []map[string]any JMESPath functions return); other values are immutable
// and kept.
func DeepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		return copyMap(t)
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = DeepCopy(e)
		}
		return out
	case []map[string]any:
		out := make([]map[string]any, len(t))
		for i, e := range t {
			out[i] = copyMap(e)
		}
		return out
	}
	return v
}

func copyMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, e := range m {
		out[k] = DeepCopy(e)
	}
	return out
}

// Int64Numbers copies a JSON value with every integral number within
// int64's range turned into an int64, the way Kubernetes' JSON decoding
// (apimachinery unstructured, which Kyverno uses for resources and policy
// values) holds numbers.
func Int64Numbers(v any) any {
	switch t := v.(type) {
	case float64:
		if t == math.Trunc(t) && t >= math.MinInt64 && t < math.MaxInt64 {
			return int64(t)
		}
		return t
	case int:
		return int64(t)
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = Int64Numbers(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = Int64Numbers(e)
		}
		return out
	}
	return v
}

// Int64NumbersInPlace is Int64Numbers editing v's maps and lists in place
// instead of copying them; it returns the converted value (v itself unless
// v is a number).
func Int64NumbersInPlace(v any) any {
	switch t := v.(type) {
	case float64, int:
		return Int64Numbers(t)
	case map[string]any:
		for k, e := range t {
			switch e.(type) {
			case float64, int, map[string]any, []any:
				t[k] = Int64NumbersInPlace(e)
			}
		}
	case []any:
		for i, e := range t {
			t[i] = Int64NumbersInPlace(e)
		}
	}
	return v
}
