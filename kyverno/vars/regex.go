// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package vars

import (
	"regexp"
	"strings"
)

// The regular expressions of pkg/engine/variables/regex/vars.go.
var (
	// reVariable matches an innermost {{...}} at the start of a string or
	// after any character but a backslash (which it includes).
	reVariable = regexp.MustCompile(`(^|[^\\])(\{\{(?:\{[^{}]*\}|[^{}])*\}\})`)
	// reVariableStart tells whether a match starts with the braces.
	reVariableStart = regexp.MustCompile(`^\{\{(\{[^{}]*\}|[^{}])*\}\}`)
	// reReference matches $(...) at the start or after a non-backslash.
	reReference = regexp.MustCompile(`^\$\(.[^\ ]*\)|[^\\]\$\(.[^\ ]*\)`)
	// reEscapedReference matches \$(...).
	reEscapedReference = regexp.MustCompile(`\\\$\(.[^\ \)]*\)`)
)

// Variables returns the {{...}} occurrences of s found by one scan of
// Kyverno's variable regex: innermost variables only, escaped ones (\{{)
// skipped, and a variable that directly follows another is found only after
// the first is substituted.
func Variables(s string) []string {
	var out []string
	for _, m := range reVariable.FindAllStringSubmatch(s, -1) {
		out = append(out, m[2])
	}
	return out
}

// variableText strips the braces and spaces of a variable; a leading "-"
// marks a shallow substitution (its result is not scanned again).
func variableText(v string) (text string, shallow bool) {
	text = strings.ReplaceAll(v, "{{", "")
	text = strings.ReplaceAll(text, "}}", "")
	text = strings.TrimSpace(text)
	if strings.HasPrefix(text, "-") {
		return strings.TrimSpace(text[1:]), true
	}
	return text, false
}
