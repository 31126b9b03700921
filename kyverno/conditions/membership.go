// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package conditions

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/apply-overrides/apply-overrides/internal/wildcard"
	"github.com/apply-overrides/apply-overrides/kyverno/internal/strpattern"
)

// memberAny implements AnyIn (not=false) and AnyNotIn (not=true), upstream
// operator/anyin.go and anynotin.go.
//
// A string, number or bool key (numbers and bools through fmt.Sprint, so a
// float64 1000000 is "1e+06") is one item; a list key is its items through
// fmt.Sprint; any other key is false. Items and value entries match when
// either one, as a wildcard pattern, matches the other.
//
// Value forms: a list (entries through fmt.Sprint); a range string such as
// "1-10" or "0.5Gi-2Gi" (see [rangeMatch]); a JSON array of strings; any
// other string (one entry, but a scalar key also matches it when the string
// is a wildcard pattern for the key). A number or bool value is one entry
// for a list key only; for a scalar key it is false, like every other value
// type upstream calls invalid (and a string that is valid JSON but no array
// of strings).
//
// AnyIn is true when some item is in the value, AnyNotIn when some item is
// not. Quirk: for a list key and a range value, AnyNotIn rewrites the first
// "-" of the range to "!-" before testing, so "-5-10" is no longer a range.
func memberAny(key, value any, not bool) bool {
	if s, ok := scalarKey(key); ok {
		found, valid := scalarMember(s, value)
		return valid && found != not
	}
	keys, ok := listKey(key)
	if !ok {
		return false
	}
	var values []string
	switch v := value.(type) {
	case []any:
		values = sprintAll(v)
	case int, int32, int64, float32, float64, bool:
		values = []string{fmt.Sprint(v)}
	case string:
		if len(keys) == 1 && keys[0] == v {
			return !not
		}
		if strpattern.Operator(v) == strpattern.InRange {
			pattern := v
			if not {
				pattern = strings.Replace(v, "-", "!-", 1)
			}
			for _, k := range keys {
				if rangeMatch(k, pattern) {
					return true
				}
			}
			return false
		}
		var valid bool
		if values, valid = stringEntries(v); !valid {
			return false
		}
	default:
		return false
	}
	for _, k := range keys {
		if matchesSome(k, values) != not {
			return true
		}
	}
	return false
}

// memberAll implements AllIn (not=false) and AllNotIn (not=true), upstream
// operator/allin.go and allnotin.go. Keys and value forms are as for
// [memberAny] except that a number or bool value is false for a list key
// too. AllIn is true when every item is in the value (so an empty list key
// is always in), AllNotIn when no item is.
func memberAll(key, value any, not bool) bool {
	if s, ok := scalarKey(key); ok {
		found, valid := scalarMember(s, value)
		return valid && found != not
	}
	keys, ok := listKey(key)
	if !ok {
		return false
	}
	var values []string
	switch v := value.(type) {
	case []any:
		values = sprintAll(v)
	case string:
		if len(keys) == 1 && keys[0] == v {
			return !not
		}
		if strpattern.Operator(v) == strpattern.InRange {
			for _, k := range keys {
				if rangeMatch(k, v) == not {
					return false
				}
			}
			return true
		}
		var valid bool
		if values, valid = stringEntries(v); !valid {
			return false
		}
	default:
		return false
	}
	for _, k := range keys {
		if matchesSome(k, values) == not {
			return false
		}
	}
	return true
}

// scalarMember is upstream's anyKeyExistsInArray/allKeyExistsInArray (they
// are identical): whether the single key is in value, and whether value has
// a usable form at all.
func scalarMember(key string, value any) (found, valid bool) {
	switch v := value.(type) {
	case []any:
		return matchesSome(key, sprintAll(v)), true
	case string:
		if wildcard.Match(v, key) {
			return true, true
		}
		if strpattern.Operator(v) == strpattern.InRange {
			return rangeMatch(key, v), true
		}
		entries, ok := stringEntries(v)
		if !ok {
			return false, false
		}
		for _, e := range entries {
			if e == key {
				return true, true
			}
		}
		return false, true
	}
	return false, false
}

// stringEntries reads a string value: a string that is valid JSON must be
// an array of strings or null (no entries); other JSON such as "42" or
// "{}" gives ok=false. A string that is not JSON is one entry.
func stringEntries(v string) (entries []string, ok bool) {
	if !json.Valid([]byte(v)) {
		return []string{v}, true
	}
	if err := json.Unmarshal([]byte(v), &entries); err != nil {
		return nil, false
	}
	return entries, true
}

// scalarKey stringifies a string, number or bool key.
func scalarKey(key any) (string, bool) {
	switch k := key.(type) {
	case string:
		return k, true
	case int, int32, int64, float32, float64, bool:
		return fmt.Sprint(k), true
	}
	return "", false
}

// listKey stringifies the items of a list key with fmt.Sprint.
func listKey(key any) ([]string, bool) {
	k, ok := key.([]any)
	if !ok {
		return nil, false
	}
	return sprintAll(k), true
}

func sprintAll(items []any) []string {
	out := make([]string, 0, len(items))
	for _, item := range items {
		out = append(out, fmt.Sprint(item))
	}
	return out
}

// matchesSome reports whether key matches some value, wildcards either way.
func matchesSome(key string, values []string) bool {
	for _, v := range values {
		if matchEitherWay(key, v) {
			return true
		}
	}
	return false
}
