// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package vars

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestQueryForkSemantics(t *testing.T) {
	c := podContext(t, busyboxPod)
	cases := map[string]struct {
		want any
		err  string
	}{
		"request.object.metadata.name":                                {want: "busybox"},
		"request.namespace":                                           {want: "default"},
		"request.object.metadata.missing":                             {err: `JMESPath query failed: Unknown key "missing" in path`},
		"request.object.metadata.missing.deeper":                      {err: `JMESPath query failed: Unknown key "missing" in path`},
		"request.object.metadata.name.length":                         {want: nil},
		"request.object.metadata.missing || 'x'":                      {want: "x"},
		"not_null(request.object.metadata.missing, 'y')":              {want: "y"},
		"request.object.spec.missing[]":                               {want: nil},
		"request.object.spec.containers[5]":                           {want: nil},
		"length(request.object.spec.containers)":                      {want: 2.0},
		"request.object.spec.containers[?name=='helper'].image | [0]": {want: "quay.io/bar/baz:1"},
		"request.object.spec.replicas > `1`":                          {want: nil},
		"request.object.spec.replicas == `3`":                         {want: false},
		"add(request.object.spec.replicas, `1`)":                      {err: "JMESPath query failed: JMESPath function 'add': invalid operand"},
		"to_upper(request.object.metadata.missing)":                   {err: `JMESPath query failed: Invalid type for: <nil>, expected: []jmespath.JpType{"string"}`},
		"compare('a', 'b')":                                           {want: -1.0},
		"items(request.object.metadata.labels, 'k', 'v')[0].k":        {want: "corp.com/retention"},
		"contains(items(request.object.metadata.labels, 'k', 'v'), 'x')": {
			err: "JMESPath query failed: JMESPath evaluation failed: interface conversion: interface {} is []map[string]interface {}, not []interface {}"},
		"request.[":  {err: "incorrect query request.[: SyntaxError: Incomplete expression"},
		"  ":         {err: "invalid query (nil)"},
		"images.nop": {err: `JMESPath query failed: Unknown key "nop" in path`},
	}
	for expr, tc := range cases {
		t.Run(expr, func(t *testing.T) {
			got, err := c.Query(expr)
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestSetObject(t *testing.T) {
	c := NewContext()
	require.NoError(t, c.SetObject(map[string]any{"metadata": map[string]any{"name": "a", "namespace": "ns1"}, "spec": map[string]any{"n": 2.0, "f": 1.5}}))
	require.NoError(t, c.SetObject(map[string]any{"metadata": map[string]any{"name": "b", "namespace": "ns2"}, "spec": map[string]any{"n": 2.0, "f": 1.5}}))
	v, err := c.Query("[request.object.metadata.name, request.namespace, request.object.spec.f > `1`, request.object.spec.n > `1`]")
	require.NoError(t, err)
	assert.Equal(t, []any{"b", "ns1", true, nil}, v, "namespace set once; integral numbers are int64, others float64")

	c = NewContext()
	require.NoError(t, c.SetObject(map[string]any{"kind": "Namespace"}))
	v, err = c.Query("request.namespace")
	require.NoError(t, err)
	assert.Equal(t, "", v)
}

func TestCheckpointsShareTheObject(t *testing.T) {
	c := NewContext()
	obj := map[string]any{"metadata": map[string]any{"name": "a"}, "spec": map[string]any{"list": []any{
		map[string]any{"n": "b"}, map[string]any{"n": "a"}}}}
	require.NoError(t, c.SetObjectOwned(obj))
	c.Checkpoint()
	v, err := c.Query("sort_by(request.object.spec.list, &n)[0].n")
	require.NoError(t, err)
	assert.Equal(t, "a", v)
	v, err = c.Query("request.object.spec.list[0].n")
	require.NoError(t, err)
	assert.Equal(t, "a", v, "sort_by sorts the list it reads, as upstream, at this level")
	c.Restore()
	v, err = c.Query("request.object.spec.list[0].n")
	require.NoError(t, err)
	assert.Equal(t, "b", v, "the checkpoint's object is not the sorted one")

	c.Checkpoint()
	require.NoError(t, c.SetObjectOwned(map[string]any{"metadata": map[string]any{"name": "changed"}}))
	c.Reset()
	v, err = c.Query("request.object.metadata.name")
	require.NoError(t, err)
	assert.Equal(t, "a", v, "Reset drops an object set after the checkpoint")
	require.NoError(t, c.SetObjectOwned(map[string]any{"metadata": map[string]any{"name": "changed"}, "n": 2.0}))
	c.Restore()
	v, err = c.Query("request.object.metadata.name")
	require.NoError(t, err)
	assert.Equal(t, "a", v, "so does Restore")
	require.NoError(t, c.SetObjectOwned(map[string]any{"metadata": map[string]any{"name": "b"}, "n": 2.0}))
	v, err = c.Query("[request.object.metadata.name, request.object.n == `2`, request.object.n > `1`]")
	require.NoError(t, err)
	assert.Equal(t, []any{"b", false, nil}, v, "an owned object's integers become int64 too (neither equal to nor comparable with a JMESPath number)")
}

// Foreach elements share the object's values (EvaluateList does not copy
// them); a sort_by over an element sorts a private copy, so the object
// keeps its order.
func TestElementsShareTheObject(t *testing.T) {
	c := NewContext()
	obj := map[string]any{"spec": map[string]any{"containers": []any{
		map[string]any{"name": "a", "env": []any{map[string]any{"n": "y"}, map[string]any{"n": "x"}}}}}}
	require.NoError(t, c.SetObjectOwned(obj))
	c.Checkpoint()
	list, err := EvaluateList(c, "request.object.spec.containers")
	require.NoError(t, err)
	require.Len(t, list, 1)
	c.Reset()
	require.NoError(t, c.AddElement(list[0], 0, 0))
	v, err := c.Query("sort_by(element.env, &n)[0].n")
	require.NoError(t, err)
	assert.Equal(t, "x", v)
	v, err = c.Query("element.env[0].n")
	require.NoError(t, err)
	assert.Equal(t, "x", v, "sort_by sorts the element it reads, as upstream")
	v, err = c.Query("request.object.spec.containers[0].env[0].n")
	require.NoError(t, err)
	assert.Equal(t, "y", v, "not the object the element came from")
	assert.Equal(t, "y", obj["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)["env"].([]any)[0].(map[string]any)["n"])
	c.Restore()
}

func TestAddVariable(t *testing.T) {
	c := NewContext()
	require.NoError(t, c.AddVariable("cfg", map[string]any{"a": 1}))
	require.NoError(t, c.AddVariable("cfg", map[string]any{"b": 2}))
	require.NoError(t, c.AddVariable("x.y", "dotted"))
	v, err := c.Query(`[cfg, "x.y"]`)
	require.NoError(t, err)
	assert.Equal(t, []any{map[string]any{"b": 2.0}, "dotted"}, v, "replaced, not merged; names are literal")

	err = c.AddVariable("big", strings.Repeat("x", maxContextSize))
	require.EqualError(t, err, "context size limit exceeded: 2097176 bytes exceeds limit of 2097152 bytes")
	err = c.AddVariable("bad", func() {})
	require.EqualError(t, err, "failed to add context entry bad: json: unsupported type: func()")
}

func TestAddElementAndCheckpoints(t *testing.T) {
	c := podContext(t, busyboxPod)
	c.Checkpoint()
	require.NoError(t, c.AddElement(map[string]any{"name": "busybox"}, 0, 0))
	c.Checkpoint()
	require.NoError(t, c.AddElement("inner", 2, 1))
	v, err := c.Query("[element, element0.name, element1, elementIndex, elementIndex0, elementIndex == `2`]")
	require.NoError(t, err)
	assert.Equal(t, []any{"inner", "busybox", "inner", 2.0, 0.0, false}, v)

	require.NoError(t, c.AddVariable("tmp", 1))
	c.Reset()
	_, err = c.Query("tmp")
	require.EqualError(t, err, `JMESPath query failed: Unknown key "tmp" in path`)
	v, err = c.Query("element.name")
	require.NoError(t, err)
	assert.Equal(t, "busybox", v)

	c.Restore()
	c.Restore()
	_, err = c.Query("element")
	require.EqualError(t, err, `JMESPath query failed: Unknown key "element" in path`)
	c.Restore() // no checkpoint left: a no-op
	c.Reset()

	require.NoError(t, c.AddElement(int64(7), 0, 0))
	v, err = c.Query("element == `7`")
	require.NoError(t, err)
	assert.Equal(t, true, v, "a scalar element goes through JSON")
}

func TestImages(t *testing.T) {
	c := podContext(t, `
kind: Pod
metadata: {name: p, namespace: default}
spec:
  initContainers:
    - {name: init, image: "ghcr.io/org/init@sha256:128c6e3534b842a2eec139999b8ce8aa9a2af9907e2b9269550809d18cd832a3"}
  containers:
    - {name: busybox02, image: "bbbbbbbbbb-ccccc:1.28"}
    - {name: noimage}
`)
	v, err := c.Query("images")
	require.NoError(t, err)
	assert.Equal(t, map[string]any{
		"containers": map[string]any{"busybox02": map[string]any{
			"registry": "docker.io", "path": "bbbbbbbbbb-ccccc", "name": "bbbbbbbbbb-ccccc", "tag": "1.28",
			"reference": "docker.io/bbbbbbbbbb-ccccc:1.28", "referenceWithTag": "docker.io/bbbbbbbbbb-ccccc:1.28",
			"jsonPointer": "/spec/containers/0/image"}},
		"initContainers": map[string]any{"init": map[string]any{
			"registry": "ghcr.io", "path": "org/init", "name": "init",
			"digest":           "sha256:128c6e3534b842a2eec139999b8ce8aa9a2af9907e2b9269550809d18cd832a3",
			"reference":        "ghcr.io/org/init@sha256:128c6e3534b842a2eec139999b8ce8aa9a2af9907e2b9269550809d18cd832a3",
			"referenceWithTag": "ghcr.io/org/init:", "jsonPointer": "/spec/initContainers/0/image"}},
	}, v)
	_, err = c.Query("images.containers.busybox02.digest")
	require.EqualError(t, err, `JMESPath query failed: Unknown key "digest" in path`, "empty fields are omitted")
	_, err = c.Query("images.ephemeralContainers")
	require.EqualError(t, err, `JMESPath query failed: Unknown key "ephemeralContainers" in path`)
}

func TestImagesOfControllers(t *testing.T) {
	for kind, doc := range map[string]string{
		"Deployment": `{kind: Deployment, spec: {template: {spec: {containers: [{name: c, image: nginx}]}}}}`,
		"CronJob":    `{kind: CronJob, spec: {jobTemplate: {spec: {template: {spec: {containers: [{name: c, image: nginx}]}}}}}}`,
	} {
		c := podContext(t, doc)
		v, err := c.Query("images.containers.c.[referenceWithTag, jsonPointer]")
		require.NoError(t, err, kind)
		assert.Contains(t, v.([]any)[1], "/containers/0/image", kind)
		assert.Equal(t, "docker.io/nginx:latest", v.([]any)[0], kind)
	}
	c := podContext(t, `{kind: ConfigMap, data: {a: b}}`)
	_, err := c.Query("images")
	require.EqualError(t, err, `JMESPath query failed: Unknown key "images" in path`)
}

func TestImagesErrorsSurfaceOnUse(t *testing.T) {
	c := podContext(t, `{kind: Pod, spec: {containers: [{image: nginx}]}}`)
	v, err := c.Query("request.object.kind")
	require.NoError(t, err, "unrelated queries do not load images")
	assert.Equal(t, "Pod", v)
	_, err = Substitute(c, map[string]any{"x": "{{ images.containers }}"})
	require.EqualError(t, err, "failed to resolve images.containers at path /x: invalid key")
	// Like upstream, a failed loader is not retried before the next reset.
	_, err = c.Query("images")
	require.EqualError(t, err, `JMESPath query failed: Unknown key "images" in path`)

	c = podContext(t, `{kind: Pod, spec: {containers: [{name: a, image: "docker.io/Bad"}]}}`)
	_, err = c.Query("images")
	require.EqualError(t, err, "invalid image 'docker.io/Bad' (bad image: docker.io/Bad, defaultRegistry: docker.io, enableDefaultRegistryMutation: true: repository name must be lowercase)")

	c = podContext(t, `{kind: Pod, spec: {containers: "x"}}`)
	_, err = c.Query("images")
	require.EqualError(t, err, "invalid image config")
}

func TestEvaluateList(t *testing.T) {
	c := podContext(t, busyboxPod)
	cases := map[string]struct {
		want []any
		err  string
	}{
		"request.object.spec.containers[].name":                    {want: []any{"busybox", "helper"}},
		"request.object.metadata.name":                             {want: []any{"busybox"}},
		"request.object.spec.initContainers[]":                     {want: []any{nil}},
		"request.object.spec.initContainers":                       {err: `JMESPath query failed: Unknown key "initContainers" in path`},
		"items(request.object.metadata.labels, 'k', 'v')":          {want: []any{map[string]any{"k": "corp.com/retention", "v": "days_37"}, map[string]any{"k": "deploy-zone", "v": "frankfurt"}}},
		"request.object.spec.containers[0].ports[0].containerPort": {want: []any{int64(80)}},
	}
	for expr, tc := range cases {
		t.Run(expr, func(t *testing.T) {
			got, err := EvaluateList(c, expr)
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestSearch(t *testing.T) {
	v, err := Search("a[?b > `1`].c", map[string]any{"a": []any{map[string]any{"b": 2.0, "c": "x"}}})
	require.NoError(t, err)
	assert.Equal(t, []any{"x"}, v)
	_, err = Search("a.[", nil)
	require.EqualError(t, err, "SyntaxError: Incomplete expression")
}
