// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package vars

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckOffline(t *testing.T) {
	const user = "needs admission user info, which an offline render does not have"
	cases := map[string]struct {
		rule string
		err  string
	}{
		"user info": {rule: `{mutate: {patchStrategicMerge: {metadata: {annotations: {created-by: "{{ request.userInfo.username }}"}}}}}`,
			err: `variable "request.userInfo" ` + user + ` (in "request.userInfo.username" at /mutate/patchStrategicMerge/metadata/annotations/created-by)`},
		"roles in a function": {rule: `{mutate: {patchStrategicMerge: {a: "{{ join(',', request.roles) }}"}}}`,
			err: `variable "request.roles" ` + user + ` (in "join(',', request.roles)" at /mutate/patchStrategicMerge/a)`},
		"cluster roles nested": {rule: `{mutate: {patchStrategicMerge: {a: "{{ to_upper('{{ request.clusterRoles[0] }}') }}"}}}`,
			err: `variable "request.clusterRoles" ` + user + ` (in "request.clusterRoles[0]" at /mutate/patchStrategicMerge/a)`},
		"service account": {rule: `{preconditions: {all: [{key: "{{serviceAccountName}}", operator: Equals, value: x}]}}`,
			err: `variable "serviceAccountName" ` + user + ` (in "serviceAccountName" at /preconditions/all/0/key)`},
		"service account namespace in a key": {rule: `{mutate: {patchStrategicMerge: {"{{ serviceAccountNamespace }}": x}}}`,
			err: `variable "serviceAccountNamespace" ` + user + ` (in "serviceAccountNamespace" at /mutate/patchStrategicMerge)`},
		"old object": {rule: `{mutate: {patchStrategicMerge: {a: "{{ request.oldObject.metadata.name }}"}}}`,
			err: `variable "request.oldObject" needs the previous version of the resource, which exists only for UPDATE and DELETE requests; an offline render is a CREATE (in "request.oldObject.metadata.name" at /mutate/patchStrategicMerge/a)`},
		"admission field": {rule: `{mutate: {patchStrategicMerge: {a: "{{ request.uid }}"}}}`,
			err: `variable "request.uid" is a field of the admission request, which an offline render does not have (it sets only request.object, request.namespace and request.operation) (in "request.uid" at /mutate/patchStrategicMerge/a)`},
		"quoted identifiers": {rule: `{mutate: {patchStrategicMerge: {a: '{{ "request"."kind" }}'}}}`,
			err: `variable "request.kind" is a field of the admission request, which an offline render does not have (it sets only request.object, request.namespace and request.operation) (in "\"request\".\"kind\"" at /mutate/patchStrategicMerge/a)`},
		"context jmesPath without braces": {rule: `{context: [{name: u, variable: {jmesPath: "request.userInfo.groups"}}]}`,
			err: `variable "request.userInfo" ` + user + ` (in "request.userInfo.groups" at /context/0/variable/jmesPath)`},
		"nested foreach list": {rule: `{mutate: {foreach: [{list: "request.object.spec.containers", foreach: [{list: "request.name"}]}]}}`,
			err: `variable "request.name" is a field of the admission request, which an offline render does not have (it sets only request.object, request.namespace and request.operation) (in "request.name" at /mutate/foreach/0/foreach/0/list)`},
		"pipe from the root": {rule: `{mutate: {patchStrategicMerge: {a: "{{ request | userInfo }}"}}}`,
			err: `variable "request.userInfo" ` + user + ` (in "request | userInfo" at /mutate/patchStrategicMerge/a)`},
		"allowed": {rule: `
context: [{name: c, variable: {jmesPath: "request.object.metadata.labels"}}]
preconditions: {all: [{key: "{{ request.operation }}", operator: Equals, value: CREATE}]}
mutate:
  foreach:
    - list: "request.object.spec.containers[?name != 'request.userInfo']"
      patchStrategicMerge:
        a: "{{ request.namespace }} {{ element.request.userInfo }} {{ images.containers.x.tag }} {{@}} {{ c.roles }}"
        b: "{{ request.object.spec.containers[?name == request.namespace] | [0].request.roles }}"
        c: '\{{ request.userInfo }} request.userInfo'
        d: "{{ sort_by(request.object.spec.containers, &request.name) }}"
        e: "{{ request }}"
`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := CheckOffline(fromYAML(t, tc.rule))
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
		})
	}
}

func TestNonDeterministic(t *testing.T) {
	rule := fromYAML(t, `
context: [{name: t, variable: {jmesPath: "time_now_utc()"}}]
mutate:
  patchStrategicMerge:
    metadata:
      annotations:
        a: "{{ time_add('{{ time_now() }}', '1h') }}"
        b: "{{ time_since('', '2024-01-01T00:00:00Z', '') }} {{ time_since('', '2024-01-01T00:00:00Z', '') }}"
        c: "{{ to_upper('x') }}"
`)
	assert.Equal(t, []string{
		"time_now_utc() at /context/0/variable/jmesPath",
		"time_now() at /mutate/patchStrategicMerge/metadata/annotations/a",
		"time_since() at /mutate/patchStrategicMerge/metadata/annotations/b",
	}, NonDeterministic(rule))
	assert.Equal(t, []string{"random() at /a"}, NonDeterministic(fromYAML(t, `{a: "{{ random('[a-z]') }}x"}`)))
}
