// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package vars

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/apply-overrides/apply-overrides/kyverno/internal/jsonvalue"
)

// toJSON returns a deep copy of v as a JSON value: integers and float32
// become float64, []map[string]any becomes []any. Other types go through
// encoding/json.
func toJSON(v any) (any, error) {
	switch t := v.(type) {
	case nil, string, bool, float64:
		return t, nil
	case int:
		return float64(t), nil
	case int64:
		return float64(t), nil
	case int32:
		return float64(t), nil
	case float32:
		return float64(t), nil
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			c, err := toJSON(e)
			if err != nil {
				return nil, err
			}
			out[k] = c
		}
		return out, nil
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			c, err := toJSON(e)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	case []map[string]any:
		out := make([]any, len(t))
		for i, e := range t {
			c, err := toJSON(e)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	}
	return roundTrip(v)
}

// roundTrip encodes v with encoding/json and decodes it into any.
func roundTrip(v any) (any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// deepCopy copies maps and lists and keeps every other value as it is.
func deepCopy(v any) any { return jsonvalue.DeepCopy(v) }

// copyMap deep-copies a map (nil stays nil).
func copyMap(m map[string]any) map[string]any {
	out, _ := jsonvalue.DeepCopy(m).(map[string]any)
	return out
}

// asUnstructured copies a JSON value the way the CLI holds resources
// (apimachinery unstructured): integral numbers become int64.
func asUnstructured(v any) any { return jsonvalue.Int64Numbers(v) }

// encode is the text a non-string value takes inside a larger string
// (upstream: jsoniter ConfigCompatibleWithStandardLibrary, sorted keys).
func encode(v any) (string, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("failed to marshal %T: %v", v, v)
	}
	return string(data), nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
