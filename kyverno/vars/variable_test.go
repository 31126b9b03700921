// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package vars

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLoadVariable(t *testing.T) {
	cases := map[string]struct {
		entry VariableEntry
		want  any
		err   string
	}{
		"value substituted": {entry: VariableEntry{Value: "{{request.object.metadata.name}}-x", HasValue: true}, want: "busybox-x"},
		"value keeps type":  {entry: VariableEntry{Value: "{{request.object.spec.replicas}}", HasValue: true}, want: 3.0},
		"value and jmesPath": {entry: VariableEntry{Value: map[string]any{"a": []any{1.0, 2.0}}, HasValue: true, JMESPath: "a[1]"},
			want: 2.0},
		"jmesPath sees int64 of the object in a value": {entry: VariableEntry{Value: "{{request.object.spec}}", HasValue: true,
			JMESPath: "replicas > `1`", Default: "d", HasDefault: true}, err: "failed to add context entry for variable v since it evaluated to nil"},
		"value, failing jmesPath, default": {entry: VariableEntry{Value: map[string]any{"a": 1.0}, HasValue: true, JMESPath: "missing",
			Default: "{{request.namespace}}", HasDefault: true}, want: "default"},
		"value, failing jmesPath": {entry: VariableEntry{Value: map[string]any{"a": 1.0}, HasValue: true, JMESPath: "missing"},
			err: `failed to apply jmespath missing to variable map[a:1]: Unknown key "missing" in path`},
		"value, bad jmesPath": {entry: VariableEntry{Value: "x", HasValue: true, JMESPath: "a.["},
			err: "failed to apply jmespath a.[ to variable x: failed to compile JMESPath: a.[, error: SyntaxError: Incomplete expression"},
		"jmesPath on the context":    {entry: VariableEntry{JMESPath: "request.object.metadata.labels.\"deploy-zone\""}, want: "frankfurt"},
		"jmesPath with variables":    {entry: VariableEntry{JMESPath: "request.object.metadata.{{ 'name' }}"}, want: "busybox"},
		"jmesPath null uses default": {entry: VariableEntry{JMESPath: "request.object.spec.priority", Default: 5.0, HasDefault: true}, want: 5.0},
		"jmesPath error uses default": {entry: VariableEntry{JMESPath: "request.object.nope", Default: []any{"d"}, HasDefault: true},
			want: []any{"d"}},
		"jmesPath null": {entry: VariableEntry{JMESPath: "request.object.spec.priority"},
			err: "failed to add context entry for variable v since it evaluated to nil"},
		"jmesPath error": {entry: VariableEntry{JMESPath: "request.object.nope"},
			err: `failed to apply jmespath request.object.nope to variable <nil>: JMESPath query failed: Unknown key "nope" in path`},
		"null value is unset": {entry: VariableEntry{Value: nil, HasValue: true, Default: "d", HasDefault: true}, want: "d"},
		"value substitution error": {entry: VariableEntry{Value: "{{request.object.nope}}", HasValue: true},
			err: `failed to substitute variables in context entry v {{request.object.nope}}: failed to resolve request.object.nope at path : JMESPath query failed: Unknown key "nope" in path`},
		"default substitution error": {entry: VariableEntry{JMESPath: "a", Default: "{{nope}}", HasDefault: true},
			err: `failed to substitute variables in context entry v {{nope}}: failed to resolve nope at path : JMESPath query failed: Unknown key "nope" in path`},
		"jmesPath substitution error": {entry: VariableEntry{JMESPath: "{{nope}}"},
			err: `failed to substitute variables in context entry v {{nope}}: failed to resolve nope at path : JMESPath query failed: Unknown key "nope" in path`},
		"jmesPath must stay a string": {entry: VariableEntry{JMESPath: "{{request.object.spec.replicas}}"},
			err: "jmespath value must be a string v {{request.object.spec.replicas}}: <nil>"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := podContext(t, busyboxPod)
			tc.entry.Name = "v"
			err := c.LoadVariable(tc.entry)
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			got, err := c.Query("v")
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

// jp-object-from-lists-context: a later entry replaces an earlier one of
// the same name and reads it; a map inside a string is JSON-encoded.
func TestObjectFromListsContext(t *testing.T) {
	entries := []VariableEntry{
		{Name: "annotations", JMESPath: "items(request.object.metadata.annotations, 'key', 'value')[?starts_with(key, 'key')]"},
		{Name: "annotations", JMESPath: "object_from_lists(annotations[].key, annotations[].value)"},
	}
	patch := map[string]any{"mutate": map[string]any{"patchesJson6902": "- path: \"/metadata/annotations\"\n  op: replace\n  value: {{ annotations }}"}}
	want := "- path: \"/metadata/annotations\"\n  op: replace\n  value: {\"key1\":\"1\",\"key2\":\"1\"}"
	pod := `{kind: Pod, metadata: {name: example, namespace: default, annotations: {key1: "1", key2: "1", notkey: "2"}}}`
	for name, load := range map[string]func(*Context, VariableEntry) error{
		"eager":    (*Context).LoadVariable,
		"deferred": (*Context).DeferVariable,
	} {
		t.Run(name, func(t *testing.T) {
			c := podContext(t, pod)
			c.Checkpoint()
			for _, e := range entries {
				require.NoError(t, load(c, e))
			}
			out, err := Substitute(c, patch)
			require.NoError(t, err)
			assert.Equal(t, want, at(out, "mutate", "patchesJson6902"))
			c.Restore()
			_, err = c.Query("annotations")
			require.EqualError(t, err, `JMESPath query failed: Unknown key "annotations" in path`)
		})
	}
}

func TestDeferVariable(t *testing.T) {
	t.Run("an unused failing entry is harmless", func(t *testing.T) {
		c := podContext(t, busyboxPod)
		require.NoError(t, c.DeferVariable(VariableEntry{Name: "broken", JMESPath: "request.object.nope"}))
		out, err := Substitute(c, "{{ request.object.metadata.name }}")
		require.NoError(t, err)
		assert.Equal(t, "busybox", out)
		_, err = Substitute(c, map[string]any{"x": "{{ broken }}"})
		require.EqualError(t, err, `failed to resolve broken at path /x: failed to apply jmespath request.object.nope to variable <nil>: JMESPath query failed: Unknown key "nope" in path`)
	})
	t.Run("evaluated on first use, with the context of that moment", func(t *testing.T) {
		c := podContext(t, busyboxPod)
		c.Checkpoint()
		require.NoError(t, c.DeferVariable(VariableEntry{Name: "n", Value: "{{ request.object.metadata.name }}", HasValue: true}))
		require.NoError(t, c.SetObject(map[string]any{"metadata": map[string]any{"name": "changed"}}))
		v, err := c.Query("n")
		require.NoError(t, err)
		assert.Equal(t, "changed", v)
		c.Restore()
	})
	t.Run("a name is matched as a word, not after a dot", func(t *testing.T) {
		c := podContext(t, busyboxPod)
		require.NoError(t, c.DeferVariable(VariableEntry{Name: "name", Value: "entry", HasValue: true}))
		v, err := c.Query("request.object.metadata.name")
		require.NoError(t, err)
		assert.Equal(t, "busybox", v)
		v, err = c.Query("to_upper(name)")
		require.NoError(t, err)
		assert.Equal(t, "ENTRY", v)
	})
	t.Run("a rule entry loaded inside a foreach element is reloaded on reset", func(t *testing.T) {
		c := podContext(t, busyboxPod)
		c.Checkpoint() // rule
		require.NoError(t, c.DeferVariable(VariableEntry{Name: "who", Value: "{{ element.name }}", HasValue: true}))
		c.Checkpoint() // foreach entry
		c.Reset()
		require.NoError(t, c.AddElement(map[string]any{"name": "first"}, 0, 0))
		v, err := c.Query("who")
		require.NoError(t, err)
		assert.Equal(t, "first", v, "upstream reads element in a rule-level entry")
		c.Reset() // reload without an element fails; upstream only logs it
		assert.Equal(t, []string{`failed to reload context entry who: failed to substitute variables in context entry who {{ element.name }}: failed to resolve element.name at path : JMESPath query failed: Unknown key "element" in path`}, c.Warnings())
		require.NoError(t, c.AddElement(map[string]any{"name": "second"}, 1, 0))
		_, err = c.Query("who")
		require.EqualError(t, err, `JMESPath query failed: Unknown key "who" in path`)
		c.Restore()
		c.Restore()
	})
	t.Run("a foreach entry is evaluated again for each element", func(t *testing.T) {
		c := podContext(t, busyboxPod)
		c.Checkpoint()
		for i, name := range []string{"a", "b"} {
			c.Reset()
			require.NoError(t, c.AddElement(map[string]any{"name": name}, i, 0))
			require.NoError(t, c.DeferVariable(VariableEntry{Name: "who", Value: "{{ element.name }}", HasValue: true}))
			v, err := c.Query("who")
			require.NoError(t, err)
			assert.Equal(t, name, v)
		}
		c.Restore()
		assert.Empty(t, c.Warnings())
	})
	t.Run("a name that is not a regular expression", func(t *testing.T) {
		c := NewContext()
		err := c.DeferVariable(VariableEntry{Name: "a(", Value: 1.0, HasValue: true})
		require.EqualError(t, err, "failed to create deferred loader for context entry a(")
	})
}
