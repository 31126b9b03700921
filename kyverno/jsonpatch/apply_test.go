// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package jsonpatch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

const commentedPod = `# A web pod.
apiVersion: v1
kind: Pod
metadata:
  name: web # the name
  labels:
    app: web # selector label
    old: x # to be removed
spec:
  # the containers
  containers:
  - name: app # main
    image: nginx:1.25 # pinned
    env:
    - name: A # first
      value: "1"
  tolerations: [] # none yet
`

func TestApplyKeepsComments(t *testing.T) {
	patch := `- op: add
  path: /metadata/annotations/team
  value: platform
- op: remove
  path: /metadata/labels/old
- op: remove
  path: /metadata/labels/missing
- op: replace
  path: /spec/containers/0/image
  value: nginx:1.27
- op: add
  path: /spec/containers/0/env/-
  value: {name: B, value: "on"}
- op: add
  path: /spec/containers/0/resources/limits/memory
  value: 128Mi
- op: add
  path: /spec/tolerations/-1
  value: {key: k, operator: Exists}
- op: add
  path: /spec/enabled
  value: yes
`
	want := `# A web pod.
apiVersion: v1
kind: Pod
metadata:
  name: web # the name
  labels:
    app: web # selector label
  annotations:
    team: platform
spec:
  # the containers
  containers:
  - name: app # main
    image: nginx:1.27 # pinned
    env:
    - name: A # first
      value: "1"
    - name: B
      value: "on"
    resources:
      limits:
        memory: 128Mi
  tolerations: [{key: k, operator: Exists}] # none yet
  enabled: true
`
	rn := yaml.MustParse(commentedPod)
	require.NoError(t, Apply(rn, patch))
	assert.Equal(t, want, rn.MustString())
}

func TestApplyValues(t *testing.T) {
	tests := map[string]struct{ patch, want string }{
		// YAML goes through a Go map: keys come out sorted, and YAML 1.1
		// reads the keys on and n as booleans too
		"YAML 1.1 scalars as sigs.k8s.io/yaml reads them": {
			"- {op: add, path: /a, value: {on: yes, n: 0123, o: 0o17, f: 1.50, s: '0123', t: 2024-01-02, nul: ~}}",
			"a:\n  f: 1.5\n  \"false\": 83\n  nul: null\n  o: 15\n  s: \"0123\"\n  t: \"2024-01-02\"\n  \"true\": true\n",
		},
		"JSON form keeps number text and key order": {
			`[{"op":"add","path":"/a","value":{"z":1e3,"y":[1,-0.5,"x y",""],"x":{}}}]`,
			"a:\n  z: 1e3\n  \"y\":\n  - 1\n  - -0.5\n  - x y\n  - \"\"\n  x: {}\n",
		},
		"duplicate keys: the last wins": {
			`[{"op":"add","path":"/a","value":{"k":1,"j":2,"k":3}}]`,
			"a:\n  k: 3\n  j: 2\n",
		},
		"strings that need quotes": {
			`[{"op":"add","path":"/a","value":["yes","1.0","null","a: b","multi\nline"]}]`,
			"a:\n- \"yes\"\n- \"1.0\"\n- \"null\"\n- \"a: b\"\n- |-\n  multi\n  line\n",
		},
		"add null": {
			`[{"op":"add","path":"/a/b","value":null}]`,
			"a:\n  b: null\n",
		},
		"test without value tests for null": {
			`[{"op":"test","path":"/missing"},{"op":"add","path":"/a","value":1}]`,
			"a: 1\n",
		},
		"leading space means YAML": {
			` [{"op":"add","path":"/a","value":yes}]`,
			"a: true\n",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			rn := yaml.MustParse("{}\n")
			rn.YNode().Style = 0
			require.NoError(t, Apply(rn, tc.patch))
			assert.Equal(t, tc.want, rn.MustString())
		})
	}
}

func TestApplyErrors(t *testing.T) {
	tests := map[string]struct{ patch, err string }{
		"not YAML": {
			"- op: [", "failed to convert patchesJSON6902 to JSON: yaml: line 1: did not find expected node content",
		},
		"not a list": {
			"op: add", "failed to decode patches: json: cannot unmarshal object into Go value of type jsonpatch.Patch",
		},
		"bad JSON": {
			"[{", "failed to decode patches: invalid state detected",
		},
		"empty": {
			"", "failed to decode patches: invalid state detected",
		},
		"unknown op": {
			"- {op: merge, path: /a}", `failed to decode patches: invalid operation {"op":"merge","path":"/a"}: unsupported operation`,
		},
		"missing op": {
			"- {path: /a}", `failed to decode patches: invalid operation {"path":"/a"}: unsupported operation`,
		},
		"missing value": {
			"- {op: replace, path: /a}", `failed to decode patches: invalid operation {"op":"replace","path":"/a"}: failed to decode 'value': operation, missing value field: missing value`,
		},
		"missing from": {
			"- {op: copy, path: /a}", `failed to decode patches: invalid operation {"op":"copy","path":"/a"}: failed to decode 'from': operation, missing from field: missing value`,
		},
		"missing path": {
			"- {op: remove}", `failed to decode patches: invalid operation {"op":"remove"}: failed to decode 'path': operation missing path field: missing value`,
		},
		"path not a string": {
			"- {op: remove, path: 1}", `failed to decode patches: invalid operation {"op":"remove","path":1}: failed to decode 'path': json: cannot unmarshal number into Go value of type string`,
		},
		"replace missing": {
			"- {op: replace, path: /spec/priorityClassName, value: high}", "replace operation does not apply: doc is missing key: /spec/priorityClassName: missing value",
		},
		"replace missing parent": {
			"- {op: replace, path: /spec/x/y, value: high}", "replace operation does not apply: doc is missing path: /spec/x/y: missing value",
		},
		"index past the end": {
			"- {op: add, path: /spec/containers/5, value: {}}", "error in add for path: '/spec/containers/5': Unable to access invalid index: 5: invalid index referenced",
		},
		"negative index below -1 in a new list": {
			"- {op: add, path: /spec/volumes/-2, value: {}}", "Unable to ensure path for negative index other than -1: -2: invalid index referenced",
		},
		"parent is a string": {
			"- {op: add, path: /metadata/name/x, value: 1}", "invalid state detected",
		},
		"test fails after a change": {
			"- {op: add, path: /metadata/labels/x, value: y}\n- {op: test, path: /metadata/name, value: api}", "testing value /metadata/name failed: test failed",
		},
		"move into missing parent": {
			"- {op: move, from: /metadata/labels, path: /x/y}", "move operation does not apply: doc is missing destination path: /x/y: missing value",
		},
		"remove with a bad index": {
			"- {op: remove, path: /spec/containers/x}", `error in remove for path: '/spec/containers/x': strconv.Atoi: parsing "x": invalid syntax`,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			rn := yaml.MustParse(commentedPod)
			require.EqualError(t, Apply(rn, tc.patch), tc.err)
			assert.Equal(t, commentedPod, rn.MustString(), "the resource must be unchanged")
		})
	}
}

func TestApplyNilResource(t *testing.T) {
	assert.Error(t, Apply(nil, "[]"))
}
