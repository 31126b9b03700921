// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package vars

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// atVariable is what {{@}} stands for at a document path: prefix (target or
// request.object) followed by the path with everything up to "foreach" and
// then two more segments dropped (they name the policy section, e.g.
// mutate/patchStrategicMerge). Inside a foreach entry the substituted
// document starts at patchStrategicMerge, so one resource segment is lost,
// as upstream.
func atVariable(path, prefix string) string {
	p := parsePath(path)
	for i, s := range p {
		if s == "foreach" {
			p = p[i+1:]
			break
		}
	}
	if 2 > len(p)-1 {
		p = nil
	} else {
		p = p[2:]
	}
	p = append(strings.Split(prefix, "."), p...)
	return pointerJMESPath(p)
}

// parsePath splits a traversal path (pkg/utils/jsonpointer ParsePath): "/"
// separates segments, a backslash escapes the next character, double quotes
// are dropped and protect "/" between them. An invalid UTF-8 byte or U+FFFD
// ends the path; a trailing backslash adds U+FFFD.
func parsePath(raw string) []string {
	var out []string
	var sb strings.Builder
	flush := func() {
		if sb.Len() > 0 {
			out = append(out, sb.String())
		}
		sb.Reset()
	}
	escaped, quoted := false, false
	for i := 0; ; {
		r, width := utf8.DecodeRuneInString(raw[i:])
		if r == utf8.RuneError && width == 1 {
			return out
		}
		switch {
		case escaped:
			sb.WriteRune(r)
			escaped = false
		case r == '\\':
			escaped = true
		case r == '"':
			quoted = !quoted
		case r == '/' && !quoted:
			flush()
		case r == utf8.RuneError:
			flush()
			return out
		default:
			sb.WriteRune(r)
		}
		i += width
	}
}

// pointerJMESPath writes path segments as a JMESPath (jsonpointer.JMESPath):
// unsigned integers become [n]; identifiers stay bare; anything else is
// quoted.
func pointerJMESPath(p []string) string {
	var sb strings.Builder
	for _, s := range p {
		if _, err := strconv.ParseUint(s, 10, 64); err == nil {
			sb.WriteString("[" + s + "]")
			continue
		}
		if sb.Len() > 0 {
			sb.WriteByte('.')
		}
		if bareIdentifier(s) {
			sb.WriteString(s)
			continue
		}
		sb.WriteByte('"')
		for _, r := range s {
			writeQuotedRune(&sb, r)
		}
		sb.WriteByte('"')
	}
	return sb.String()
}

// bareIdentifier: the first rune is "(", a letter or "_"; every rune
// (the first included) is ")", a digit, an ASCII letter or "_".
func bareIdentifier(s string) bool {
	first, _ := utf8.DecodeRuneInString(s)
	if first != '(' && first != '_' && !isASCIILetter(first) {
		return false
	}
	for _, r := range s {
		if r != ')' && r != '_' && !isASCIILetter(r) && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}

func isASCIILetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

func writeQuotedRune(sb *strings.Builder, r rune) {
	switch r {
	case '"':
		sb.WriteString(`\"`)
	case '\\':
		sb.WriteString(`\\`)
	case '\b':
		sb.WriteString(`\b`)
	case '\f':
		sb.WriteString(`\f`)
	case '\n':
		sb.WriteString(`\n`)
	case '\r':
		sb.WriteString(`\r`)
	case '\t':
		sb.WriteString(`\t`)
	default:
		if r >= 0x20 {
			sb.WriteRune(r)
		} else {
			sb.WriteString(fmt.Sprintf("\\u%04x", r))
		}
	}
}
