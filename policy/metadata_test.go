// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package policy

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func TestValidateMetadata(t *testing.T) {
	testCases := map[string]struct {
		meta       string
		namespaced bool
		want       []string // substrings, one per error, in order
	}{
		"valid":                    {meta: "{name: web, namespace: default, labels: {a: b}, annotations: {x/y: z}}", namespaced: true},
		"no name, no namespace":    {meta: "{labels: {a: b}}", namespaced: true}, // the dialect reports them
		"placeholder name":         {meta: "{name: RESOURCE_NAME-override, namespace: default}", namespaced: true, want: []string{`metadata.name: Invalid value: "RESOURCE_NAME-override": a lowercase RFC 1123 subdomain`}},
		"namespace with dots":      {meta: "{name: x, namespace: a.b}", namespaced: true, want: []string{`metadata.namespace: Invalid value: "a.b"`}},
		"cluster-scoped namespace": {meta: "{name: x, namespace: Not_Valid}"},
		"labels a string":          {meta: "{name: x, labels: a=b}", want: []string{`metadata.labels: Invalid value: "string": must be of type object`}},
		"label value a number":     {meta: "{name: x, labels: {a: 1}}", want: []string{`metadata.labels[a]: Invalid value: "integer": must be of type string`}},
		"bad label key":            {meta: "{name: x, labels: {-a: b}}", want: []string{`metadata.labels: Invalid value: "-a"`}},
		"bad annotation key":       {meta: "{name: x, annotations: {a b: c}}", want: []string{`metadata.annotations: Invalid value: "a b"`}},
		"unknown field":            {meta: "{name: x, label: {a: b}}", want: []string{"metadata.label: Forbidden: unknown field"}},
		"server fields":            {meta: "{name: x, uid: 1, resourceVersion: '2', creationTimestamp: null, generation: 3}"},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			obj := yaml.MustParse("apiVersion: v1\nkind: X\nmetadata: " + tc.meta + "\n")
			errs := ValidateMetadata(obj, tc.namespaced)
			if assert.Len(t, errs, len(tc.want), "%v", errs) {
				for i, w := range tc.want {
					assert.Contains(t, errs[i].Error(), w)
				}
			}
		})
	}
}

func TestValueErrors(t *testing.T) {
	assert.Empty(t, PointerEscapeError("/metadata/annotations/a~1b~0c"))
	assert.Contains(t, PointerEscapeError("/a/~2"), `"~" must be followed by "0" or "1"`)
	assert.NotEmpty(t, PointerEscapeError("/a~"))
	for _, ok := range [][2]string{{"Registry", "registry.cn-hangzhou.aliyuncs.com/xxxx"}, {"Registry", ".test"}, {"Registry", "[::1]:5000"},
		{"Repository", "/nginx"}, {"Repository", "temp/echo-server"}, {"Tag", "@sha256:abc"}, {"Tag", "Not_Checked!"}, {"Registry", ""}} {
		assert.Empty(t, ImageValueError(ok[0], ok[1]), "%s %q", ok[0], ok[1])
	}
	for _, bad := range [][2]string{{"Registry", "my registry"}, {"Registry", "r.io@x"}, {"Repository", "MyApp"}, {"Repository", "a:b"}, {"Tag", "1.0 beta"}, {"Digest", "sha256:a\n"}} {
		assert.NotEmpty(t, ImageValueError(bad[0], bad[1]), "%s %q", bad[0], bad[1])
	}
}
