// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package jsonpatch

import (
	"errors"
	"regexp"
	"strings"
)

// plainError restates a decoder's error in the policy's words; Unwrap
// still gives the decoder's error.
type plainError struct {
	msg string
	err error
}

func (e *plainError) Error() string { return e.msg }
func (e *plainError) Unwrap() error { return e.err }

// typeDump is a JSON decoder's type error. evanphx decodes with its own
// copy of encoding/json, so the error's type cannot be matched, only its
// text.
var typeDump = regexp.MustCompile(`json: cannot unmarshal (\w+) into Go (?:value|struct field \S+) of type (\S+)`)

// Explain rewrites the Go decoders' words in an error of this package
// ("yaml: line 2: ...", "json: cannot unmarshal object into Go value of
// type jsonpatch.Patch") into what is wrong with the patch as written, for
// the messages a user reads; the text around them (upstream's, e.g.
// "failed to decode patches: ") is kept. The package's own errors keep
// upstream's exact text, which the tests compare with upstream's.
func Explain(err error) error {
	if err == nil {
		return nil
	}
	var ve *ValidationError
	if errors.As(err, &ve) && ve.Err != nil {
		c := *ve
		c.Detail = Explain(ve.Err).Error()
		return &c
	}
	msg := typeDump.ReplaceAllStringFunc(err.Error(), func(m string) string {
		sub := typeDump.FindStringSubmatch(m)
		got, into := sub[1], sub[2]
		switch {
		case strings.HasSuffix(into, ".Patch"):
			return "the patch is a YAML or JSON " + got + ", not a list of operations such as \"- {op: add, path: /metadata/labels/team, value: a}\""
		case strings.HasSuffix(into, ".Operation") || strings.HasPrefix(into, "map["):
			return "an operation is a " + got + ", not an object such as {op: add, path: /metadata/labels/team, value: a}"
		case into == "string":
			return "a " + got + " where a string belongs"
		}
		return "a " + got + " where a " + into + " belongs"
	})
	msg = strings.Replace(msg, "yaml: ", "not valid YAML: ", 1)
	if msg == err.Error() {
		return err
	}
	return &plainError{msg: msg, err: err}
}
