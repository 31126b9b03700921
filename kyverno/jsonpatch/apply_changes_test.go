// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package jsonpatch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestChanges(t *testing.T) {
	doc := []byte(`{"a":1,"b":{"c":2}}`)
	for patch, want := range map[string]bool{
		"- {op: replace, path: /a, value: 1}":                           false,
		"- {op: replace, path: /a, value: 2}":                           true,
		"- {op: remove, path: /missing}":                                false,
		"- {op: remove, path: /a}\n- {op: add, path: /a, value: 1}":     true, // "a" moves after "b"
		"- {op: remove, path: /b/c}\n- {op: add, path: /b/c, value: 2}": false,
		`[{"op": "add", "path": "/x/y", "value": "z"}]`:                 true,
	} {
		got, err := Changes(doc, patch)
		require.NoError(t, err, patch)
		assert.Equal(t, want, got, patch)
	}
	_, err := Changes(doc, "- {op: replace, path: /nope, value: 1}")
	assert.ErrorContains(t, err, "replace operation does not apply")
}
