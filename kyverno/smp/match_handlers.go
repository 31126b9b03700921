// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package smp

import (
	"fmt"
	"strconv"
)

// handleKey checks one key of a map pattern against the resource map, with
// the semantics of its anchor (pkg/engine/anchor/handlers.go).
func handleKey(key string, pattern any, path string, resource map[string]any) (string, error) {
	a := parseAnchor(key)
	switch {
	case a.is(modCondition):
		return handleCondition(a, pattern, path, resource)
	case a.is(modGlobal):
		return handleGlobal(a, pattern, path, resource)
	case a.is(modExistence):
		return handleExistence(a, pattern, path, resource)
	case a.is(modEquality):
		return handleEquality(a, pattern, path, resource)
	case a.is(modNegation):
		return handleNegation(a, path, resource)
	}
	return handlePlain(key, pattern, path, resource)
}

// handleCondition: the key must exist and its value match.
func handleCondition(a *anchor, pattern any, path string, resource map[string]any) (string, error) {
	current := path + a.key + "/"
	value, ok := resource[a.key]
	if !ok {
		return current, newAnchorError(conditionalErr, conditionalMsg, "conditional anchor key doesn't exist in the resource")
	}
	if errPath, err := matchElement(value, pattern, current); err != nil {
		return errPath, newAnchorError(conditionalErr, conditionalMsg, err.Error())
	}
	return "", nil
}

// handleGlobal: if the key exists its value must match; a missing key passes.
func handleGlobal(a *anchor, pattern any, path string, resource map[string]any) (string, error) {
	value, ok := resource[a.key]
	if !ok {
		return "", nil
	}
	if errPath, err := matchElement(value, pattern, path+a.key+"/"); err != nil {
		return errPath, newAnchorError(globalErr, globalMsg, err.Error())
	}
	return "", nil
}

// handleEquality: if the key exists its value must match.
func handleEquality(a *anchor, pattern any, path string, resource map[string]any) (string, error) {
	value, ok := resource[a.key]
	if !ok {
		return "", nil
	}
	if errPath, err := matchElement(value, pattern, path+a.key+"/"); err != nil {
		return errPath, err
	}
	return "", nil
}

// handleNegation: the key must not exist.
func handleNegation(a *anchor, path string, resource map[string]any) (string, error) {
	current := path + a.key + "/"
	if _, ok := resource[a.key]; ok {
		return current, newAnchorError(negationErr, negationMsg, current+" is not allowed")
	}
	return "", nil
}

// handleExistence: the resource value must be a list in which every map of
// the pattern list matches at least one element.
func handleExistence(a *anchor, pattern any, path string, resource map[string]any) (string, error) {
	current := path + a.key + "/"
	value, ok := resource[a.key]
	if !ok {
		return "", nil
	}
	list, ok := value.([]any)
	if !ok {
		return current, fmt.Errorf("invalid resource type %T: Existence ^ () anchor can be used only on list/array type resource", value)
	}
	patterns, ok := pattern.([]any)
	if !ok {
		return current, fmt.Errorf("invalid pattern type %T: Pattern has to be of list to compare against resource", pattern)
	}
	for _, p := range patterns {
		m, ok := p.(map[string]any)
		if !ok {
			return current, fmt.Errorf("invalid pattern type %T: Pattern has to be of type map to compare against items in resource", pattern)
		}
		if errPath, err := existsIn(list, m, current); err != nil {
			return errPath, err
		}
	}
	return "", nil
}

// existsIn reports whether some element of list matches pattern.
func existsIn(list []any, pattern map[string]any, path string) (string, error) {
	for i, r := range list {
		if _, err := matchElement(r, pattern, path+strconv.Itoa(i)+"/"); err == nil {
			return "", nil
		}
	}
	return path, fmt.Errorf("existence anchor validation failed at path %s", path)
}

// handlePlain checks a key without a validation anchor ("*" only asks for a
// non-null value).
func handlePlain(key string, pattern any, path string, resource map[string]any) (string, error) {
	if s, ok := pattern.(string); ok && s == "*" {
		if resource[key] != nil {
			return "", nil
		}
		return path, fmt.Errorf("%s/%s not found", path, key)
	}
	if errPath, err := matchElement(resource[key], pattern, path+key+"/"); err != nil {
		return errPath, err
	}
	return "", nil
}
