// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package policy

import (
	"encoding/json"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// MaxChanged caps the pointers an explained step lists: a step that
// rewrites a whole pod template would otherwise bury the result in paths.
const MaxChanged = 8

// ChangedPointers compares two JSON documents and returns the JSON pointers
// (RFC 6901) of the leaves that differ, sorted: a value changed, added or
// removed; a map or list that appears or disappears whole is one pointer,
// and so is a list whose length changed (its items shifted, so listing
// each index would say little). At most max pointers are returned; more
// counts the rest. A document that does not decode compares as a whole.
func ChangedPointers(before, after []byte, max int) (ptrs []string, more int) {
	var a, b any
	if json.Unmarshal(before, &a) != nil || json.Unmarshal(after, &b) != nil {
		if string(before) != string(after) {
			ptrs = []string{""}
		}
		return ptrs, 0
	}
	diffValues("", a, b, &ptrs)
	sort.Strings(ptrs)
	if len(ptrs) > max {
		return ptrs[:max], len(ptrs) - max
	}
	return ptrs, 0
}

func diffValues(at string, a, b any, out *[]string) {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			break
		}
		for k, v := range x {
			w, found := y[k]
			if !found {
				*out = append(*out, at+"/"+escapePointer(k))
				continue
			}
			diffValues(at+"/"+escapePointer(k), v, w, out)
		}
		for k := range y {
			if _, found := x[k]; !found {
				*out = append(*out, at+"/"+escapePointer(k))
			}
		}
		return
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			break
		}
		for i := range x {
			diffValues(at+"/"+strconv.Itoa(i), x[i], y[i], out)
		}
		return
	}
	if !reflect.DeepEqual(a, b) {
		*out = append(*out, at)
	}
}

// escapePointer escapes a key as a JSON pointer's reference token.
func escapePointer(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}
