// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlpatch

import (
	"testing"

	"github.com/stretchr/testify/require"
	yaml11 "go.yaml.in/yaml/v2"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func TestIsString(t *testing.T) {
	doc := node(t, "a: plain\nb: 'on'\nc: on\nd: 1\ne: \"1\"\nf: ~\ng: !!str 1\nh: 2024-01-02\ni: {x: 1}\nj: [1]\nk: true\nl: &s hi\nm: *s\nn: |\n  block\no: 1.5\np: !custom x\n")
	want := map[string]bool{
		"a": true, "b": true, "c": true, "d": false, "e": true, "f": false, "g": true, "h": true,
		"i": false, "j": false, "k": false, "l": true, "m": true, "n": true, "o": false, "p": true,
	}
	for key, isStr := range want {
		n, err := Get(doc, "/"+key)
		require.NoError(t, err)
		require.Equal(t, isStr, IsString(n), key)
	}
	require.False(t, IsString(nil))
}

func TestSetString(t *testing.T) {
	tests := map[string]struct {
		in, value, want string
	}{
		"plain stays plain":                  {in: "k: old # c\n", value: "new", want: "k: new # c\n"},
		"yaml 1.1 bool is quoted":            {in: "k: old\n", value: "on", want: "k: \"on\"\n"},
		"yes is quoted":                      {in: "k: old\n", value: "yes", want: "k: \"yes\"\n"},
		"y is quoted":                        {in: "k: old\n", value: "y", want: "k: \"y\"\n"},
		"number is quoted":                   {in: "k: old\n", value: "8080", want: "k: \"8080\"\n"},
		"octal-looking is quoted":            {in: "k: old\n", value: "0755", want: "k: \"0755\"\n"},
		"float is quoted":                    {in: "k: old\n", value: "1e3", want: "k: \"1e3\"\n"},
		"bool is quoted":                     {in: "k: old\n", value: "true", want: "k: \"true\"\n"},
		"empty is quoted":                    {in: "k: old\n", value: "", want: "k: \"\"\n"},
		"null is quoted":                     {in: "k: old\n", value: "null", want: "k: \"null\"\n"},
		"tilde is quoted":                    {in: "k: old\n", value: "~", want: "k: \"~\"\n"},
		"timestamp is quoted":                {in: "k: old\n", value: "2024-01-02", want: "k: \"2024-01-02\"\n"},
		"json text gets quoted by the coder": {in: "k: old\n", value: `{"a":1}`, want: "k: \"{\\\"a\\\":1}\"\n"},
		"single quotes are kept":             {in: "k: 'old' # c\n", value: "new", want: "k: 'new' # c\n"},
		"double quotes are kept":             {in: "k: \"old\"\n", value: "new", want: "k: \"new\"\n"},
		"literal stays literal":              {in: "k: |\n  a\n  b\n", value: "x\ny\n", want: "k: |\n  x\n  y\n"},
		"literal without final newline":      {in: "k: |\n  a\n", value: "x\ny", want: "k: |-\n  x\n  y\n"},
		"folded stays folded":                {in: "k: >\n  a\n", value: "x y\nz", want: "k: >-\n  x y\n\n  z\n"},
		"folded to literal when indented":    {in: "k: >\n  a\n", value: "x\n  y\n", want: "k: |\n  x\n    y\n"},
		"literal to one line":                {in: "k: |\n  a\n  b\n", value: "x", want: "k: x\n"},
		"literal to one typed line":          {in: "k: |\n  a\n", value: "on", want: "k: \"on\"\n"},
		"plain to multi-line":                {in: "k: a\n", value: "x\ny\n", want: "k: |\n  x\n  y\n"},
		"number node becomes a string":       {in: "k: 5 # five\n", value: "6", want: "k: \"6\" # five\n"},
		"tagged node loses its tag":          {in: "k: !custom old\n", value: "new", want: "k: new\n"},
		"map becomes a string":               {in: "k:\n  a: 1\n", value: "s", want: "k: s\n"},
		"comments are kept":                  {in: "# head\nk: old # line\n# foot\n", value: "new", want: "# head\nk: new # line\n# foot\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			rn, err := yaml.Parse(tc.in)
			require.NoError(t, err)
			n, err := Get(rn.YNode(), "/k")
			require.NoError(t, err)
			SetString(n, tc.value)
			require.Equal(t, yaml.NodeTagString, n.Tag)
			require.True(t, IsString(n))
			out := rn.MustString()
			require.Equal(t, tc.want, out)
			requireReadsAsString(t, out, tc.value)
		})
	}
}

// TestSetStringReadsBack checks that whatever the previous style, the
// rendered value reads back as the same string in YAML 1.2 and YAML 1.1.
func TestSetStringReadsBack(t *testing.T) {
	values := []string{
		"", " ", "a", "on", "off", "yes", "no", "y", "n", "Y", "true", "False", "null", "~", "8080", "0x1F", "0o17",
		"1_000", "1e3", ".5", ".inf", "-.nan", "2024-01-02", "12:30:00", "1:20", "<<", "=", "-", "- a", "? x", "a: b",
		"a #b", "#x", "'q'", `"q"`, "{a: 1}", "[1]", "&a", "*a", "!t", "%x", "@x", "`x", "|", ">", "x\ny", "x\n",
		"\nx", " lead", "trail ", "tab\there", "é", "a\\b", "line1\n  indented\n", "x\n\n", "\ty",
		"a\n b", "a \nb", "a\n\nb", "\n\nx", "x\r\ny", "a\u2028b", "a\u0085b", "a\n\n\n", "a\n\tb", "a  b\nc",
		"x\n# not a comment\n", "- a\n- b\n", "key: v\nother: w\n", "\u00a0nbsp", "a\x00b", "\ufeffbom",
	}
	for _, in := range []string{"k: old\n", "k: 'old'\n", "k: \"old\"\n", "k: |\n  old\n", "k: >\n  old\n", "k: 5\n", "k: [1]\n"} {
		for _, v := range values {
			rn, err := yaml.Parse(in)
			require.NoError(t, err)
			n, err := Get(rn.YNode(), "/k")
			require.NoError(t, err)
			SetString(n, v)
			out, err := rn.String()
			require.NoError(t, err)
			requireReadsAsString(t, out, v)
		}
	}
}

func requireReadsAsString(t *testing.T, out, want string) {
	t.Helper()
	var v12 map[string]any
	require.NoError(t, yaml.Unmarshal([]byte(out), &v12), out)
	require.Equal(t, want, v12["k"], "YAML 1.2 reading of %q", out)
	var v11 map[string]any
	require.NoError(t, yaml11.Unmarshal([]byte(out), &v11), out)
	require.Equal(t, want, v11["k"], "YAML 1.1 reading of %q", out)
}
