// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package decode

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

type limits struct {
	Max int32 `yaml:"max"`
}

type spec struct {
	Name     string            `yaml:"name" required:"true"`
	Enabled  bool              `yaml:"enabled"`
	Replicas int               `yaml:"replicas"`
	Big      int64             `yaml:"big"`
	Limits   *limits           `yaml:"limits"`
	Tags     []string          `yaml:"tags"`
	Flags    []bool            `yaml:"flags"`
	Counts   []int             `yaml:"counts"`
	Matrix   [][]string        `yaml:"matrix"`
	Objects  []*limits         `yaml:"objects"`
	Raw      *yaml.Node        `yaml:"raw"`
	Value    any               `yaml:"value"`
	Labels   map[string]string `yaml:"labels,omitempty"`
	Skipped  string            `yaml:"-"`
	hidden   string
}

func decodeSpec(t *testing.T, o Options, in string) (spec, []string) {
	t.Helper()
	n, err := yaml.Parse(in)
	require.NoError(t, err)
	var s spec
	var got []string
	for _, e := range o.Decode(n.YNode(), field.NewPath("spec"), &s) {
		got = append(got, e.Error())
	}
	return s, got
}

func TestDecodeTypes(t *testing.T) {
	s, errs := decodeSpec(t, Options{}, `
name: web
enabled: true
replicas: 0x10
big: 9000000000
limits: {max: 3}
tags: [a, b]
flags: [false]
counts: [1, 2]
matrix: [[x], []]
objects: [{max: 1}, {}]
raw: {any: [thing]} # kept as written
value: {a: 1, b: [true, x, null], c: 1.5}
labels: {app: web}
`)
	require.Empty(t, errs)
	assert.Equal(t, "web", s.Name)
	assert.True(t, s.Enabled)
	assert.Equal(t, 16, s.Replicas, "integers in any base YAML reads")
	assert.Equal(t, int64(9000000000), s.Big)
	assert.Equal(t, &limits{Max: 3}, s.Limits)
	assert.Equal(t, []string{"a", "b"}, s.Tags)
	assert.Equal(t, []bool{false}, s.Flags)
	assert.Equal(t, []int{1, 2}, s.Counts)
	assert.Equal(t, [][]string{{"x"}, {}}, s.Matrix)
	assert.Equal(t, []*limits{{Max: 1}, {}}, s.Objects)
	require.NotNil(t, s.Raw)
	assert.Equal(t, yaml.MappingNode, s.Raw.Kind)
	assert.Equal(t, "# kept as written", s.Raw.LineComment)
	assert.Equal(t, map[string]any{"a": float64(1), "b": []any{true, "x", nil}, "c": 1.5}, s.Value, "any holds the value as encoding/json decodes it")
	assert.Equal(t, map[string]string{"app": "web"}, s.Labels)

	s, errs = decodeSpec(t, Options{}, "name: web\ntags: []\nlimits: null\n")
	require.Empty(t, errs)
	assert.Equal(t, []string{}, s.Tags, "[] is an empty slice")
	assert.Nil(t, s.Flags, "absent is nil")
	assert.Nil(t, s.Limits, "null is nil")
}

func TestDecodeErrors(t *testing.T) {
	testCases := map[string]struct {
		in   string
		want []string
	}{
		"missing required":       {"enabled: true", []string{"spec.name: Required value"}},
		"unknown field":          {"name: a\nreplica: 1", []string{"spec.replica: Forbidden: unknown field"}},
		"skipped fields unknown": {"name: a\nSkipped: x\nhidden: y", []string{"spec.Skipped: Forbidden: unknown field", "spec.hidden: Forbidden: unknown field"}},
		"duplicate key":          {"name: a\nname: b", []string{`spec.name: Duplicate value: "name"`}},
		"string a number":        {"name: 1", []string{`spec.name: Invalid value: "integer": must be of type string`}},
		"string a float":         {"name: 1.5", []string{`spec.name: Invalid value: "number": must be of type string`}},
		"string a bool":          {"name: yes\n", nil},
		"bool a string":          {"name: a\nenabled: 'true'", []string{`spec.enabled: Invalid value: "string": must be of type boolean`}},
		"int a float":            {"name: a\nreplicas: 1.0", []string{`spec.replicas: Invalid value: "number": must be of type integer`}},
		"int beyond int64":       {"name: a\nreplicas: 99999999999999999999", []string{`spec.replicas: Invalid value: "number": must be of type integer`}}, // YAML reads it as a float
		"struct a list":          {"name: a\nlimits: [3]", []string{`spec.limits: Invalid value: "array": must be of type object`}},
		"slice a map":            {"name: a\ntags: {a: b}", []string{`spec.tags: Invalid value: "object": must be of type array`}},
		"map a string":           {"name: a\nlabels: app=web", []string{`spec.labels: Invalid value: "string": must be of type object`}},
		"map value a list":       {"name: a\nlabels: {app: [web]}", []string{`spec.labels[app]: Invalid value: "array": must be of type string`}},
		"item of the wrong type": {"name: a\ncounts: [1, two]", []string{`spec.counts[1]: Invalid value: "string": must be of type integer`}},
		"nested":                 {"name: a\nobjects: [{max: x}, {min: 1}]", []string{`spec.objects[0].max: Invalid value: "string": must be of type integer`, "spec.objects[1].min: Forbidden: unknown field"}},
		"a timestamp":            {"name: 2024-01-01", []string{`spec.name: Invalid value: "!!timestamp": must be of type string`}},
		"not a mapping":          {"[name]", []string{`spec: Invalid value: "array": must be of type object`}},
		"null document":          {"null", nil},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			_, errs := decodeSpec(t, Options{}, tc.in)
			assert.Equal(t, tc.want, errs)
		})
	}
}

func TestDecodeCRDNullItems(t *testing.T) {
	// A null list item is not pruned: the schema check names the type it
	// wanted.
	for field, want := range map[string]string{
		"tags":    "string",
		"flags":   "boolean",
		"counts":  "integer",
		"matrix":  "array",
		"objects": "object",
	} {
		t.Run(field, func(t *testing.T) {
			_, errs := decodeSpec(t, Options{CRD: true}, fmt.Sprintf("name: a\n%s: [null]", field))
			assert.Equal(t, []string{fmt.Sprintf(`spec.%s[0]: Invalid value: "null": must be of type %s`, field, want)}, errs)
		})
	}
	var raw struct {
		Items []*yaml.Node `yaml:"items"`
	}
	n, err := yaml.Parse("items: [null, 1]")
	require.NoError(t, err)
	require.Empty(t, Options{CRD: true}.Decode(n.YNode(), nil, &raw), "raw nodes keep nulls")
	assert.Len(t, raw.Items, 2)
}

func TestDecodeDocumentAndAliases(t *testing.T) {
	// The document node and aliases resolve to their values.
	var d2 yaml.Node
	require.NoError(t, yaml.Unmarshal([]byte("name: &n web\nlimits: &l {max: 2}\ntags: [*n]\nobjects: [*l]\n"), &d2))
	var s spec
	require.Empty(t, Decode(&d2, nil, &s))
	assert.Equal(t, spec{Name: "web", Limits: &limits{Max: 2}, Tags: []string{"web"}, Objects: []*limits{{Max: 2}}}, s)

	assert.Empty(t, Decode(&yaml.Node{Kind: yaml.DocumentNode}, nil, &s))
}

func TestDecodeTarget(t *testing.T) {
	n := yaml.MustParse("name: a").YNode()
	var s spec
	for _, target := range []any{s, (*spec)(nil), nil} {
		errs := Decode(n, field.NewPath("spec"), target)
		require.Len(t, errs, 1)
		assert.Contains(t, errs[0].Error(), "spec: Internal error: decode target must be a non-nil pointer")
	}
	var stringer fmt.Stringer
	errs := Decode(n, field.NewPath("x"), &stringer)
	require.Len(t, errs, 1)
	assert.Equal(t, "x: Internal error: unsupported field type fmt.Stringer", errs[0].Error())
	var f float64
	errs = Decode(yaml.MustParse("1.5").YNode(), field.NewPath("x"), &f)
	require.Len(t, errs, 1)
	assert.Equal(t, "x: Internal error: unsupported field type float64", errs[0].Error())
	var m map[int]string
	errs = Decode(n, field.NewPath("x"), &m)
	assert.Equal(t, `x: Invalid value: "object": must be of type object`, errs[0].Error(), "only string keys")
}

// TestIntOverflow: a value that does not fit the field is an error, not a
// wrapped number (reflect.SetInt truncates).
func TestIntOverflow(t *testing.T) {
	var v struct {
		N int32 `yaml:"n"`
	}
	n, err := yaml.Parse("n: 4294967306")
	require.NoError(t, err)
	errs := Options{}.Decode(n.YNode(), field.NewPath("spec"), &v)
	require.Len(t, errs, 1)
	assert.Equal(t, "spec.n: Invalid value: 4294967306: must fit in a 32-bit integer", errs[0].Error())
	assert.Zero(t, v.N)
}
