// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package vars

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"strings"
)

var (
	reAnchor     = regexp.MustCompile(`^([+<=X^])?\((.+)\)$`)
	reInRange    = regexp.MustCompile(`^([-|\+]?\d+(?:\.\d+)?[A-Za-z]*)-([-|\+]?\d+(?:\.\d+)?[A-Za-z]*)$`)
	reNotInRange = regexp.MustCompile(`^([-|\+]?\d+(?:\.\d+)?[A-Za-z]*)!-([-|\+]?\d+(?:\.\d+)?[A-Za-z]*)$`)
)

// substituteReferences replaces every $(path) in the strings and keys of
// doc by the string found at that path of doc itself (relative paths start
// at the referring leaf; anchors in doc's keys are ignored), then drops the
// backslash of every \$(...) (pkg/engine/variables/vars.go).
func substituteReferences(doc any) (any, error) {
	if !holdsMarker(doc, "$(") {
		return doc, nil // what walkMarked returns for it, without its walk
	}
	return walkMarked(doc, "", "$(", func(elem any, at string) (any, error) {
		s, ok := elem.(string)
		if !ok || !strings.Contains(s, "$(") {
			return elem, nil // both expressions need "$("
		}
		for _, v := range reReference.FindAllString(s, -1) {
			initial := strings.HasPrefix(v, "$(")
			old := v
			if !initial {
				v = v[1:]
			}
			resolved, err := resolveReference(doc, v, at)
			if err != nil {
				return nil, fmt.Errorf("failed to resolve %v at path %s: %v", v, at, err)
			}
			if resolved == nil {
				return nil, fmt.Errorf("got nil resolved variable %v at path %s: %v", v, at, error(nil))
			}
			str, ok := resolved.(string)
			if !ok {
				return nil, fmt.Errorf("NotResolvedReferenceErr,reference %s not resolved at path %s", v, at)
			}
			if !initial {
				str = string(rune(old[0])) + str
			}
			s = strings.Replace(s, old, str, 1)
		}
		for _, v := range reEscapedReference.FindAllString(s, -1) {
			s = strings.ReplaceAll(s, v, v[1:])
		}
		return s, nil
	})
}

// resolveReference reads $(path), $(>=path), $(!path)...: without an
// operator the raw value, with one the operator followed by the value as a
// string.
func resolveReference(doc any, ref, at string) (any, error) {
	p := strings.Trim(ref, "$()")
	op := referenceOperator(p)
	p = p[len(op):]
	if p == "" {
		return nil, errors.New("expected path, found empty reference")
	}
	if !path.IsAbs(p) {
		p = path.Join(at, p)
	}
	v, err := valueAt(doc, p)
	if err != nil {
		return nil, err
	}
	if op == "" {
		return v, nil
	}
	var s string
	switch t := v.(type) {
	case string:
		s = t
	case int, int64:
		s = fmt.Sprintf("%d", t)
	case float64:
		s = fmt.Sprintf("%f", t)
	default:
		return "", fmt.Errorf("incorrect expression: operator %s does not match with value %v", op, v)
	}
	return op + s, nil
}

// referenceOperator is pkg/engine/operator GetOperatorFromStringPattern.
func referenceOperator(p string) string {
	if len(p) < 2 {
		return ""
	}
	for _, op := range []string{">=", "<=", ">", "<", "!"} {
		if strings.HasPrefix(p, op) {
			return op
		}
	}
	if reNotInRange.MatchString(p) {
		return "!-"
	}
	if reInRange.MatchString(p) {
		return "-"
	}
	return ""
}

// valueAt returns the last leaf or key (keys carry their map's path) whose
// anchor-free path is p.
func valueAt(doc any, p string) (any, error) {
	var found any
	_, err := walk(doc, "", func(elem any, at string) (any, error) {
		if withoutAnchors(at) == p {
			found = elem
		}
		return elem, nil
	})
	return found, err
}

// withoutAnchors replaces each anchored segment, e.g. (name) or +(image),
// by its key (anchor.RemoveAnchorsFromPath).
func withoutAnchors(s string) string {
	parts := strings.Split(s, "/")
	if parts[0] == "" {
		parts = parts[1:]
	}
	for i, part := range parts {
		if m := reAnchor.FindStringSubmatch(strings.TrimSpace(part)); m != nil {
			parts[i] = m[2]
		}
	}
	out := path.Join(parts...)
	if path.IsAbs(s) {
		out = "/" + out
	}
	return out
}
