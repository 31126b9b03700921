// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package vars

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSubstituteConformance(t *testing.T) {
	t.Run("var-at-self-reference-functions", func(t *testing.T) {
		c := podContext(t, busyboxPod)
		rule := fromYAML(t, `
name: r
mutate:
  patchStrategicMerge:
    metadata:
      labels:
        deploy-zone: "{{ to_upper('{{@}}') }}"
        corp.com/retention: "{{ regex_replace_all('([0-9])([0-9])', '{{ @ }}', '${1}0') }}"
`)
		out, err := Substitute(c, rule)
		require.NoError(t, err)
		labels := at(out, "mutate", "patchStrategicMerge", "metadata", "labels")
		assert.Equal(t, map[string]any{"deploy-zone": "FRANKFURT", "corp.com/retention": "days_30"}, labels)
	})

	t.Run("var-at-in-list-element-uses-index-0", func(t *testing.T) {
		c := podContext(t, `
kind: Pod
metadata: {name: test, namespace: default}
spec:
  containers:
    - {name: test, image: "foo/bash:5.0"}
    - {name: helper, image: "quay.io/bar/baz:1"}
`)
		rule := fromYAML(t, `
name: replace-image-registry
mutate:
  patchStrategicMerge:
    spec:
      containers:
        - (name): "*"
          image: "{{regex_replace_all('^([^/]+\\.[^/]+/)?(.*)$','{{@}}','myregistry.corp.com/$2')}}"
`)
		out, err := Substitute(c, rule)
		require.NoError(t, err)
		assert.Equal(t, "myregistry.corp.com/foo/bash:5.0", at(out, "mutate", "patchStrategicMerge", "spec", "containers", 0, "image"))

		// The chained rule sees the first rule's output through request.object.
		require.NoError(t, c.SetObject(fromYAML(t, `
kind: Pod
metadata: {name: test, namespace: default}
spec:
  containers:
    - {name: test, image: "myregistry.corp.com/foo/bash:5.0"}
    - {name: helper, image: "myregistry.corp.com/foo/bash:5.0"}
`)))
		chained := fromYAML(t, `
mutate:
  patchStrategicMerge:
    spec:
      containers:
        - (name): "*"
          image: "{{regex_replace_all('\\b(myregistry.corp.com)\\b','{{@}}','otherregistry.corp.com')}}"
`)
		out, err = Substitute(c, chained)
		require.NoError(t, err)
		assert.Equal(t, "otherregistry.corp.com/foo/bash:5.0", at(out, "mutate", "patchStrategicMerge", "spec", "containers", 0, "image"))
	})

	t.Run("var-escaped-braces-literal", func(t *testing.T) {
		c := podContext(t, `{kind: ConfigMap, metadata: {name: tmpl, namespace: default}}`)
		out, err := Substitute(c, fromYAML(t, `
mutate:
  patchStrategicMerge:
    metadata:
      annotations:
        template: '\{{ .Values.name }}'
        owner: "{{ request.object.metadata.name }}-owner"
`))
		require.NoError(t, err)
		assert.Equal(t, map[string]any{"template": "{{ .Values.name }}", "owner": "tmpl-owner"},
			at(out, "mutate", "patchStrategicMerge", "metadata", "annotations"))
	})

	t.Run("var-escaped-dollar-paren", func(t *testing.T) {
		c := podContext(t, busyboxPod)
		out, err := Substitute(c, fromYAML(t, `{mutate: {patchStrategicMerge: {env: [{name: H, value: '\$(MYSQL_SERVICE)'}]}}}`))
		require.NoError(t, err)
		assert.Equal(t, "$(MYSQL_SERVICE)", at(out, "mutate", "patchStrategicMerge", "env", 0, "value"))
	})

	t.Run("err-smp-dollar-paren-reference at run time", func(t *testing.T) {
		c := podContext(t, busyboxPod)
		_, err := Substitute(c, fromYAML(t, `
mutate:
  patchStrategicMerge:
    spec:
      template:
        spec:
          containers:
            - name: wordpress
              env:
                - name: WORDPRESS_DB_HOST
                  value: $(MYSQL_SERVICE)
`))
		require.EqualError(t, err, "got nil resolved variable $(MYSQL_SERVICE) at path /mutate/patchStrategicMerge/spec/template/spec/containers/0/env/0/value: <nil>")
	})

	t.Run("var-variable-in-map-key", func(t *testing.T) {
		c := podContext(t, `
kind: Deployment
metadata: {name: busybox, namespace: default}
spec: {template: {spec: {containers: [{name: busybox, image: busybox}]}}}
`)
		out, err := Substitute(c, fromYAML(t, `
mutate:
  patchStrategicMerge:
    metadata:
      annotations:
        "fluentbit.io/exclude-{{request.object.spec.template.spec.containers[0].name}}": "true"
`))
		require.NoError(t, err)
		assert.Equal(t, map[string]any{"fluentbit.io/exclude-busybox": "true"}, at(out, "mutate", "patchStrategicMerge", "metadata", "annotations"))
	})

	t.Run("fe-smp-images-variable", func(t *testing.T) {
		c := podContext(t, `
kind: Pod
metadata: {name: mypod, namespace: default}
spec:
  containers:
    - {name: busybox01, image: "registry.digitalocean.com/runlevl4/nginxasdfasdf:latest"}
    - {name: busybox02, image: "bbbbbbbbbb-ccccc:1.28"}
`)
		patch := fromYAML(t, `
patchStrategicMerge:
  spec:
    containers:
      - image: registry.digitalocean.com/runlevl4/{{ images.containers."{{element.name}}".name}}:{{images.containers."{{element.name}}".tag}}
        name: '{{ element.name }}'
`)
		list, err := EvaluateList(c, "request.object.spec.containers")
		require.NoError(t, err)
		c.Checkpoint()
		want := []string{"registry.digitalocean.com/runlevl4/nginxasdfasdf:latest", "registry.digitalocean.com/runlevl4/bbbbbbbbbb-ccccc:1.28"}
		for i := len(list) - 1; i >= 0; i-- {
			c.Reset()
			require.NoError(t, c.AddElement(list[i], i, 0))
			out, err := Substitute(c, patch)
			require.NoError(t, err)
			assert.Equal(t, want[i], at(out, "patchStrategicMerge", "spec", "containers", 0, "image"))
		}
		c.Restore()
	})

	t.Run("fe-jsonpatch-element-index", func(t *testing.T) {
		c := podContext(t, busyboxPod)
		require.NoError(t, c.AddElement(map[string]any{"name": "helper"}, 1, 0))
		out, err := Substitute(c, map[string]any{"patchesJson6902": "- path: /spec/containers/{{elementIndex}}/securityContext\n  op: add"})
		require.NoError(t, err)
		assert.Equal(t, "- path: /spec/containers/1/securityContext\n  op: add", at(out, "patchesJson6902"))
	})

	t.Run("fe-at-variable-inside-foreach-errors", func(t *testing.T) {
		c := podContext(t, busyboxPod)
		require.NoError(t, c.AddElement(map[string]any{"name": "busybox"}, 0, 0))
		_, err := Substitute(c, fromYAML(t, `
patchStrategicMerge:
  spec:
    containers:
      - name: "{{ element.name }}"
        image: "{{ to_upper('{{@}}') }}"
patchesJson6902: ""
`))
		require.EqualError(t, err, `failed to resolve request.object.containers[0].image at path /patchStrategicMerge/spec/containers/0/image: JMESPath query failed: Unknown key "containers" in path`)
	})

	t.Run("var-missing-key-in-patch-errors", func(t *testing.T) {
		c := podContext(t, busyboxPod)
		_, err := Substitute(c, fromYAML(t, `{mutate: {patchStrategicMerge: {metadata: {labels: {x: "{{request.object.metadata.labels.missing}}"}}}}}`))
		require.EqualError(t, err, `failed to resolve request.object.metadata.labels.missing at path /mutate/patchStrategicMerge/metadata/labels/x: JMESPath query failed: Unknown key "missing" in path`)
	})

	t.Run("cascade-foreach-then-smp-counter", func(t *testing.T) {
		c := podContext(t, `{kind: Pod, metadata: {name: p, namespace: default, annotations: {counter: "0"}}}`)
		out, err := Substitute(c, "{{ add('{{request.object.metadata.annotations.counter}}', '1') }}")
		require.NoError(t, err)
		assert.Equal(t, "1", out)
	})
}

func TestSubstituteValues(t *testing.T) {
	c := podContext(t, busyboxPod)
	cases := map[string]struct {
		in   any
		want any
		err  string
	}{
		"single variable keeps its type":     {in: "{{request.object.spec.replicas}}", want: 3.0},
		"bool":                               {in: "{{ request.object.spec.hostNetwork }}", want: false},
		"null":                               {in: "{{request.object.spec.priority}}", want: nil},
		"map":                                {in: "{{request.object.metadata.labels}}", want: map[string]any{"deploy-zone": "frankfurt", "corp.com/retention": "days_37"}},
		"list":                               {in: "{{request.object.spec.containers[].name}}", want: []any{"busybox", "helper"}},
		"embedded map is JSON, keys sorted":  {in: "x={{request.object.metadata.labels}}", want: `x={"corp.com/retention":"days_37","deploy-zone":"frankfurt"}`},
		"embedded number and null":           {in: "{{request.object.spec.replicas}}/{{request.object.spec.priority}}", want: "3/null"},
		"embedded HTML is escaped":           {in: "a{{ '<b>' | [@] }}", want: `a["\u003cb\u003e"]`},
		"adjacent variables":                 {in: "{{request.object.metadata.name}}{{request.namespace}}", want: "busyboxdefault"},
		"escaped stays literal":              {in: `\{{request.object.metadata.name}} {{request.namespace}}`, want: "{{request.object.metadata.name}} default"},
		"result of a variable is rescanned":  {in: "a{{request.object.metadata.annotations.template}}", err: `failed to resolve inner at path : JMESPath query failed: Unknown key "inner" in path`},
		"single variable is not rescanned":   {in: "{{request.object.metadata.annotations.template}}", want: "{{ inner }}"},
		"shallow result is not rescanned":    {in: "a{{- request.object.metadata.annotations.template}}", want: "a{{ inner }}"},
		"object integers are int64 inside":   {in: "{{ request.object.spec.replicas == `3` }}", want: false},
		"or swallows a missing key":          {in: "{{ request.object.metadata.missing || 'none' }}", want: "none"},
		"operation":                          {in: "{{request.operation}}", want: "CREATE"},
		"empty variable":                     {in: "{{}}", err: "failed to resolve  at path : invalid query (nil)"},
		"syntax error":                       {in: "{{ request.[ }}", err: "failed to resolve request.[ at path : incorrect query request.[: SyntaxError: Incomplete expression"},
		"non-ASCII before braces fails":      {in: "é{{request.namespace}}", err: "failed to resolve \xa9request.namespace at path : incorrect query \xa9request.namespace: SyntaxError: Unknown char: '\\ufffd'"},
		"non-string leaf untouched":          {in: 1.5, want: 1.5},
		"key resolving to a number is error": {in: map[string]any{"{{request.object.spec.replicas}}": "x"}, err: `expected string after substituting variables in key "{{request.object.spec.replicas}}"`},
		"key resolving to null is kept":      {in: map[string]any{"{{request.object.spec.priority}}": "x"}, want: map[string]any{"{{request.object.spec.priority}}": "x"}},
		"typed map result is walked":         {in: []any{"{{request.object.metadata.annotations}}"}, err: `failed to resolve inner at path /0/template: JMESPath query failed: Unknown key "inner" in path`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := Substitute(c, tc.in)
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestSubstituteDoesNotModifyInput(t *testing.T) {
	c := podContext(t, busyboxPod)
	doc := fromYAML(t, `{a: {b: ["{{request.object.metadata.name}}"]}}`)
	out, err := Substitute(c, doc)
	require.NoError(t, err)
	assert.Equal(t, "busybox", at(out, "a", "b", 0))
	assert.Equal(t, "{{request.object.metadata.name}}", at(doc, "a", "b", 0))
}

func TestSubstituteSelfExpandingVariable(t *testing.T) {
	c := NewContext()
	require.NoError(t, c.AddVariable("x", "a{{x}}"))
	_, err := Substitute(c, "b{{x}}")
	require.ErrorContains(t, err, "the value keeps expanding")
}

func TestSubstituteDelete(t *testing.T) {
	c := NewContext()
	require.NoError(t, c.SetOldObject(map[string]any{"metadata": map[string]any{"name": "old"}}))
	require.NoError(t, c.SetOperation("DELETE"))
	out, err := Substitute(c, "{{ request.object.metadata.name }}")
	require.NoError(t, err)
	assert.Equal(t, "old", out)
}

func TestSubstituteShallowNeedsString(t *testing.T) {
	c := podContext(t, busyboxPod)
	_, err := Substitute(c, "a{{- request.object.spec.replicas}}")
	require.EqualError(t, err, "failed to resolve request.object.spec.replicas at path : a shallow variable ({{- }}) must resolve to a string, not int64")
}

func TestReferences(t *testing.T) {
	c := NewContext()
	cases := map[string]struct {
		in   string
		want any
		err  string
	}{
		"relative":                      {in: `{a: {b: x, c: "$(../b)"}}`, want: map[string]any{"a": map[string]any{"b": "x", "c": "x"}}},
		"absolute inside a string":      {in: `{a: {b: x}, c: "pre-$(/a/b) post"}`, want: map[string]any{"a": map[string]any{"b": "x"}, "c": "pre-x post"}},
		"anchors are ignored":           {in: `{"(name)": web, image: "$(../name)"}`, want: map[string]any{"(name)": "web", "image": "web"}},
		"operator with a number":        {in: `{num: 5, m: "$(>=../num)"}`, want: map[string]any{"num": 5.0, "m": ">=5.000000"}},
		"operator with a string":        {in: `{num: "5", m: "$(!../num)"}`, want: map[string]any{"num": "5", "m": "!5"}},
		"a map path gives its last key": {in: `{m: {z: 1, a: 2}, r: "$(../m)"}`, want: map[string]any{"m": map[string]any{"z": 1.0, "a": 2.0}, "r": "z"}},
		"unresolved":                    {in: `{a: "$(VAR)"}`, err: "got nil resolved variable $(VAR) at path /a: <nil>"},
		"non-string raw value":          {in: `{num: 5, m: "$(../num)"}`, err: "NotResolvedReferenceErr,reference $(../num) not resolved at path /m"},
		"operator on a missing path":    {in: `{num: {x: 1}, m: "x$(>../num/x/y)"}`, err: "failed to resolve $(>../num/x/y) at path /m: incorrect expression: operator > does not match with value <nil>"},
		"operator type mismatch":        {in: `{num: true, m: "$(<../num)"}`, err: "failed to resolve $(<../num) at path /m: incorrect expression: operator < does not match with value true"},
		"escaped":                       {in: `{a: '\$(VAR) and \$(X)'}`, want: map[string]any{"a": "$(VAR) and $(X)"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := Substitute(c, fromYAML(t, tc.in))
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestHoldsMarker: a document holdsMarker says nothing of is what
// walkMarked returns for it, the same maps and lists, f never called.
func TestHoldsMarker(t *testing.T) {
	docs := []any{
		nil, "plain", 1.5, true,
		map[string]any{"a": map[string]any{"b": []any{"x", map[string]any{"c": "y"}}}, "n": nil},
		[]any{map[string]any{"k": "v"}, []any{"z"}},
		map[string]any{"$(a)": "key"},
		map[string]any{"a": []any{"x", "$(./b)"}},
		map[string]any{"a": []map[string]any{{"b": "c"}}},
		`\$(escaped)`,
	}
	for _, doc := range docs {
		held := holdsMarker(doc, "$(")
		called := false
		out, err := walkMarked(doc, "", "$(", func(elem any, _ string) (any, error) {
			called = true
			return elem, nil
		})
		require.NoError(t, err)
		if !held {
			assert.False(t, called, "%v", doc)
			assert.Equal(t, identity(doc), identity(out), "%v: the same map or list", doc)
			assert.Equal(t, doc, out)
		} else {
			assert.True(t, called || isTypedList(doc), "%v: holdsMarker said yes, walkMarked found nothing", doc)
		}
	}
}

// identity is where a map or list value's contents are (0 else).
func identity(v any) uintptr {
	switch v.(type) {
	case map[string]any, []any:
		return reflect.ValueOf(v).Pointer()
	}
	return 0
}

func isTypedList(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	_, ok = m["a"].([]map[string]any)
	return ok
}
