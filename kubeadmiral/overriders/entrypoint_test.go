// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import "testing"

func TestEntrypoints(t *testing.T) {
	const spec = `initContainers:
- name: init
  image: busybox
  command: [sh, -c]
containers:
- name: app # the app
  image: nginx
  command: # start
  - /bin/app
  - --v=2
  args: [a, b, a]
- name: init
  image: nginx
  command: [never]
- name: bare
  image: nginx
`
	cmd := func(ovs ...Entrypoint) entrypoints {
		return entrypoints{Field: "command", Overriders: ovs}
	}
	args := func(ovs ...Entrypoint) entrypoints {
		return entrypoints{Field: "args", Overriders: ovs}
	}
	ov := func(name, op string, value ...string) Entrypoint {
		return Entrypoint{ContainerName: name, Operator: op, Value: value}
	}
	runPatchCases(t, map[string]patchCase{
		"append to an existing list": {
			input:    deploymentYAML(spec),
			patcher:  cmd(ov("app", "append", "--v=4")),
			expected: []string{`replace /spec/template/spec/containers/0/command ["/bin/app","--v=2","--v=4"]`},
		},
		"append when absent": {
			input:    workloadYAML("apps/v1", "StatefulSet", spec),
			patcher:  cmd(ov("bare", "append", "/bin/bash", "sleep 15")),
			expected: []string{`replace /spec/template/spec/containers/2/command ["/bin/bash","sleep 15"]`},
		},
		"append does not dedupe": {
			input:    podYAML(spec),
			patcher:  args(ov("app", "append", "a")),
			expected: []string{`replace /spec/containers/0/args ["a","b","a","a"]`},
		},
		"append needs a value": {
			input:       podYAML(spec),
			patcher:     args(ov("app", "append")),
			expectedErr: "failed to parse args overriders: failed to apply args override: append operation needs non-empty list",
		},
		"operator omitted is an error": {
			input:       podYAML(spec),
			patcher:     cmd(ov("app", "", "x")),
			expectedErr: "failed to parse command overriders: failed to apply command override: unsupported operator:",
		},
		"unknown operator": {
			input:       podYAML(spec),
			patcher:     cmd(ov("app", "add", "x")),
			expectedErr: "failed to apply command override: unsupported operator:add",
		},
		"overwrite": {
			input:    workloadYAML("apps/v1", "DaemonSet", spec),
			patcher:  args(ov("app", "overwrite", "-c", "-d")),
			expected: []string{`replace /spec/template/spec/containers/0/args ["-c","-d"]`},
		},
		"overwrite with an empty list": {
			input:    podYAML(spec),
			patcher:  cmd(Entrypoint{ContainerName: "app", Operator: "overwrite", Value: []string{}}),
			expected: []string{`replace /spec/containers/0/command []`},
		},
		"overwrite without value writes null": {
			input:    podYAML(spec),
			patcher:  cmd(Entrypoint{ContainerName: "app", Operator: "overwrite"}),
			expected: []string{`replace /spec/containers/0/command null`},
		},
		"delete every occurrence": {
			input:    workloadYAML("batch/v1", "Job", spec),
			patcher:  args(ov("app", "delete", "a", "zzz")),
			expected: []string{`replace /spec/template/spec/containers/0/args ["b"]`},
		},
		"delete everything writes null": {
			input:    podYAML(spec),
			patcher:  cmd(ov("app", "delete", "--v=2", "/bin/app")),
			expected: []string{`replace /spec/containers/0/command null`},
		},
		"delete from an absent list writes null": {
			input:    podYAML(spec),
			patcher:  args(ov("bare", "delete", "x")),
			expected: []string{`replace /spec/containers/2/args null`},
		},
		"first container of the name only, init containers first": {
			input:    podYAML(spec),
			patcher:  cmd(ov("init", "append", "echo")),
			expected: []string{`replace /spec/initContainers/0/command ["sh","-c","echo"]`},
		},
		"no matching container skips the overrider": {
			input:    podYAML(spec),
			patcher:  cmd(ov("nope", "", "x")),
			expected: nil,
		},
		"unknown kind fails even if no container would match": {
			input:       "apiVersion: apps/v1\nkind: ReplicaSet\nspec: {}\n",
			patcher:     cmd(ov("nope", "append", "x")),
			expectedErr: "failed to parse command overriders: failed to get podSpec from sourceObj: unknown type to get pod spec: apps/v1, Kind=ReplicaSet",
		},
		"empty list resolves nothing": {
			input:    "apiVersion: apps/v1\nkind: ReplicaSet\n",
			patcher:  cmd(),
			expected: nil,
		},
		"chained, several containers, sorted by path": {
			input: cronJobYAML(spec),
			patcher: cmd(
				ov("app", "append", "/bin/bash", "sleep 15"),
				ov("init", "append", "/bin/bash"),
				ov("app", "delete", "sleep 15"),
				ov("bare", "overwrite", "x"),
			),
			expected: []string{
				`replace /spec/jobTemplate/spec/template/spec/containers/0/command ["/bin/app","--v=2","/bin/bash"]`,
				`replace /spec/jobTemplate/spec/template/spec/containers/2/command ["x"]`,
				`replace /spec/jobTemplate/spec/template/spec/initContainers/0/command ["sh","-c","/bin/bash"]`,
			},
		},
		"a chained null list grows again": {
			input:    podYAML(spec),
			patcher:  args(ov("app", "delete", "a", "b"), ov("app", "append", "c")),
			expected: []string{`replace /spec/containers/0/args ["c"]`},
		},
		"strings YAML would misread are quoted": {
			input:    podYAML(spec),
			patcher:  args(ov("bare", "overwrite", "on", "1.10", "null", "", "a: b")),
			expected: []string{`replace /spec/containers/2/args ["on","1.10","null","","a: b"]`},
		},
		"a list of non-strings is a decode error": {
			input:       podYAML("containers:\n- name: a\n  command: [1]\n"),
			patcher:     cmd(ov("a", "append", "x")),
			expectedErr: "failed to parse command overriders: failed to get podSpec from sourceObj: cannot convert int64 to string",
		},
		"wrong field": {
			input:       podYAML(spec),
			patcher:     entrypoints{Field: "env"},
			expectedErr: `entrypoint field must be command or args, not "env"`,
		},
	})
}
