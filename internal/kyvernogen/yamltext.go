// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyvernogen

import (
	"strconv"
	"strings"
)

// q quotes s as a YAML double-quoted scalar.
func q(s string) string { return strconv.Quote(s) }

// indent prefixes every non-empty line of s with n spaces.
func indent(s string, n int) string {
	pad := strings.Repeat(" ", n)
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = pad + l
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

// nest puts body, a YAML mapping, under the keys of a dotted path:
// nest("spec.template", "x: 1") is "spec:\n  template:\n    x: 1\n".
func nest(path, body string) string {
	if path == "" {
		return body
	}
	keys := strings.Split(path, ".")
	out := body
	for i := len(keys) - 1; i >= 0; i-- {
		out = keys[i] + ":\n" + indent(out, 2)
	}
	return out
}

// field renders "key:\n  <body>" with body indented under key.
func field(key, body string) string { return key + ":\n" + indent(body, 2) }

// pointer turns a dotted path into a JSON pointer.
func pointer(path string) string { return "/" + strings.ReplaceAll(path, ".", "/") }

// listItem renders body as one element of a YAML sequence.
func listItem(body string) string {
	lines := strings.Split(strings.TrimRight(body, "\n"), "\n")
	for i, l := range lines {
		if i == 0 {
			lines[i] = "- " + l
		} else if l != "" {
			lines[i] = "  " + l
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

// pairs is an ordered string map.
type pairs [][2]string

// yaml renders the pairs as a block mapping with quoted values.
func (p pairs) yaml() string {
	var b strings.Builder
	for _, kv := range p {
		b.WriteString(kv[0] + ": " + q(kv[1]) + "\n")
	}
	return b.String()
}
