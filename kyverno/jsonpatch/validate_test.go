// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package jsonpatch

import (
	"encoding/json"
	"errors"
	"testing"

	evanphx "github.com/evanphx/json-patch/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestValidate(t *testing.T) {
	tests := map[string]struct {
		patch string
		slash bool
		msg   string // ValidationError.Message("spec.rules[0]"); "" means valid
	}{
		"valid":            {"- {op: add, path: /metadata/labels/a, value: b}", false, ""},
		"valid JSON":       {`[{"op":"remove","path":"/a"}]`, false, ""},
		"empty":            {"", false, ""},
		"all six ops":      {"- {op: add, path: /a, value: 1}\n- {op: remove, path: /a}\n- {op: replace, path: /a, value: 1}\n- {op: move, from: /a, path: /b}\n- {op: copy, from: /a, path: /b}\n- {op: test, path: /a, value: 1}", false, ""},
		"variables":        {"- op: add\n  path: /spec/containers/{{elementIndex}}/x\n  value: {{ request.object.metadata.labels }}", false, ""},
		"no leading slash": {"- {op: add, path: metadata/labels/a, value: b}", true, "path must begin with a forward slash: spec.rules[0]: metadata/labels/a"},
		"empty path":       {"- {op: add, path: '', value: {}}", true, "path must begin with a forward slash: spec.rules[0]: "},
		"second op":        {"- {op: remove, path: /a}\n- {op: remove, path: b}", true, "path must begin with a forward slash: spec.rules[0]: b"},
		"variable first":   {"- {op: add, path: '{{x}}/a', value: 1}", true, "path must begin with a forward slash: spec.rules[0]: kyvernojsonpatchvariable/a"},
		"after UTF-8":      {"- {op: add, path: 'é{{x}}', value: 1}", true, "path must begin with a forward slash: spec.rules[0]: Ãkyvernojsonpatchvariable"},
		"escaped variable": {`- {op: add, path: 'a\{{x}}', value: 1}`, true, `path must begin with a forward slash: spec.rules[0]: a\{{x}}`},
		"unknown op":       {"- {op: merge, path: /a}", true, `path must begin with a forward slash: spec.rules[0]: invalid operation {"op":"merge","path":"/a"}: unsupported operation`},
		"missing value":    {"- {op: add, path: /a}", true, `path must begin with a forward slash: spec.rules[0]: invalid operation {"op":"add","path":"/a"}: failed to decode 'value': operation, missing value field: missing value`},
		"bad YAML":         {"- op: [", true, "path must begin with a forward slash: spec.rules[0]: yaml: line 1: did not find expected node content"},
		"JSON object":      {` {"op":"add"}`, true, "path must begin with a forward slash: spec.rules[0]: json: cannot unmarshal object into Go value of type jsonpatch.Patch"},
		"test needs value": {"- {op: test, path: /a}", false, "invalid value: spec.rules[0]: operation, missing value field: missing value"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			err := Validate(tc.patch)
			if tc.msg == "" {
				require.NoError(t, err)
				return
			}
			var ve *ValidationError
			require.True(t, errors.As(err, &ve), "%v", err)
			assert.Equal(t, tc.slash, ve.Slash)
			assert.Equal(t, tc.msg, ve.Message("spec.rules[0]"))
		})
	}
}

// TestCheckOperations covers the kind check, which DecodePatch makes
// unreachable from Validate.
func TestCheckOperations(t *testing.T) {
	raw := func(s string) *json.RawMessage { m := json.RawMessage(s); return &m }
	err := checkOperations(evanphx.Patch{{"op": raw(`"merge"`), "path": raw(`"/a"`)}})
	var ve *ValidationError
	require.True(t, errors.As(err, &ve))
	assert.Equal(t, "unexpected kind: spec.rules[2]: merge", ve.Message("spec.rules[2]"))
	assert.Equal(t, "unexpected kind: merge", ve.Error())
	assert.NoError(t, checkOperations(evanphx.Patch{{"op": raw(`"replace"`), "path": raw(`"/a"`), "value": nil}}))
}

func TestPaths(t *testing.T) {
	paths, err := Paths("- {op: add, path: '/a/{{x}}', value: 1}\n- {op: move, from: '/{{y}}', path: b}")
	require.NoError(t, err)
	assert.Equal(t, []string{"/a/{{x}}", "b"}, paths)

	paths, err = Paths(`[{"op":"remove","path":"/a"}]`)
	require.NoError(t, err)
	assert.Equal(t, []string{"/a"}, paths)

	paths, err = Paths("")
	require.NoError(t, err)
	assert.Empty(t, paths)

	// an unquoted variable value is a YAML flow mapping with a mapping key,
	// which does not convert to JSON; upstream skips its path check then
	_, err = Paths("- op: add\n  path: /a/{{x}}\n  value: {{ y }}")
	assert.Error(t, err)
}

func TestReplaceVariables(t *testing.T) {
	tests := map[string]string{
		"{{a}}":           placeholder,
		"x{{a}}y":         "x" + placeholder + "y",
		`\{{a}}`:          `\{{a}}`,
		"{{a}}{{b}}":      placeholder + "{{b}}", // the second needs a character before it
		"{{a}} {{b}}":     placeholder + " " + placeholder,
		"{{ f('{x}') }}":  placeholder,
		"é{{a}}":          "Ã" + placeholder,
		"{{a}":            "{{a}",
		"/p/{{ {a: b} }}": "/p/" + placeholder,
	}
	for in, want := range tests {
		assert.Equal(t, want, replaceVariables(in), in)
	}
}
