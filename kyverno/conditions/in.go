// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package conditions

import (
	"encoding/json"
	"fmt"

	"github.com/apply-overrides/apply-overrides/internal/wildcard"
)

// deprecatedIn implements the deprecated In (not=false) and NotIn (not=true)
// operators (upstream operator/in.go, notin.go).
//
// A string, number or bool key (numbers and bools through fmt.Sprint) is
// looked up in the value:
//   - a list: some item (fmt.Sprint) matches the key as a wildcard pattern or
//     the key matches the item as a pattern;
//   - a string: the value matches the key as a wildcard pattern, or the
//     value is a JSON array of strings holding the key exactly.
//
// A list key must hold only strings; In is true when every item is in the
// value, NotIn when some item is not (exact comparison, no wildcards). The
// value is then a list of strings, or a string that equals the key's only
// item (true for NotIn as well as In, as upstream), or a JSON array of
// strings.
//
// Any other value (a number, a map, a string that is no JSON array of
// strings, a list key's value list holding a non-string) makes both In and
// NotIn false, as does a key of another type (nil, map).
//
// Upstream panics when a list key holds a non-string item; this returns an
// error instead.
func deprecatedIn(key, value any, not bool) (bool, error) {
	switch k := key.(type) {
	case string:
		return scalarIn(k, value, not), nil
	case int, int32, int64, float32, float64, bool:
		return scalarIn(fmt.Sprint(k), value, not), nil
	case []any:
		keys := make([]string, 0, len(k))
		for i, item := range k {
			s, ok := item.(string)
			if !ok {
				return false, fmt.Errorf("key item %d is %s, not a string: the In and NotIn operators need a list of strings (Kyverno panics here)", i, typeName(item))
			}
			keys = append(keys, s)
		}
		return setIn(keys, value, not), nil
	}
	return false, nil
}

// scalarIn is upstream's keyExistsInArray followed by In/NotIn's handling of
// an invalid value (false for both).
func scalarIn(key string, value any, not bool) bool {
	found := false
	switch v := value.(type) {
	case []any:
		for _, item := range v {
			if matchEitherWay(key, fmt.Sprint(item)) {
				found = true
				break
			}
		}
	case string:
		if wildcard.Match(v, key) {
			found = true
			break
		}
		var arr []string
		if err := json.Unmarshal([]byte(v), &arr); err != nil {
			return false
		}
		for _, item := range arr {
			if item == key {
				found = true
				break
			}
		}
	default:
		return false
	}
	return found != not
}

// setIn is upstream's setExistsInArray: whether every key is in the value
// (In) or some key is not (NotIn), compared exactly.
func setIn(keys []string, value any, not bool) bool {
	var values []string
	switch v := value.(type) {
	case []any:
		for _, item := range v {
			s, ok := item.(string)
			if !ok {
				return false
			}
			values = append(values, s)
		}
	case string:
		if len(keys) == 1 && keys[0] == v {
			return true
		}
		if err := json.Unmarshal([]byte(v), &values); err != nil {
			return false
		}
	default:
		return false
	}
	set := make(map[string]bool, len(values))
	for _, s := range values {
		set[s] = true
	}
	for _, k := range keys {
		if !set[k] {
			return not
		}
	}
	return !not
}

// matchEitherWay reports whether a matches b as a wildcard pattern or b
// matches a.
func matchEitherWay(a, b string) bool {
	return wildcard.Match(a, b) || wildcard.Match(b, a)
}

// typeName names a JSON value's type for messages, e.g. "a number".
func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a bool"
	case int, int32, int64, float32, float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "a list"
	case map[string]any:
		return "a map"
	}
	return fmt.Sprintf("%T", v)
}
