// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package smp

import (
	"sort"
	"strings"

	"github.com/apply-overrides/apply-overrides/internal/wildcard"
)

// expandMetadata replaces wildcard keys of a map pattern's
// metadata.labels/annotations by the first matching key of the resource
// (pkg/engine/wildcards.ExpandInMetadata). Like upstream it edits the
// pattern in place, so a list-of-maps pattern keeps the expansion for the
// following elements, and it keeps only the string values of those maps.
// Where upstream picks among several matching keys in Go map order, this
// picks the first in sorted order.
func expandMetadata(pattern, resource map[string]any) map[string]any {
	_, pmeta := patternField("metadata", pattern)
	if pmeta == nil {
		return pattern
	}
	rmeta := resource["metadata"]
	if rmeta == nil {
		return pattern
	}
	meta, ok := pmeta.(map[string]any)
	if !ok {
		return pattern
	}
	for _, tag := range []string{"labels", "annotations"} {
		if key, expanded := expandTag(tag, meta, rmeta); expanded != nil {
			meta[key] = expanded
		}
	}
	return pattern
}

// patternField finds key in a pattern map, also under any anchor.
func patternField(key string, pattern map[string]any) (string, any) {
	if v, ok := pattern[key]; ok {
		return key, v
	}
	keys := make([]string, 0, len(pattern))
	for k := range pattern {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if a := parseAnchor(k); a != nil && a.key == key {
			return k, pattern[k]
		}
	}
	return "", nil
}

func expandTag(tag string, pmeta, rmeta any) (string, map[string]any) {
	key, pdata := stringValues(tag, pmeta)
	if pdata == nil {
		return "", nil
	}
	_, rdata := stringValues(tag, rmeta)
	if rdata == nil {
		return "", nil
	}
	out := make(map[string]any, len(pdata))
	for k, v := range pdata {
		if !strings.ContainsAny(k, "*?") {
			out[k] = v
			continue
		}
		if a := parseAnchor(k); a != nil {
			out[anchorString(a.mod, firstMatch(a.key, rdata))] = v
		} else {
			out[firstMatch(k, rdata)] = v
		}
	}
	return key, out
}

// stringValues returns the string entries of the map under key (possibly
// anchored) of data.
func stringValues(key string, data any) (string, map[string]string) {
	m, ok := data.(map[string]any)
	if !ok {
		return "", nil
	}
	k, v := patternField(key, m)
	vm, ok := v.(map[string]any)
	if !ok {
		return "", nil
	}
	out := map[string]string{}
	for name, x := range vm {
		if s, ok := x.(string); ok {
			out[name] = s
		}
	}
	return k, out
}

// firstMatch returns the first resource key the wildcard matches, or the
// wildcard itself.
func firstMatch(pattern string, resource map[string]string) string {
	keys := make([]string, 0, len(resource))
	for k := range resource {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if wildcard.Match(pattern, k) {
			return k
		}
	}
	return pattern
}
