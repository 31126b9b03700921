// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"strings"
	"testing"

	"github.com/apply-overrides/apply-overrides/internal/overridertest"
	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
)

func TestPlaintext(t *testing.T) {
	op := func(o, path, value string) yamlpatch.Operation {
		if value == "" {
			return yamlpatch.Operation{Op: o, Path: path}
		}
		return yamlpatch.Operation{Op: o, Path: path, Value: overridertest.Node(t, value)}
	}
	patch := func(ops ...yamlpatch.Operation) Plaintext { return Plaintext{Patch: ops} }
	containers := `containers:
- name: nginx # main
  image: nginx:1.25 # main image
  args: [--a] # args
- name: sidecar # sidecar
  image: envoy:v1.30 # sidecar image
`
	runCases(t, map[string]filterCase{
		"replace keeps the comment": {
			input:    deployment(containers),
			filter:   patch(op("replace", "/spec/replicas", "5")),
			expected: replaceOnce(deployment(containers), "replicas: 1 #", "replicas: 5 #"),
		},
		"add a new map": {
			input:    deployment(containers),
			filter:   patch(op("add", "/spec/template/spec/nodeSelector", "{disktype: ssd}")),
			expected: deployment(containers + "nodeSelector: {disktype: ssd}\n"),
		},
		"add without a value sets null": {
			input:    deployment(containers),
			filter:   patch(op("add", "/spec/template/spec/nodeSelector", "")),
			expected: deployment(containers + "nodeSelector: null\n"),
		},
		"remove a field": {
			input:    deployment(containers + "nodeSelector: # selector\n  disktype: ssd # ssd\n"),
			filter:   patch(op("remove", "/spec/template/spec/nodeSelector", "")),
			expected: deployment(containers),
		},
		"append with - and address the last element with -1": {
			input: deployment(containers),
			filter: patch(
				op("add", "/spec/template/spec/containers/0/args/-", "--b"),
				op("replace", "/spec/template/spec/containers/-1/image", "envoy:v1.31"),
			),
			expected: deployment(`containers:
- name: nginx # main
  image: nginx:1.25 # main image
  args: [--a, --b] # args
- name: sidecar # sidecar
  image: envoy:v1.31 # sidecar image
`),
		},
		"ops apply in order": {
			input: withMeta(""),
			filter: patch(
				op("add", "/metadata/annotations", "{}"),
				op("add", "/metadata/annotations/team", "a"),
				op("replace", "/spec/replicas", "4"),
				op("replace", "/spec/replicas", "5"),
			),
			expected: replaceOnce(replaceOnce(withMeta(""), "name: web # name comment\n", "name: web # name comment\n  annotations: {team: a}\n"), "replicas: 1", "replicas: 5"),
		},
		"a path without a leading slash drops its first segment": {
			input:    "# head\nkind: Deployment # kind\nspec:\n  replicas: 3 # three\n# foot\n",
			filter:   patch(op("add", "spec/paused", "true")),
			expected: "# head\nkind: Deployment # kind\nspec:\n  replicas: 3 # three\n# foot\n\npaused: true\n",
		},
		"an empty patch is a no-op": {
			input:    deployment(containers),
			filter:   Plaintext{},
			expected: deployment(containers),
		},
	})
}

func TestPlaintextErrors(t *testing.T) {
	op := func(o, path, value string) yamlpatch.Operation {
		if value == "" {
			return yamlpatch.Operation{Op: o, Path: path}
		}
		return yamlpatch.Operation{Op: o, Path: path, Value: overridertest.Node(t, value)}
	}
	patch := func(ops ...yamlpatch.Operation) Plaintext { return Plaintext{Patch: ops} }
	input := deployment("containers:\n- name: nginx # main\n  image: nginx:1.25 # image\n")
	runCases(t, map[string]filterCase{
		"add under a missing parent": {
			input:       input,
			filter:      patch(op("add", "/metadata/labels/team", "a")),
			expectedErr: `add operation does not apply: doc is missing path: "/metadata/labels/team": missing value`,
		},
		"replace a path without a leading slash": {
			input:       input,
			filter:      patch(op("replace", "spec/replicas", "2")),
			expectedErr: "replace operation does not apply: doc is missing key: spec/replicas: missing value",
		},
		"remove a missing key": {
			input:       input,
			filter:      patch(op("remove", "/spec/template/spec/nodeSelector", "")),
			expectedErr: "error in remove for path: '/spec/template/spec/nodeSelector': unable to remove nonexistent key: nodeSelector: missing value",
		},
		"an index past the end": {
			input:       input,
			filter:      patch(op("add", "/spec/template/spec/containers/5", "{name: x}")),
			expectedErr: "error in add for path: '/spec/template/spec/containers/5': Unable to access invalid index: 5: invalid index referenced",
		},
		"an unsupported op is rejected before anything is applied": {
			input: input,
			filter: patch(
				op("replace", "/spec/replicas", "9"),
				op("merge", "/spec/replicas", "{b: 2, a: 1}"),
			),
			expectedErr: `invalid operation {"op":"merge","path":"/spec/replicas","value":{"a":1,"b":2}}: unsupported operation`,
		},
		"move without from": {
			input:       input,
			filter:      patch(op("move", "/spec/replicas", "")),
			expectedErr: `invalid operation {"op":"move","path":"/spec/replicas","value":null}: failed to decode 'from': operation, missing from field: missing value`,
		},
		"a failing op undoes the earlier ones": {
			input: input,
			filter: patch(
				op("replace", "/spec/replicas", "9"),
				op("remove", "/spec/absent", ""),
			),
			expectedErr: "unable to remove nonexistent key: absent: missing value",
		},
	})
}

// replaceOnce replaces the first old in s with new; it returns a marker
// that cannot match any rendering when old is absent.
func replaceOnce(s, old, new string) string {
	if !strings.Contains(s, old) {
		return "replaceOnce: missing " + old
	}
	return strings.Replace(s, old, new, 1)
}
