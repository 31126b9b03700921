// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import "testing"

func TestEnvs(t *testing.T) {
	const spec = `containers:
- name: app
  image: nginx
  env:
  - name: a
    value: a # first a
  - name: b
    value: b
  - name: a
    value: a2
  - name: c
    value: c
- name: bare
  image: nginx
- name: empty
  image: nginx
  env: []
- name: typed
  image: nginx
  env:
  - name: blank
    value: ""
  - name: cpu
    extra: dropped
    valueFrom:
      resourceFieldRef:
        resource: limits.cpu
  - name: mem
    valueFrom:
      resourceFieldRef: {resource: limits.memory, divisor: 1024Ki}
  - name: key
    valueFrom:
      secretKeyRef: {name: s, key: k, optional: true}
`
	env := func(name, op, value string) Env {
		return Env{ContainerName: name, Operator: op, Value: envNodes(t, value)}
	}
	runPatchCases(t, map[string]patchCase{
		"addIfAbsent appends": {
			input:    podYAML(spec),
			patcher:  Envs{env("app", "addIfAbsent", "[{name: d, value: d}, {name: e, value: e}]")},
			expected: []string{`replace /spec/containers/0/env [{"name":"a","value":"a"},{"name":"b","value":"b"},{"name":"a","value":"a2"},{"name":"c","value":"c"},{"name":"d","value":"d"},{"name":"e","value":"e"}]`},
		},
		"addIfAbsent to a container without env": {
			input:    deploymentYAML(spec),
			patcher:  Envs{env("bare", "addIfAbsent", "[{name: x, value: '1'}]")},
			expected: []string{`replace /spec/template/spec/containers/1/env [{"name":"x","value":"1"}]`},
		},
		"addIfAbsent on an existing name": {
			input:       podYAML(spec),
			patcher:     Envs{env("app", "addIfAbsent", "[{name: z, value: z}, {name: b, value: x}]")},
			expectedErr: "failed to parse env overriders: failed to apply env override: addIfAbsent is not allowed to operate on exist key:b",
		},
		"addIfAbsent of a name added by the same list": {
			input:       podYAML(spec),
			patcher:     Envs{env("app", "addIfAbsent", "[{name: z, value: z}, {name: z, value: y}]")},
			expectedErr: "addIfAbsent is not allowed to operate on exist key:z",
		},
		"addIfAbsent needs a value": {
			input:       podYAML(spec),
			patcher:     Envs{{ContainerName: "app", Operator: "addIfAbsent"}},
			expectedErr: "failed to apply env override: addIfAbsent operation needs value",
		},
		"overwrite replaces every entry of the name, never adds": {
			input:    podYAML(spec),
			patcher:  Envs{env("app", "overwrite", "[{name: a, valueFrom: {fieldRef: {fieldPath: metadata.name}}}, {name: new, value: x}]")},
			expected: []string{`replace /spec/containers/0/env [{"name":"a","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}},{"name":"b","value":"b"},{"name":"a","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}},{"name":"c","value":"c"}]`},
		},
		"operator omitted means overwrite": {
			input:    podYAML(spec),
			patcher:  Envs{env("app", "", "[{name: c, value: C}]")},
			expected: []string{`replace /spec/containers/0/env [{"name":"a","value":"a"},{"name":"b","value":"b"},{"name":"a","value":"a2"},{"name":"c","value":"C"}]`},
		},
		"overwrite on a container without env writes null": {
			input:    podYAML(spec),
			patcher:  Envs{env("bare", "overwrite", "[{name: c, value: C}]")},
			expected: []string{`replace /spec/containers/1/env null`},
		},
		"overwrite on an empty env writes []": {
			input:    podYAML(spec),
			patcher:  Envs{env("empty", "overwrite", "[{name: c, value: C}]")},
			expected: []string{`replace /spec/containers/2/env []`},
		},
		"delete every entry of the name, value ignored": {
			input:    podYAML(spec),
			patcher:  Envs{env("app", "delete", "[{name: a, value: nope}, {name: zzz}]")},
			expected: []string{`replace /spec/containers/0/env [{"name":"b","value":"b"},{"name":"c","value":"c"}]`},
		},
		"deleting everything writes null": {
			input:    podYAML(spec),
			patcher:  Envs{env("app", "delete", "[{name: a}, {name: b}, {name: c}]")},
			expected: []string{`replace /spec/containers/0/env null`},
		},
		"multiple operations chain": {
			input: podYAML(spec),
			patcher: Envs{
				env("app", "addIfAbsent", "[{name: d, value: d}, {name: e, value: e}]"),
				env("app", "overwrite", "[{name: b, value: c}, {name: c, value: e}, {name: a, value: f}]"),
				env("app", "delete", "[{name: a, value: c}, {name: e, value: e}]"),
			},
			expected: []string{`replace /spec/containers/0/env [{"name":"b","value":"c"},{"name":"c","value":"e"},{"name":"d","value":"d"}]`},
		},
		"re-serialised as corev1.EnvVar": {
			input:   podYAML(spec),
			patcher: Envs{env("typed", "addIfAbsent", "[{name: n, value: '', bogus: 1}, {name: cm, valueFrom: {configMapKeyRef: {key: k}}}, {name: f, valueFrom: {fileKeyRef: {path: p}}}]")},
			expected: []string{`replace /spec/containers/3/env [` +
				`{"name":"blank"},` +
				`{"name":"cpu","valueFrom":{"resourceFieldRef":{"resource":"limits.cpu","divisor":"0"}}},` +
				`{"name":"mem","valueFrom":{"resourceFieldRef":{"resource":"limits.memory","divisor":"1Mi"}}},` +
				`{"name":"key","valueFrom":{"secretKeyRef":{"name":"s","key":"k","optional":true}}},` +
				`{"name":"n"},` +
				`{"name":"cm","valueFrom":{"configMapKeyRef":{"key":"k"}}},` +
				`{"name":"f","valueFrom":{}}]`},
		},
		"no matching container": {
			input:    podYAML(spec),
			patcher:  Envs{env("nope", "bogus", "[]")},
			expected: nil,
		},
		"unsupported operator": {
			input:       podYAML(spec),
			patcher:     Envs{env("app", "append", "[{name: a}]")},
			expectedErr: "failed to parse env overriders: failed to apply env override: unsupported operator:append",
		},
		"unsupported operator with an empty value is no error": {
			input:    podYAML(spec),
			patcher:  Envs{{ContainerName: "bare", Operator: "append"}},
			expected: []string{`replace /spec/containers/1/env null`},
		},
		"unknown kind": {
			input:       "apiVersion: v1\nkind: Service\n",
			patcher:     Envs{env("app", "", "[]")},
			expectedErr: "failed to parse env overriders: failed to get podSpec from sourceObj: unknown type to get pod spec: /v1, Kind=Service",
		},
		"env of the wrong type": {
			input:       podYAML("containers:\n- name: a\n  env: {a: b}\n"),
			patcher:     Envs{env("a", "", "[]")},
			expectedErr: "failed to get podSpec from sourceObj: cannot restore slice from map",
		},
		"an invalid divisor": {
			input:       podYAML("containers:\n- name: a\n  env:\n  - name: x\n    valueFrom: {resourceFieldRef: {resource: cpu, divisor: lots}}\n"),
			patcher:     Envs{env("a", "", "[]")},
			expectedErr: "quantities must match the regular expression",
		},
		"a divisor exponent that wraps as upstream's int32 does": {
			input:    podYAML("containers:\n- name: a\n  env:\n  - name: x\n    valueFrom: {resourceFieldRef: {resource: cpu, divisor: 1e4294967297}}\n"),
			patcher:  Envs{env("a", "", "[]")},
			expected: []string{`replace /spec/containers/0/env [{"name":"x","valueFrom":{"resourceFieldRef":{"resource":"cpu","divisor":"10"}}}]`},
		},
		"a divisor exponent that would take minutes to parse": {
			input:       podYAML("containers:\n- name: a\n  env:\n  - name: x\n    valueFrom: {resourceFieldRef: {resource: cpu, divisor: '1e4044444440'}}\n"),
			patcher:     Envs{env("a", "", "[]")},
			expectedErr: `quantity "1e4044444440": a decimal exponent beyond ±100000 is not supported`,
		},
		"a policy value of the wrong type": {
			input:       podYAML(spec),
			patcher:     Envs{env("app", "addIfAbsent", "[{name: x, value: 1}]")},
			expectedErr: `failed to parse env overriders: value[0] of the env overrider for container "app": cannot convert int64 to string`,
		},
		"a null policy value is an empty EnvVar": {
			input:    podYAML(spec),
			patcher:  Envs{env("bare", "addIfAbsent", "[null]")},
			expected: []string{`replace /spec/containers/1/env [{"name":""}]`},
		},
	})
}
