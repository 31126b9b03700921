// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlnode

import (
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// YAML11NonString is kyaml's yaml.IsValueNonString (a plain string a YAML
// 1.1 reader takes for something else, which kyaml's setters quote)
// without its YAML 1.1 parse wherever the first characters settle it.
// go-yaml v2 resolves a plain scalar to a string, provided it holds
// nothing a parser reads as structure or trims (plainText), when it
// starts with
//   - a letter, unless it is one of v2's boolean or null words;
//   - a digit and holds a character no number or timestamp holds (a
//     quantity such as 100m or 128Mi);
//   - a slash (a path: no resolver rule starts with one);
//   - a dash and a letter, or two dashes and a letter (a command-line
//     flag: neither a number, a sequence entry nor a document marker).
//
// TestYAML11NonString and FuzzYAML11NonString hold it to kyaml's answer.
func YAML11NonString(v string) bool {
	if v == "" {
		return false
	}
	plain, multiLine := plainText(v)
	if multiLine {
		return false // as kyaml: multi-line strings are not checked
	}
	c := v[0]
	if plain {
		switch {
		case isLetter(c):
			return len(v) <= maxWord && yaml11Words[v]
		case '0' <= c && c <= '9' && strings.IndexFunc(v, notNumeric) >= 0:
			return false
		case c == '/':
			return false
		case c == '-' && len(v) > 1 && isLetter(v[1]):
			return false
		case c == '-' && len(v) > 2 && v[1] == '-' && isLetter(v[2]):
			return false
		}
	}
	return yaml.IsValueNonString(v)
}

// plainText reports, in one pass over the non-empty v, whether v is
// printable ASCII read as one plain scalar of exactly that text (no ": ",
// " #" or final colon, which are structure; no final space, which is
// trimmed) and whether it holds a line break.
func plainText(v string) (plain, multiLine bool) {
	plain = true
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '\n':
			return false, true
		case c < ' ' || c > '~':
			plain = false
		case c == ':' && i+1 < len(v) && v[i+1] == ' ', c == ' ' && i+1 < len(v) && v[i+1] == '#':
			plain = false
		}
	}
	last := v[len(v)-1]
	return plain && last != ':' && last != ' ', false
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// notNumeric reports a character no YAML 1.1 number or timestamp holds
// (digits, signs, dots, underscores, colons, exponents, the prefixes 0x,
// 0o, 0b, hex digits, the T, Z and space of timestamps).
func notNumeric(r rune) bool {
	return !strings.ContainsRune("0123456789+-._: eExXoObBaAcCdDfFtTzZ", r)
}

// maxWord is the length of the longest of yaml11Words.
const maxWord = len("FALSE")

// yaml11Words are go-yaml v2's booleans and nulls that start with a letter.
var yaml11Words = map[string]bool{
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true,
	"n": true, "N": true, "no": true, "No": true, "NO": true,
	"true": true, "True": true, "TRUE": true, "false": true, "False": true, "FALSE": true,
	"on": true, "On": true, "ON": true, "off": true, "Off": true, "OFF": true,
	"null": true, "Null": true, "NULL": true,
}
