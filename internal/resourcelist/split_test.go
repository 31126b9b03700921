// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package resourcelist

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSplit: the items' texts, each with the comments above it, the lines
// before each, and the list without its items, whatever surrounds the
// document.
func TestSplit(t *testing.T) {
	const a = "# about a\n# more\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n\n  data:\n    k: |\n      x\n\n      y\n"
	const b = "-\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: b}\n"
	for name, c := range map[string]struct {
		before, after string
		skipped       int // lines before the document
	}{
		"bare":                       {},
		"leading comments and ---":   {before: "# generated\n\n---\n--- # again\n", skipped: 4},
		"trailing markers, comments": {after: "---\n# end\n...\n\n"},
		"functionConfig first":       {before: fc},
	} {
		t.Run(name, func(t *testing.T) {
			in := c.before + head + "items:\n" + a + b + c.after
			if !strings.Contains(c.before, fc) {
				in = c.before + head + "items:\n" + a + b + fc + c.after
			}
			s, ok := Split([]byte(in), Options{})
			require.True(t, ok)
			assert.Equal(t, []string{a, b}, []string{string(s.Sources[0]), string(s.Sources[1])})
			top := strings.Count(c.before, "\n") - c.skipped + 3 // lines of the document before the items
			assert.Equal(t, []int{c.skipped + top, c.skipped + top + strings.Count(a, "\n")}, s.sp.lines)
			assert.Equal(t, "ResourceList", s.Kind)
			assert.Equal(t, "config.kubernetes.io/v1", s.APIVersion)
			assert.Equal(t, "fc", s.FunctionConfig.GetName())
			assert.Contains(t, string(s.sp.rest), "\nitems: []\n", "the list without its items")
			assert.NotContains(t, string(s.sp.rest), "name: a")

			items, expanded, ok := s.Parse(0, 2)
			require.True(t, ok)
			assert.Equal(t, []bool{false, false}, expanded)
			assert.Equal(t, []string{"a", "b"}, []string{items[0].GetName(), items[1].GetName()})
			assert.Equal(t, "# about a\n# more", items[0].YNode().HeadComment)
			assert.Equal(t, "x\n\ny\n", items[0].Field("data").Value.Field("k").Value.YNode().Value)
		})
	}
}

// TestSplitDeclines: the inputs Split leaves to Parse, which reads them as
// a whole.
func TestSplitDeclines(t *testing.T) {
	for name, in := range map[string]string{
		"no items":                   head + fc,
		"items in flow style":        head + "items: [{apiVersion: v1, kind: ConfigMap, metadata: {name: a}}]\n",
		"an empty items block":       head + "items:\n" + fc,
		"indented entries":           head + "items:\n" + indent(cmA),
		"odd indentation":            head + "items:\n" + cmA + " data: {}\n",
		"a tab":                      head + "items:\n" + cmA + "\tdata: {}\n",
		"comments after the last":    head + "items:\n" + cmA + "# about fc\n" + fc,
		"comments, then more":        head + "items:\n" + cmA + "# a comment\n  data: {}\n",
		"text before the first":      head + "items:\n  x: y\n" + cmA,
		"a second document":          head + "items:\n" + cmA + "---\n" + head,
		"an end marker inside":       head + "items:\n" + cmA + "...\n" + fc,
		"a document start with text": "--- {a: b}\n" + head + "items:\n" + cmA,
		"a header that fails":        head + "items:\n" + cmA + "functionConfig: [a]\n",
		"not a ResourceList":         "apiVersion: v1\nkind: ConfigMap\nitems:\n" + cmA,
	} {
		t.Run(name, func(t *testing.T) {
			s, ok := Split([]byte(in), Options{})
			assert.False(t, ok)
			assert.Nil(t, s)
		})
	}
}

// TestSplitListParse: a group parses when its text stands alone and every
// item passes its checks; expanded marks the items whose aliases or merge
// keys were expanded.
func TestSplitListParse(t *testing.T) {
	in := head + "items:\n" +
		cmA + "  data: &d {k: v}\n" + // 0: an anchor
		cmB + "  data: *d\n" + // 1: an alias of item 0
		"- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c}\n  data: {<<: {k: v}}\n" + // 2: a merge key
		"- apiVersion: v1\n  kind: ConfigMap\n" + // 3: no metadata
		"- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: [}\n" + // 4: a syntax error
		fc
	s, ok := Split([]byte(in), Options{})
	require.True(t, ok)
	require.Len(t, s.Sources, 5)

	items, expanded, ok := s.Parse(0, 3)
	require.True(t, ok)
	assert.Equal(t, []bool{false, true, true}, expanded)
	assert.Equal(t, "{k: v}\n", items[1].Field("data").Value.MustString(), "the alias is a copy of its anchor's value")
	assert.Equal(t, "{k: v}\n", items[2].Field("data").Value.MustString())

	for _, c := range []struct {
		lo, hi int
		why    string
	}{
		{1, 2, "the anchor is outside the group"},
		{3, 4, "an item fails its checks"},
		{2, 4, "an item of the group fails its checks"},
		{4, 5, "a syntax error"},
	} {
		items, expanded, ok := s.Parse(c.lo, c.hi)
		assert.False(t, ok, c.why)
		assert.Nil(t, items, c.why)
		assert.Nil(t, expanded, c.why)
	}
}

// TestPeek: the apiVersion and kind of an item whose text says them
// plainly, and ok false for any other.
func TestPeek(t *testing.T) {
	for _, c := range []struct {
		in, apiVersion, kind string
		ok                   bool
	}{
		{"- apiVersion: v1\n  kind: ConfigMap\n", "v1", "ConfigMap", true},
		{"# head\n- kind: Deployment # c\n  apiVersion: apps/v1\n", "", "", false},
		{"- kind: Deployment\n  apiVersion: apps/v1\n  spec:\n    kind: x\n", "apps/v1", "Deployment", true},
		{"- apiVersion: 'v1'\n  kind: ConfigMap\n", "", "", false},
		{"- apiVersion: v1\n  kind: ConfigMap\n  kind: Secret\n", "", "", false},
		{"- {apiVersion: v1, kind: ConfigMap}\n", "", "", false},
		{"- apiVersion: v1\n", "", "", false},
	} {
		apiVersion, kind, ok := Peek([]byte(c.in))
		assert.Equal(t, c.ok, ok, c.in)
		if c.ok {
			assert.Equal(t, []string{c.apiVersion, c.kind}, []string{apiVersion, kind}, c.in)
		}
	}
}
