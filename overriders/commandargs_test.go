// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"testing"

	"github.com/apply-overrides/apply-overrides/internal/overridertest"
)

// nginx renders one commented container named nginx with extra fields.
func nginx(extra string) string {
	return `containers:
# the nginx container
- name: nginx # container name
  image: nginx:1.25 # image
` + overridertest.Indent(extra, 2)
}

const threeArgs = `command: # the command
# run nginx
- nginx # binary
- -v # verbose
- -t # test
`

func TestCommandArgs(t *testing.T) {
	runCases(t, map[string]filterCase{
		"add appends and keeps item comments": {
			input:  deployment(nginx(threeArgs)),
			filter: CommandArgs{Field: "command", ContainerName: "nginx", Operator: "add", Value: []string{"&& echo 'hello karmada'", "-t"}},
			expected: deployment(nginx(`command: # the command
# run nginx
- nginx # binary
- -v # verbose
- -t # test
- '&& echo ''hello karmada'''
- -t
`)),
		},
		"add creates an absent field": {
			input:    deployment(nginx(threeArgs)),
			filter:   CommandArgs{Field: "args", ContainerName: "nginx", Operator: "add", Value: []string{"-t", "8080", "true"}},
			expected: deployment(nginx(threeArgs + "args:\n- -t\n- \"8080\"\n- \"true\"\n")),
		},
		"add of nothing creates an empty list": {
			input:    deployment(nginx(threeArgs)),
			filter:   CommandArgs{Field: "args", ContainerName: "nginx", Operator: "add"},
			expected: deployment(nginx(threeArgs + "args: []\n")),
		},
		"remove on an absent field creates an empty list": {
			input:    pod(nginx("args: [nginx] # args\n")),
			filter:   CommandArgs{Field: "command", ContainerName: "nginx", Operator: "remove", Value: []string{"-t"}},
			expected: pod(nginx("args: [nginx] # args\ncommand: []\n")),
		},
		"a null field is treated as absent": {
			input:    pod(nginx("command: null # was null\n")),
			filter:   CommandArgs{Field: "command", ContainerName: "nginx", Operator: "add", Value: []string{"sh"}},
			expected: pod(nginx("command: # was null\n- sh\n")),
		},
		"remove drops every occurrence and keeps the order": {
			input: deployment(nginx(`command: # the command
- nginx # binary
- -t # first -t
- -v # verbose
- -t # second -t
- -q # quiet
`)),
			filter: CommandArgs{Field: "command", ContainerName: "nginx", Operator: "remove", Value: []string{"-t", "-q", "absent"}},
			expected: deployment(nginx(`command: # the command
- nginx # binary
- -v # verbose
`)),
		},
		"remove of nothing leaves the list unchanged": {
			input:    deployment(nginx(threeArgs)),
			filter:   CommandArgs{Field: "command", ContainerName: "nginx", Operator: "remove", Value: []string{}},
			expected: deployment(nginx(threeArgs)),
		},
		"remove of everything leaves an empty list": {
			input:    pod(nginx("args: [a, b] # args\n")),
			filter:   CommandArgs{Field: "args", ContainerName: "nginx", Operator: "remove", Value: []string{"a", "b"}},
			expected: pod(nginx("args: [] # args\n")),
		},
		"an unsupported operator keeps the list": {
			input:    deployment(nginx(threeArgs)),
			filter:   CommandArgs{Field: "command", ContainerName: "nginx", Operator: "replace", Value: []string{"x"}},
			expected: deployment(nginx(threeArgs)),
		},
		"an unsupported operator on an absent field creates an empty list": {
			input:    deployment(nginx(threeArgs)),
			filter:   CommandArgs{Field: "args", ContainerName: "nginx", Operator: "replace", Value: []string{"x"}},
			expected: deployment(nginx(threeArgs + "args: []\n")),
		},
		"a flow list stays a flow list": {
			input:    pod(nginx("args: [--a, --b] # flow\n")),
			filter:   CommandArgs{Field: "args", ContainerName: "nginx", Operator: "add", Value: []string{"--c"}},
			expected: pod(nginx("args: [--a, --b, --c] # flow\n")),
		},
		"an empty flow list grows into a block list": {
			input:    pod(nginx("args: [] # empty\n")),
			filter:   CommandArgs{Field: "args", ContainerName: "nginx", Operator: "add", Value: []string{"--c"}},
			expected: pod(nginx("args: # empty\n- --c\n")),
		},
		"non-string items are stringified with %s": {
			input:    pod(nginx("args: # ports\n- 8080 # an int\n- --x\n")),
			filter:   CommandArgs{Field: "args", ContainerName: "nginx", Operator: "add", Value: []string{"--y"}},
			expected: pod(nginx("args: # ports\n- '%!s(int64=8080)' # an int\n- --x\n- --y\n")),
		},
		"only the named container": {
			input: deployment(`containers:
- name: nginx # first
  command: [nginx] # one
- name: nginx1 # second
  command: [nginx] # two
`),
			filter: CommandArgs{Field: "command", ContainerName: "nginx", Operator: "add", Value: []string{"-t"}},
			expected: deployment(`containers:
- name: nginx # first
  command: [nginx, -t] # one
- name: nginx1 # second
  command: [nginx] # two
`),
		},
		"every container with the name": {
			input: pod(`containers:
- name: dup # first
- name: dup # second
  args: [a] # a
`),
			filter: CommandArgs{Field: "args", ContainerName: "dup", Operator: "add", Value: []string{"b"}},
			expected: pod(`containers:
- name: dup # first
  args:
  - b
- name: dup # second
  args: [a, b] # a
`),
		},
		"init containers are never searched": {
			input:    deployment("initContainers:\n- name: nginx # init\n  command: [sh] # init command\n" + "containers:\n- name: other # other\n"),
			filter:   CommandArgs{Field: "command", ContainerName: "nginx", Operator: "add", Value: []string{"-c"}},
			expected: deployment("initContainers:\n- name: nginx # init\n  command: [sh] # init command\ncontainers:\n- name: other # other\n"),
		},
		"no matching container is a no-op": {
			input:    deployment(nginx(threeArgs)),
			filter:   CommandArgs{Field: "command", ContainerName: "absent", Operator: "add", Value: []string{"-c"}},
			expected: deployment(nginx(threeArgs)),
		},
		"cron jobs are not supported": {
			input:    cronJob(nginx(threeArgs)),
			filter:   CommandArgs{Field: "command", ContainerName: "nginx", Operator: "add", Value: []string{"-c"}},
			expected: cronJob(nginx(threeArgs)),
		},
		"job": {
			input:    workload("Job", nginx("args: [a] # a\n")),
			filter:   CommandArgs{Field: "args", ContainerName: "nginx", Operator: "remove", Value: []string{"a"}},
			expected: workload("Job", nginx("args: [] # a\n")),
		},
		"stateful set": {
			input:    workload("StatefulSet", nginx("args: [a] # a\n")),
			filter:   CommandArgs{Field: "args", ContainerName: "nginx", Operator: "add", Value: []string{"b"}},
			expected: workload("StatefulSet", nginx("args: [a, b] # a\n")),
		},
		"replica set": {
			input:    workload("ReplicaSet", nginx("args: [a] # a\n")),
			filter:   CommandArgs{Field: "args", ContainerName: "nginx", Operator: "add", Value: []string{"b"}},
			expected: workload("ReplicaSet", nginx("args: [a, b] # a\n")),
		},
		"daemon set": {
			input:    workload("DaemonSet", nginx("args: [a] # a\n")),
			filter:   CommandArgs{Field: "args", ContainerName: "nginx", Operator: "add", Value: []string{"b"}},
			expected: workload("DaemonSet", nginx("args: [a, b] # a\n")),
		},
		"empty containers is a no-op": {
			input:    deployment("containers: [] # none\n"),
			filter:   CommandArgs{Field: "args", ContainerName: "nginx", Operator: "add", Value: []string{"b"}},
			expected: deployment("containers: [] # none\n"),
		},
		"a null pod template is a no-op": {
			input:    "# head\nkind: Deployment # d\nspec:\n  template: null # nothing\n# foot\n",
			filter:   CommandArgs{Field: "args", ContainerName: "nginx", Operator: "add", Value: []string{"b"}},
			expected: "# head\nkind: Deployment # d\nspec:\n  template: null # nothing\n# foot\n",
		},
	})
}

func TestCommandArgsErrors(t *testing.T) {
	add := CommandArgs{Field: "command", ContainerName: "nginx", Operator: "add", Value: []string{"-c"}}
	runCases(t, map[string]filterCase{
		"containers is not a list": {
			input:       deployment("containers: {name: nginx} # a map\n"),
			filter:      add,
			expectedErr: "failed to retrieves path(spec/template/spec/containers) from rawObj, error: .spec.template.spec.containers accessor error: map[name:nginx] is of the type map[string]interface {}, expected []interface{}",
		},
		"containers is null": {
			input:       pod("containers: null # null\n"),
			filter:      add,
			expectedErr: "failed to retrieves path(spec/containers) from rawObj, error: .spec.containers accessor error: <nil> is of the type <nil>, expected []interface{}",
		},
		"the pod template is a scalar": {
			input:       "kind: Deployment # d\nspec:\n  template: x # a string\n",
			filter:      add,
			expectedErr: "failed to retrieves path(spec/template/spec/containers) from rawObj, error: .spec.template.spec accessor error: x is of the type string, expected map[string]interface{}",
		},
		"a container is not an object (upstream panics)": {
			input:       pod(nginx(threeArgs) + "- sidecar # a string\n"),
			filter:      add,
			expectedErr: "/spec/containers/1: sidecar is of the type string, expected map[string]interface{}",
		},
		"the field is not a list (upstream panics)": {
			input:       pod(nginx("command: nginx -t # a string\n")),
			filter:      add,
			expectedErr: "/spec/containers/0/command: nginx -t is of the type string, expected []interface{}",
		},
	})
}
