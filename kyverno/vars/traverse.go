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

// walk returns a transformed copy of doc; the input is not modified.
func walk(doc any, path string, f leafFunc) (any, error) {
	switch doc.(type) {
	case map[string]any, []any:
	default:
		var err error
		if doc, err = f(doc, path); err != nil {
			return nil, err
		}
	}
	return walkChildren(doc, path, f)
}

func walkChildren(doc any, path string, f leafFunc) (any, error) {
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
		return walkList(list, path, f)
	}
	return doc, nil
}

// walkObject visits keys in sorted order (upstream: Go map order). A key
// renamed by f replaces the old one.
func walkObject(m map[string]any, path string, f leafFunc) (any, error) {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	for _, key := range sortedKeys(m) {
		newKey, err := walkKey(key, path, f)
		if err != nil {
			return nil, err
		}
		value, err := walk(m[key], path+"/"+strings.ReplaceAll(key, "/", `\/`), f)
		if err != nil {
			return nil, err
		}
		if newKey != key {
			delete(out, key)
		}
		out[newKey] = value
	}
	return out, nil
}

func walkKey(key, path string, f leafFunc) (string, error) {
	v, err := f(key, path)
	if err != nil {
		return "", err
	}
	if v, err = walkChildren(v, path, f); err != nil {
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

func walkList(list []any, path string, f leafFunc) (any, error) {
	out := make([]any, len(list))
	for i, e := range list {
		v, err := walk(e, path+"/"+strconv.Itoa(i), f)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}
