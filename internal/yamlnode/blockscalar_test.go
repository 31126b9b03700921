// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlnode

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// roundTrip encodes a map holding v as a scalar of the given style,
// through BlockScalarsSafe, and returns the value read back and the text.
func roundTrip(t testing.TB, v string, style yaml.Style) (string, string) {
	n := yaml.NewMapRNode(nil)
	s := yaml.NewStringRNode(v)
	s.YNode().Style = style
	require.NoError(t, n.PipeE(yaml.SetField("t", s)))
	text, err := yaml.NewRNode(BlockScalarsSafe(n.YNode())).String()
	require.NoError(t, err)
	back, err := yaml.Parse(text)
	require.NoError(t, err, text)
	got, err := back.Pipe(yaml.Lookup("t"))
	require.NoError(t, err)
	require.NotNil(t, got, text)
	return got.YNode().Value, text
}

func TestBlockScalarsSafe(t *testing.T) {
	for _, tc := range []struct{ in, out string }{
		// go-yaml alone writes "first line\n\n  more indented\nlast\n".
		{"text: >\n  first line\n    more indented\n  last\n", "text: |\n  first line\n    more indented\n  last\n"},
		// go-yaml alone adds a blank line at the end.
		{"# c\ntext: >+ # keep\n  a\n\n\nnext: x\n", "# c\ntext: |+ # keep\n  a\n\n\nnext: x\n"},
		// go-yaml alone writes "|2-\n  \tindented" without its indicator: no YAML.
		{"text: |2-\n  \tindented\n", "text: \"\\tindented\"\n"},
		{"text: >\n  folds\n  fine\n", ""},
		{"text: |\n  a\n    b\n\n", ""},
	} {
		n, err := yaml.Parse(tc.in)
		require.NoError(t, err)
		out := BlockScalarsSafe(n.YNode())
		if tc.out == "" {
			require.Same(t, n.YNode(), out, "nothing to change: the node itself")
			continue
		}
		require.NotSame(t, n.YNode(), out)
		got, err := yaml.NewRNode(out).String()
		require.NoError(t, err)
		require.Equal(t, tc.out, got)
		text, err := n.Pipe(yaml.Lookup("text"))
		require.NoError(t, err)
		require.NotZero(t, text.YNode().Style&(yaml.FoldedStyle|yaml.LiteralStyle), "the input node is left as it was")
	}
}

// TestBlockScalarsSafeEveryShortValue writes every value of up to seven
// characters from {a, space, tab, line break} in folded and in literal
// style: through BlockScalarsSafe each reads back unchanged.
func TestBlockScalarsSafeEveryShortValue(t *testing.T) {
	alphabet := []string{"a", " ", "\t", "\n"}
	values, last := []string{""}, []string{""}
	for length := 1; length <= 7; length++ {
		var next []string
		for _, v := range last {
			for _, c := range alphabet {
				next = append(next, v+c)
			}
		}
		values, last = append(values, next...), next
	}
	restyled := 0
	for _, style := range []yaml.Style{yaml.FoldedStyle, yaml.LiteralStyle} {
		for _, v := range values {
			got, text := roundTrip(t, v, style)
			require.Equal(t, v, got, "value %q written as\n%s", v, text)
			if safeStyle(style, v) != style {
				restyled++
			}
		}
	}
	require.Greater(t, restyled, 0)
}

func TestBlockScalarsSafeRNodes(t *testing.T) {
	plain := yaml.MustParse("a: b\n")
	folded := yaml.MustParse("t: >\n  a\n   b\n")
	items := []*yaml.RNode{plain, plain}
	require.Same(t, &items[0], &BlockScalarsSafeRNodes(items)[0], "an unchanged list is returned as it is")
	out := BlockScalarsSafeRNodes([]*yaml.RNode{plain, folded, plain})
	require.Len(t, out, 3)
	require.Same(t, plain, out[0])
	require.Same(t, plain, out[2])
	s, err := out[1].String()
	require.NoError(t, err)
	require.Equal(t, "t: |\n  a\n   b\n", s)
}

func FuzzBlockScalarsSafe(f *testing.F) {
	for _, s := range []string{"a\n  b\n", "a\n\n", "x", "a\n\tb", "\n\n a \n", "\tx"} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, v string, folded bool) {
		if !utf8.ValidString(v) {
			return
		}
		style := yaml.LiteralStyle
		if folded {
			style = yaml.FoldedStyle
		}
		got, text := roundTrip(t, v, style)
		require.Equal(t, v, got, "written as\n%s", text)
	})
}
