// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package vars

import (
	"fmt"
	"maps"
	"slices"
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
	w := walker{f: f}
	out, _, err := w.walkShared(doc, path)
	return out, err
}

// walkMarked is walk for an f that returns every leaf and key unchanged
// but the strings holding marker ("{{" for variables, "$(" for
// references): f sees only those, and the paths of the rest are never
// built.
func walkMarked(doc any, path, marker string, f leafFunc) (any, error) {
	w := walker{f: f, marker: marker}
	out, _, err := w.walkShared(doc, path)
	return out, err
}

// Mentions reports a string or map key holding s anywhere in the JSON
// value v.
func Mentions(v any, s string) bool { return mentions(v, s, false) }

// holdsMarker is Mentions that also reports a []map[string]any (which walk
// converts to []any): when it reports neither, walkMarked returns doc
// itself, unchanged, and calls f on nothing.
func holdsMarker(doc any, marker string) bool { return mentions(doc, marker, true) }

// mentions is Mentions; typedLists also reports any []map[string]any.
func mentions(v any, s string, typedLists bool) bool {
	switch t := v.(type) {
	case string:
		return strings.Contains(t, s)
	case map[string]any:
		for k, e := range t {
			if strings.Contains(k, s) || mentions(e, s, typedLists) {
				return true
			}
		}
	case []any:
		for _, e := range t {
			if mentions(e, s, typedLists) {
				return true
			}
		}
	case []map[string]any:
		return typedLists
	}
	return false
}

type walker struct {
	f      leafFunc
	marker string
}

// skips reports a leaf or key f would return unchanged.
func (w *walker) skips(v any) bool {
	if w.marker == "" {
		return false
	}
	s, ok := v.(string)
	return !ok || !strings.Contains(s, w.marker)
}

// walkShared is walk that also says whether anything changed.
func (w *walker) walkShared(doc any, path string) (any, bool, error) {
	changed := false
	switch doc.(type) {
	case map[string]any, []any:
	default:
		if w.skips(doc) {
			return doc, false, nil
		}
		v, err := w.f(doc, path)
		if err != nil {
			return nil, false, err
		}
		changed = !sameLeaf(doc, v)
		doc = v
	}
	out, childChanged, err := w.walkChildren(doc, path)
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

func (w *walker) walkChildren(doc any, path string) (any, bool, error) {
	switch t := doc.(type) {
	case map[string]any:
		return w.walkObject(t, path)
	case []any:
		return w.walkList(t, path)
	case []map[string]any:
		list := make([]any, len(t))
		for i, m := range t {
			list[i] = m
		}
		out, _, err := w.walkList(list, path)
		return out, true, err // the list's type changed
	}
	return doc, false, nil
}

// walkObject visits keys in sorted order (upstream: Go map order). A key
// renamed by f replaces the old one. The map is copied on its first change.
func (w *walker) walkObject(m map[string]any, path string) (any, bool, error) {
	var out map[string]any
	var buf [8]string
	keys := buf[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, key := range keys {
		newKey := key
		if !w.skips(key) {
			var err error
			if newKey, err = w.walkKey(key, path); err != nil {
				return nil, false, err
			}
		}
		value, changed := m[key], false
		if !isLeaf(value) || !w.skips(value) {
			var err error
			if value, changed, err = w.walkShared(value, path+"/"+strings.ReplaceAll(key, "/", `\/`)); err != nil {
				return nil, false, err
			}
		}
		if out == nil && !changed && newKey == key {
			continue // nothing renamed yet: the copy would hold m[key]
		}
		if out == nil {
			out = maps.Clone(m)
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

// isLeaf reports whether v is a leaf (not a map or list).
func isLeaf(v any) bool {
	switch v.(type) {
	case map[string]any, []any, []map[string]any:
		return false
	}
	return true
}

func (w *walker) walkKey(key, path string) (string, error) {
	v, err := w.f(key, path)
	if err != nil {
		return "", err
	}
	if v, _, err = w.walkChildren(v, path); err != nil {
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

func (w *walker) walkList(list []any, path string) (any, bool, error) {
	var out []any
	for i, e := range list {
		if isLeaf(e) && w.skips(e) {
			continue
		}
		v, changed, err := w.walkShared(e, path+"/"+strconv.Itoa(i))
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
