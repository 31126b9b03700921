// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlpatch

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func TestApplyErrors(t *testing.T) {
	doc := `{"a":[1,2],"metadata":{"name":"x"},"spec":{"template":{"spec":{}}}}`
	tests := map[string]struct {
		patch Patch
		text  string
		is    []error
	}{
		"missing parent": {
			patch: Patch{{Op: "add", Path: "/metadata/labels/team", Value: node(t, "a")}},
			text:  `add operation does not apply: doc is missing path: "/metadata/labels/team": missing value`,
			is:    []error{ErrMissing},
		},
		"remove missing key": {
			patch: Patch{{Op: "remove", Path: "/spec/template/spec/nodeSelector"}},
			text:  `error in remove for path: '/spec/template/spec/nodeSelector': unable to remove nonexistent key: nodeSelector: missing value`,
			is:    []error{ErrMissing},
		},
		"index past the end": {
			patch: Patch{{Op: "add", Path: "/a/5", Value: node(t, "1")}},
			text:  `error in add for path: '/a/5': Unable to access invalid index: 5: invalid index referenced`,
			is:    []error{ErrInvalidIndex},
		},
		"path without slash loses its first segment": {
			patch: Patch{{Op: "replace", Path: "spec/replicas", Value: node(t, "1")}},
			text:  `replace operation does not apply: doc is missing key: spec/replicas: missing value`,
			is:    []error{ErrMissing},
		},
		"single segment without slash": {
			patch: Patch{{Op: "add", Path: "replicas", Value: node(t, "1")}},
			text:  `add operation does not apply: doc is missing path: "replicas": missing value`,
			is:    []error{ErrMissing},
		},
		"bad index": {
			patch: Patch{{Op: "remove", Path: "/a/x"}},
			text:  `error in remove for path: '/a/x': strconv.Atoi: parsing "x": invalid syntax`,
			is:    []error{strconv.ErrSyntax},
		},
		"test failed": {
			patch: Patch{{Op: "test", Path: "/a/0", Value: node(t, "2")}},
			text:  `testing value /a/0 failed: test failed`,
			is:    []error{ErrTestFailed},
		},
		"move the document": {
			patch: Patch{{Op: "move", From: "", Path: "/x"}},
			text:  `unable to move entire document to another path: invalid state detected`,
			is:    []error{ErrInvalid},
		},
		"null document": {
			patch: Patch{{Op: "add", Path: "", Value: nil}},
			text:  `json: error calling MarshalJSON for type *jsonpatch.partialDoc: invalid value, expected object`,
			is:    []error{ErrExpectedObject},
		},
		"unknown operation": {
			patch: Patch{{Op: "add", Path: "/x", Value: node(t, "1")}, {Op: "frobnicate", Path: "/x"}},
			text:  `Unexpected kind: frobnicate`,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			n := node(t, doc)
			err := tc.patch.Apply(n)
			require.EqualError(t, err, tc.text)
			for _, target := range tc.is {
				require.ErrorIs(t, err, target)
			}
			view, err := toJSON(n)
			require.NoError(t, err)
			require.Equal(t, doc, view, "a failed Apply must not change the document")
		})
	}
}

func TestApplyValues(t *testing.T) {
	n := node(t, "a: 1\n")
	v := node(t, "{x: [1]}")
	p := Patch{
		{Op: "add", Path: "/b", Value: v},
		{Op: "add", Path: "/c", Value: nil},
		{Op: "add", Path: "/d", Value: &yaml.Node{}},
		{Op: "test", Path: "/c", Value: nil},
	}
	// a nil test value is null, and add put a non-nil null there, which
	// evanphx's test does not match
	require.EqualError(t, p.Apply(n), "testing value /c failed: test failed")
	require.NoError(t, p[:3].Apply(n))
	view, err := toJSON(n)
	require.NoError(t, err)
	require.Equal(t, `{"a":1,"b":{"x":[1]},"c":null,"d":null}`, view)

	// the value was copied, not shared
	v.Content[1].Content[0].Value = "2"
	b, err := Get(n, "/b/x/0")
	require.NoError(t, err)
	require.Equal(t, "1", b.Value)
	require.NotSame(t, v, n.Content[3])
}

func TestApplyDocumentNodes(t *testing.T) {
	rn, err := yaml.Parse("# c\na: 1\n")
	require.NoError(t, err)
	require.NoError(t, Patch{{Op: "add", Path: "/b", Value: node(t, "2")}}.Apply(rn.Document()))
	require.Equal(t, "# c\na: 1\nb: 2\n", rn.MustString())

	empty := &yaml.Node{Kind: yaml.DocumentNode}
	require.NoError(t, Patch{{Op: "add", Path: "/b", Value: node(t, "2")}}.Apply(empty))
	require.Empty(t, empty.Content)

	require.EqualError(t, Patch{}.Apply(node(t, "5")),
		"json: cannot unmarshal number into Go value of type map[string]*jsonpatch.lazyNode")
	require.Error(t, Patch{}.Apply(nil))
}

func TestApplyRollbackKeepsNodes(t *testing.T) {
	n := node(t, "a:\n  b: [1, 2]\nc: 3\n")
	b, err := Get(n, "/a/b")
	require.NoError(t, err)
	err = Patch{
		{Op: "add", Path: "/a/b/0", Value: node(t, "0")},
		{Op: "remove", Path: "/c"},
		{Op: "move", From: "/a", Path: "/z"},
		{Op: "add", Path: "", Value: node(t, "[]")},
		{Op: "remove", Path: "/nope"},
	}.Apply(n)
	require.Error(t, err)
	view, err := toJSON(n)
	require.NoError(t, err)
	require.Equal(t, `{"a":{"b":[1,2]},"c":3}`, view)
	again, err := Get(n, "/a/b")
	require.NoError(t, err)
	require.Same(t, b, again)
}

// TestApplyOddNodes feeds hand-built node trees that no parser produces;
// Apply must not panic on them.
func TestApplyOddNodes(t *testing.T) {
	docs := func() []*yaml.Node {
		return []*yaml.Node{
			{Kind: yaml.MappingNode, Content: []*yaml.Node{nil, nil, {Kind: yaml.ScalarNode, Value: "k"}}},
			{Kind: yaml.SequenceNode, Content: []*yaml.Node{nil, {Kind: yaml.AliasNode}, {}}},
			{Kind: yaml.DocumentNode, Content: []*yaml.Node{nil}},
			{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "a"}, {Kind: yaml.AliasNode}}},
			{},
		}
	}
	ops := []Operation{
		{Op: "add", Path: "/a", Value: &yaml.Node{Kind: yaml.AliasNode}},
		{Op: "add", Path: "/0", Value: &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{nil}}},
		{Op: "replace", Path: "/0"}, {Op: "replace", Path: "/a"}, {Op: "replace", Path: "/"},
		{Op: "remove", Path: "/1"}, {Op: "remove", Path: "/"}, {Op: "remove", Path: "/a"},
		{Op: "move", From: "/1", Path: "/-"}, {Op: "move", From: "/", Path: "/x"}, {Op: "move", From: "/a", Path: "/b"},
		{Op: "copy", From: "/0", Path: "/-"}, {Op: "copy", From: "", Path: "/x"}, {Op: "copy", From: "/a", Path: "/b"},
		{Op: "test", Path: "/0"}, {Op: "test", Path: "", Value: &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{nil}}},
		{Op: "test", Path: "/a", Value: &yaml.Node{Kind: yaml.AliasNode}},
		{Op: "add", Path: "", Value: &yaml.Node{Kind: yaml.DocumentNode}},
	}
	for _, op := range ops {
		for _, d := range docs() {
			require.NotPanics(t, func() { _ = Patch{op}.Apply(d) }, "%+v", op)
			require.NotPanics(t, func() { _, _ = Get(d, "/"+op.Path) })
			require.NotPanics(t, func() { _ = IsString(d) })
		}
	}
}

// TestWhereEvanphxPanics pins the behaviour chosen where evanphx panics:
// nulls inside compared arrays equal nulls, the nil array that replace ""
// with null leaves behaves as an empty array (and ends up as null if nothing
// is added), and null never matches a whole document.
func TestWhereEvanphxPanics(t *testing.T) {
	for _, c := range []struct{ doc, patch, want, err string }{
		{doc: `{"a":[null,1]}`, patch: `[{"op":"test","path":"/a","value":[null,1]}]`, want: `{"a":[null,1]}`},
		{doc: `{"a":[null,1]}`, patch: `[{"op":"test","path":"/a","value":[1,null]}]`, err: "testing value /a failed: test failed"},
		{doc: `{"a":1}`, patch: `[{"op":"replace","path":"","value":null},{"op":"add","path":"/0","value":1}]`, want: `[1]`},
		{doc: `{"a":1}`, patch: `[{"op":"replace","path":"","value":null}]`, want: `null`},
		{doc: `[1]`, patch: `[{"op":"test","path":"","value":null}]`, err: "testing value  failed: test failed"},
	} {
		require.True(t, runEvanphx(c.doc, c.patch).panicked || c.want == "null", c.patch)
		n := node(t, c.doc)
		p, err := toPatch(c.patch, false)
		require.NoError(t, err)
		err = p.Apply(n)
		if c.err != "" {
			require.EqualError(t, err, c.err)
			continue
		}
		require.NoError(t, err)
		view, err := toJSON(n)
		require.NoError(t, err)
		require.Equal(t, c.want, view)
	}
}

// TestSelfCycle: moving the root's self (key "" of the root, which evanphx
// resolves to the document as it was) into itself makes evanphx overflow
// its stack; Apply reports the cycle instead.
func TestSelfCycle(t *testing.T) {
	n := node(t, `{"":1,"a":2}`)
	err := Patch{
		{Op: "move", From: "/", Path: "/c"},
		{Op: "add", Path: "/", Value: node(t, "1")},
		{Op: "move", From: "/", Path: "/c/z"},
	}.Apply(n)
	require.EqualError(t, err, "document contains a cycle: invalid state detected")
	require.ErrorIs(t, err, ErrInvalid)
	view, err := toJSON(n)
	require.NoError(t, err)
	require.Equal(t, `{"":1,"a":2}`, view)
}

func TestEmptyNullsInFlowContext(t *testing.T) {
	rn, err := yaml.Parse("a: [1]\nb:\nc: {d: 1}\n")
	require.NoError(t, err)
	require.NoError(t, Patch{
		{Op: "copy", From: "/b", Path: "/a/-"},
		{Op: "add", Path: "/c/e", Value: node(t, "x:\ny: [~]")},
		{Op: "add", Path: "/f", Value: node(t, "{g: }")},
	}.Apply(rn.YNode()))
	require.Equal(t, "a: [1, null]\nb:\nc: {d: 1, e: {x: null, y: [~]}}\nf: {g: null}\n", rn.MustString())
}
