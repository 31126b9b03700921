// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package smp

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// TestApplyKeepsComments checks the printed YAML: comments, key order and
// styles of what the patch leaves alone survive, replaced scalars keep
// their comments, and the in-place merge agrees with upstream's.
func TestApplyKeepsComments(t *testing.T) {
	tests := map[string]struct {
		input, patch, want string
		changed            bool
	}{
		"replaced scalar keeps its line comment": {
			input:   "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2 # keep\n",
			patch:   `{"spec":{"replicas":3}}`,
			want:    "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3 # keep\n",
			changed: true,
		},
		"deployment: moved, new and merged containers": {
			input: `# Deployment of the web tier
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # the name
  labels:
    app: web
spec:
  replicas: 2 # keep
  template:
    spec:
      containers:
      # main container
      - name: app
        image: "nginx:1.25" # pinned
        args: ["--port", "8080"] # flags
        env:
        - name: A # first
          value: "1"
      # sidecar
      - name: sidecar
        image: envoy:1 # proxy
      tolerations:
      - key: a # tol a
        operator: Exists
      - key: b
        operator: Exists
`,
			patch: `{"metadata":{"labels":{"team":"x"}},"spec":{"replicas":3,"template":{"spec":{
				"containers":[{"name":"sidecar","image":"envoy:2"},{"name":"new","image":"busybox"},
				  {"name":"app","env":[{"name":"A","value":2},{"name":"B","value":"yes"}]}],
				"tolerations":[{"key":"a","operator":"Exists"},{"key":"c","operator":"Exists"}]}}}}`,
			want: `# Deployment of the web tier
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # the name
  labels:
    app: web
    team: x
spec:
  replicas: 3 # keep
  template:
    spec:
      containers:
      # sidecar
      - name: sidecar
        image: envoy:2 # proxy
      - image: busybox
        name: new
      # main container
      - name: app
        image: "nginx:1.25" # pinned
        args: ["--port", "8080"] # flags
        env:
        - name: A # first
          value: "2"
        - name: B
          value: "yes"
      tolerations:
      - key: a # tol a
        operator: Exists
      - key: c
        operator: Exists
`,
			changed: true,
		},
		"string patched with a bool stays a string, as upstream": {
			input:   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  flag: 'no' # quoted\n  n: 1\n",
			patch:   `{"data":{"flag":true,"n":"2"}}`,
			want:    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  flag: 'true' # quoted\n  n: \"2\"\n",
			changed: true,
		},
		"nulls the patch does not mention stay, however written": {
			input:   "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n  a: 1 # c\n  b:\n  c: ~ # null\n",
			patch:   `{"data":{"a":"x"}}`,
			want:    "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n  a: x # c\n  b:\n  c: ~ # null\n",
			changed: true,
		},
		"null deletes a field and its comment": {
			input:   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: \"1\" # gone\n  b: \"2\" # stays\n",
			patch:   `{"data":{"a":null}}`,
			want:    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  b: \"2\" # stays\n",
			changed: true,
		},
		"atomic list replaced: unchanged items keep comments": {
			input:   "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: a\n    args: # the args\n    - one # first\n    - two # second\n",
			patch:   `{"spec":{"containers":[{"name":"a","args":["one","three"]}]}}`,
			want:    "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: a\n    args: # the args\n    - one # first\n    - three # second\n",
			changed: true,
		},
		"emptied map with a key comment prints valid YAML": {
			input:   "apiVersion: v1\nkind: Pod\nmetadata:\n  labels: # the labels\n    a: b\n  name: p\n",
			patch:   `{"metadata":{"labels":{"a":null}}}`,
			want:    "apiVersion: v1\nkind: Pod\nmetadata:\n  labels: {} # the labels\n  name: p\n",
			changed: true,
		},
		"kyaml schema comments do not change the merge": {
			input:   "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  tolerations: # {\"$openapi\":\"io.k8s.api.core.v1.Container\"}\n  - key: a\n    operator: Exists\n",
			patch:   `{"spec":{"tolerations":[{"key":"b","operator":"Exists"}]}}`,
			want:    "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  tolerations: # {\"$openapi\":\"io.k8s.api.core.v1.Container\"}\n  - key: b\n    operator: Exists\n",
			changed: true,
		},
		"aliases are expanded like the JSON view": {
			input:   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  labels: &l\n    a: b\ndata:\n  z: *l\n",
			patch:   `{"metadata":{"labels":{"a":"c"}}}`,
			want:    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  labels:\n    a: c\ndata:\n  z:\n    a: b\n",
			changed: true,
		},
		"no change leaves the text alone": {
			input:   "apiVersion: v1\nkind: ConfigMap\nmetadata:   {name: x}   # odd\ndata:\n  a:    '1'\n",
			patch:   `{"data":{"a":"1"}}`,
			want:    "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x} # odd\ndata:\n  a: '1'\n",
			changed: false,
		},
		"failed condition: no change": {
			input:   "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p # n\n",
			patch:   `{"metadata":{"(name)":"q","labels":{"x":"y"}}}`,
			want:    "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p # n\n",
			changed: false,
		},
	}
	start := fallbacks.Load()
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			node, err := yaml.Parse(tc.input)
			require.NoError(t, err)
			var patch any
			require.NoError(t, json.Unmarshal([]byte(tc.patch), &patch))
			changed, err := Apply(node, patch)
			require.NoError(t, err)
			assert.Equal(t, tc.changed, changed)
			assert.Equal(t, tc.want, node.MustString())
		})
	}
	assert.Equal(t, start, fallbacks.Load(), "no case may need the reconcile fallback")
}

// TestApplyErrorLeavesResource checks that a failing patch changes nothing.
func TestApplyErrorLeavesResource(t *testing.T) {
	const input = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p # n\nspec:\n  hostname: h\n"
	for name, patch := range map[string]string{
		"merge error":      `{"metadata":{"labels":{"a":"b"}},"spec":{"hostname":{"a":1}}}`,
		"preprocess error": `{"spec":{"hostname":[{"a":"b"}]}}`,
		"upstream crash":   `{"spec":{"containers":[{"(name)":"a","image":"x"},{"(name)":"b","image":"y"}]}}`,
		"root deleted":     `{"$patch":"delete"}`,
	} {
		t.Run(name, func(t *testing.T) {
			node, err := yaml.Parse(input)
			require.NoError(t, err)
			var p any
			require.NoError(t, json.Unmarshal([]byte(patch), &p))
			changed, err := Apply(node, p)
			require.Error(t, err)
			assert.False(t, changed)
			assert.Equal(t, input, node.MustString())
		})
	}
}

// TestApplyErrorTexts pins upstream's error texts.
func TestApplyErrorTexts(t *testing.T) {
	node, err := yaml.Parse("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  hostname: h\n")
	require.NoError(t, err)
	_, err = Apply(node, map[string]any{"spec": map[string]any{"hostname": []any{map[string]any{"a": "b"}}}})
	require.Error(t, err)
	assert.Equal(t, "failed to preProcess rule: wrong node kind: expected SequenceNode but got ScalarNode: node contents:\n\"h\"\n", err.Error())
	_, err = Apply(node, map[string]any{"spec": map[string]any{"$patch": "foo"}})
	require.Error(t, err)
	assert.Equal(t, "unknown patch strategy 'foo'", err.Error())
	_, err = Apply(node, nil)
	require.Error(t, err)
	assert.Equal(t, "filter cannot create or delete objects", err.Error())
}
