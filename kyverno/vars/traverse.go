// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package vars

import (
	"fmt"
	"strconv"
	"strings"
)

// leafFunc is applied to every leaf of a document and to every map key (as
// a string, with the path of its map); what it returns replaces the leaf or
// key and is walked in turn (pkg/engine/jsonutils/traverse.go with
// OnlyForLeafsAndKeys). Paths look like /mutate/patchStrategicMerge/a/0,
// with "/" inside keys written `\/`.
type leafFunc func(elem any, path string) (any, error)

// walk returns doc transformed by f without modifying it. Maps and lists
// in which f changed nothing are returned as they are, not copied: the
// result shares them with doc (Substitute copies its result with toJSON,
// substitute with deepCopy, so no caller sees the sharing).
func walk(doc any, path string, f leafFunc) (any, error) {
	out, _, err := walkShared(doc, path, f)
	return out, err
}

// walkShared is walk that also says whether anything changed.
func walkShared(doc any, path string, f leafFunc) (any, bool, error) {
	changed := false
	switch doc.(type) {
	case map[string]any, []any:
	default:
		v, err := f(doc, path)
		if err != nil {
			return nil, false, err
		}
		changed = !sameLeaf(doc, v)
		doc = v
	}
	out, childChanged, err := walkChildren(doc, path, f)
	return out, changed || childChanged, err
}

// sameLeaf reports whether f returned the leaf it was given: the same
// string, or for other leaves (which f returns untouched) the same value.
func sameLeaf(old, new any) bool {
	switch o := old.(type) {
	case string:
		n, ok := new.(string)
		return ok && n == o
	case nil, bool, float64, int64, int:
		return old == new
	}
	return false
}

func walkChildren(doc any, path string, f leafFunc) (any, bool, error) {
	switch t := doc.(type) {
	case map[string]any:
		return walkObject(t, path, f)
	case []any:
		return walkList(t, path, f)
	case []map[string]any:
		list := make([]any, len(t))
		for i, m := range t {
			list[i] = m
		}
		out, _, err := walkList(list, path, f)
		return out, true, err // the list's type changed
	}
	return doc, false, nil
}

// walkObject visits keys in sorted order (upstream: Go map order). A key
// renamed by f replaces the old one. The map is copied on its first change.
func walkObject(m map[string]any, path string, f leafFunc) (any, bool, error) {
	var out map[string]any
	for _, key := range sortedKeys(m) {
		newKey, err := walkKey(key, path, f)
		if err != nil {
			return nil, false, err
		}
		value, changed, err := walkShared(m[key], path+"/"+strings.ReplaceAll(key, "/", `\/`), f)
		if err != nil {
			return nil, false, err
		}
		if out == nil && !changed && newKey == key {
			continue // nothing renamed yet: the copy would hold m[key]
		}
		if out == nil {
			out = make(map[string]any, len(m))
			for k, v := range m {
				out[k] = v
			}
		}
		if newKey != key {
			delete(out, key)
		}
		out[newKey] = value
	}
	if out == nil {
		return m, false, nil
	}
	return out, true, nil
}

func walkKey(key, path string, f leafFunc) (string, error) {
	v, err := f(key, path)
	if err != nil {
		return "", err
	}
	if v, _, err = walkChildren(v, path, f); err != nil {
		return "", err
	}
	if v == nil {
		return key, nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("expected string after substituting variables in key \"%s\"", key)
	}
	return s, nil
}

func walkList(list []any, path string, f leafFunc) (any, bool, error) {
	var out []any
	for i, e := range list {
		v, changed, err := walkShared(e, path+"/"+strconv.Itoa(i), f)
		if err != nil {
			return nil, false, err
		}
		if !changed {
			continue
		}
		if out == nil {
			out = make([]any, len(list))
			copy(out, list)
		}
		out[i] = v
	}
	if out == nil {
		return list, false, nil
	}
	return out, true, nil
}
