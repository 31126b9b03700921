// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package workload

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// parse reads s as a resource.
func parse(t *testing.T, s string) *Object {
	t.Helper()
	n, err := yaml.Parse(s)
	require.NoError(t, err)
	o, err := New(n)
	require.NoError(t, err)
	return o
}

func TestNew(t *testing.T) {
	o := parse(t, "{apiVersion: apps/v1, kind: Deployment, metadata: {namespace: shop, name: web}}")
	assert.Equal(t, "apps/v1", o.APIVersion)
	assert.Equal(t, "apps/v1/Deployment", o.GVK())
	assert.Equal(t, "Deployment shop/web", o.String())
	assert.Equal(t, yaml.MappingNode, o.Root.Kind)

	// Fields that are not strings read as empty: they only name the
	// resource, and the input reader has vetted them.
	o = parse(t, "{apiVersion: 1, kind: [], metadata: {namespace: 2, name: {}}}")
	assert.Equal(t, Object{Root: o.Root}, *o)
	assert.Equal(t, "/", o.GVK())

	for _, s := range []string{"[]", "x", "~"} {
		n, err := yaml.Parse(s)
		require.NoError(t, err)
		_, err = New(n)
		assert.ErrorContains(t, err, "a resource must be a YAML mapping", s)
	}
	_, err := New(nil)
	assert.ErrorContains(t, err, "a resource must be a YAML mapping")
}

func TestString(t *testing.T) {
	for in, want := range map[string]string{
		"{kind: Pod, metadata: {namespace: ns, name: p}}": "Pod ns/p",
		"{kind: Namespace, metadata: {name: ns}}":         "Namespace ns",
		"{kind: Pod, metadata: {namespace: ns}}":          "Pod ns/",
		"{kind: Pod}":                                     "Pod",
		"{metadata: {name: p}}":                           " p",
	} {
		assert.Equal(t, want, parse(t, in).String(), in)
	}
}

func TestInvalid(t *testing.T) {
	o := parse(t, "{kind: Pod, metadata: {name: p}, spec: {a: 5, b: [1], c: {}}}")
	p := field.NewPath("spec")
	spec := o.Root.Content[5]
	assert.EqualError(t, o.Invalid(p.Child("a"), spec.Content[1], "a string"),
		`Pod p: spec.a: Invalid value: "5": must be a string: the controller cannot read a Pod whose field has another type, so correct the field`)
	o.Reader = "KubeAdmiral"
	assert.EqualError(t, o.Invalid(p.Child("b"), spec.Content[3], "an object"),
		`Pod p: spec.b: Invalid value: "array": must be an object: KubeAdmiral cannot read a Pod whose field has another type, so correct the field`)
	err := parse(t, "{spec: {c: {}}}").Invalid(p.Child("c"), spec.Content[5], "a string")
	assert.EqualError(t, err,
		`: spec.c: Invalid value: "object": must be a string: the controller cannot read a resource whose field has another type, so correct the field`)
	var fe *field.Error
	require.ErrorAs(t, err, &fe, "the field error stays reachable")
	assert.Equal(t, "spec.c", fe.Field)
}

func TestAccessors(t *testing.T) {
	o := parse(t, `
kind: Pod
spec:
  s: text
  n: ~
  i: 5
  list: &l [a, {name: x}, ~]
  alias: *l
  obj: &o {k: v}
  objAlias: *o
  nested: {deeper: {leaf: z}}
`)
	spec, p, err := o.ObjectAt(o.Root, nil, "spec")
	require.NoError(t, err)
	assert.Equal(t, "spec", p.String())

	s, err := o.StrAt(spec, p, "s")
	require.NoError(t, err)
	assert.Equal(t, "text", s)
	for _, keys := range [][]string{{"n"}, {"missing"}, {"n", "below"}, {"missing", "below"}} {
		s, err := o.StrAt(spec, p, keys...)
		require.NoError(t, err, keys)
		assert.Empty(t, s, "absent and null read as empty: %v", keys)
	}
	s, err = o.StrAt(spec, p, "nested", "deeper", "leaf")
	require.NoError(t, err)
	assert.Equal(t, "z", s)

	items, lp, err := o.ListAt(spec, p, "alias")
	require.NoError(t, err)
	assert.Equal(t, "spec.alias", lp.String())
	require.Len(t, items, 3)
	assert.Equal(t, "a", items[0].Value)
	items, _, err = o.ListAt(spec, p, "n")
	require.NoError(t, err)
	assert.Nil(t, items)

	obj, op, err := o.ObjectAt(spec, p, "objAlias")
	require.NoError(t, err)
	assert.Equal(t, "spec.objAlias", op.String())
	assert.Equal(t, yaml.MappingNode, obj.Kind, "an alias is followed")
	obj, _, err = o.ObjectAt(spec, p, "missing", "below")
	require.NoError(t, err)
	assert.Nil(t, obj)
	obj, op, err = o.ObjectAt(spec, p)
	require.NoError(t, err)
	assert.Same(t, spec, obj, "no keys: m itself")
	assert.Same(t, p, op)

	_, _, err = o.ObjectAt(nil, nil, "a")
	assert.NoError(t, err, "an absent m reads as empty")

	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"a string that is a number", second(o.StrAt(spec, p, "i")), `spec.i: Invalid value: "5": must be a string`},
		{"a string that is an object", second(o.StrAt(spec, p, "obj")), `spec.obj: Invalid value: "object": must be a string`},
		{"a step that is a string", second(o.StrAt(spec, p, "s", "below")), `spec.s: Invalid value: "text": must be an object`},
		{"an object that is an array", third(o.ObjectAt(spec, p, "list")), `spec.list: Invalid value: "array": must be an object`},
		{"a list that is an object", third(o.ListAt(spec, p, "obj")), `spec.obj: Invalid value: "object": must be an array`},
		{"a list below a string", third(o.ListAt(spec, p, "s", "x")), `spec.s: Invalid value: "text": must be an object`},
		{"m itself", third(o.ObjectAt(spec.Content[1], p.Child("s"), "x")), `spec.s: Invalid value: "text": must be an object`},
		{"an object below a string", third(o.ObjectAt(spec, p, "nested", "deeper", "leaf", "x")), `spec.nested.deeper.leaf: Invalid value: "z": must be an object`},
	} {
		assert.ErrorContains(t, tc.err, tc.want, tc.name)
	}
}

func second[A any](_ A, err error) error { return err }

func third[A, B any](_ A, _ B, err error) error { return err }

func TestEachName(t *testing.T) {
	o := parse(t, `{kind: Pod, spec: {items: [{ref: {name: a}}, {ref: ~}, ~, {ref: {name: ""}}, {ref: {}}, {}, {ref: {name: b}}],
	  names: [{name: a}, ~, {}], bad: [{ref: {name: 1}}], str: x}}`)
	var got []string
	add := func(s string) { got = append(got, s) }
	require.NoError(t, o.EachName(o.Root, nil, []string{"spec", "items"}, []string{"ref", "name"}, add))
	assert.Equal(t, []string{"a", "", "", "b"}, got, "each item holding a reference, in order, empty names included")

	got = nil
	require.NoError(t, o.EachName(o.Root, nil, []string{"spec", "names"}, []string{"name"}, add))
	assert.Equal(t, []string{"a", ""}, got, "a null item holds no reference")

	got = nil
	require.NoError(t, o.EachName(o.Root, nil, []string{"spec", "missing"}, []string{"name"}, add))
	assert.Nil(t, got)
	assert.ErrorContains(t, o.EachName(o.Root, nil, []string{"spec", "bad"}, []string{"ref", "name"}, add),
		`spec.bad[0].ref.name: Invalid value: "1": must be a string`)
	assert.ErrorContains(t, o.EachName(o.Root, nil, []string{"spec", "str"}, []string{"name"}, add),
		`spec.str: Invalid value: "x": must be an array`)
}
