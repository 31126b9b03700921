// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlvalue

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func encode(t *testing.T, n *yaml.Node) string {
	t.Helper()
	s, err := yaml.String(n)
	require.NoError(t, err)
	return s
}

func TestFromJSON(t *testing.T) {
	n, err := FromJSON([]byte(`{"b": 1, "a": [true, null, 1.5, 2e3, "yes", "", "x"], "b": {"k": "8080"}}`))
	require.NoError(t, err)
	assert.Equal(t, "b:\n  k: \"8080\"\na:\n- true\n- null\n- 1.5\n- 2e3\n- \"yes\"\n- \"\"\n- x\n", encode(t, n),
		"key order kept, the last of duplicate keys wins, numbers keep their text, strings read back as strings")
	assert.Equal(t, map[string]any{"b": map[string]any{"k": "8080"}, "a": []any{true, nil, 1.5, 2000.0, "yes", "", "x"}}, ToUnstructured(n))

	for in, want := range map[string]string{
		`{"a": 1} {}`:              "trailing data after JSON value",
		`{"a": 1`:                  "EOF",
		`[1,]`:                     "invalid character ']' looking for beginning of value",
		strings.Repeat("[", 10002): "JSON value nested too deeply",
	} {
		_, err := FromJSON([]byte(in))
		assert.ErrorContains(t, err, want, in)
	}
}

func TestStrings(t *testing.T) {
	assert.Equal(t, "- \"on\"\n- plain\n- \"1\"\n", encode(t, &yaml.Node{Kind: yaml.SequenceNode, Content: StringNodes([]string{"on", "plain", "1"})}))
	assert.True(t, IsStringMap(yaml.MustParse("a: x\nb: \"1\"\n").YNode()))
	assert.False(t, IsStringMap(yaml.MustParse("a: x\nb: 1\n").YNode()))
	assert.False(t, IsStringMap(yaml.MustParse("[a]").YNode()))
	assert.False(t, IsStringMap(nil))
}

func TestStoredJSON(t *testing.T) {
	got, err := StoredJSON(yaml.MustParse("b: yes\na: 1.10\n").YNode())
	require.NoError(t, err)
	assert.JSONEq(t, `{"a": 1.1, "b": true}`, string(got))
	assert.Equal(t, `{"a":1.1,"b":true}`, string(got), "keys sorted, YAML 1.1 scalars")
	got, err = StoredJSON(nil)
	require.NoError(t, err)
	assert.Equal(t, "null", string(got))
}
