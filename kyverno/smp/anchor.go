// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package smp

import "strings"

// Anchor modifiers.
const (
	modCondition  = ""
	modGlobal     = "<"
	modAdd        = "+"
	modEquality   = "="
	modNegation   = "X"
	modExistence  = "^"
	anchorOpening = "("
)

// anchor is a parsed anchored map key such as "+(memory)".
type anchor struct {
	mod string
	key string
}

// parseAnchor parses a map key; nil means the key is not an anchor. Like
// upstream it ignores white space around the key, so the anchor's String
// may differ from the key it came from.
//
// The syntax is Kyverno's (pkg/engine/anchor/anchor.go, the regular
// expression ^([+<=X^])?\((.+)\)$): an optional modifier, then a
// non-empty key without line breaks in parentheses. It is parsed by hand:
// preprocessing parses the same keys once per list element.
func parseAnchor(s string) *anchor {
	s = strings.TrimSpace(s)
	mod := ""
	if s != "" && strings.IndexByte("+<=X^", s[0]) >= 0 {
		mod, s = s[:1], s[1:]
	}
	if len(s) < 3 || s[0] != '(' || s[len(s)-1] != ')' {
		return nil
	}
	key := s[1 : len(s)-1]
	if strings.IndexByte(key, '\n') >= 0 {
		return nil
	}
	return &anchor{mod: mod, key: key}
}

// String is the canonical spelling of the anchor, e.g. "<(emptyDir)".
func (a *anchor) String() string { return a.mod + anchorOpening + a.key + ")" }

func (a *anchor) is(mods ...string) bool {
	if a == nil {
		return false
	}
	for _, m := range mods {
		if a.mod == m {
			return true
		}
	}
	return false
}

func isCondition(a *anchor) bool { return a.is(modCondition) }
func isGlobal(a *anchor) bool    { return a.is(modGlobal) }
func isAdd(a *anchor) bool       { return a.is(modAdd) }

// isConditional is true for the two kinds that gate a patch: (k) and <(k).
func isConditional(a *anchor) bool { return a.is(modCondition, modGlobal) }

// isMutateAnchor is true for the kinds mutate interprets: (k), <(k), +(k).
func isMutateAnchor(a *anchor) bool { return a.is(modCondition, modGlobal, modAdd) }

// anchorString spells an anchor of modifier mod for key, "" for an empty key.
func anchorString(mod, key string) string {
	if key == "" {
		return ""
	}
	return mod + anchorOpening + key + ")"
}
