// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"testing"

	"github.com/apply-overrides/apply-overrides/internal/overridertest"
)

func TestStringMaps(t *testing.T) {
	const obj = `apiVersion: v1
kind: ConfigMap
metadata:
  name: cm
  labels:
    owner: team-a # who
    app: web
  annotations:
    note: hi
data:
  a: b
`
	kv := func(pairs ...string) []KeyValue {
		var out []KeyValue
		for i := 0; i+1 < len(pairs); i += 2 {
			out = append(out, KeyValue{Key: pairs[i], Value: pairs[i+1]})
		}
		return out
	}
	labels := func(ovs ...StringMap) stringMaps {
		return stringMaps{Field: "labels", Overriders: ovs}
	}
	annotations := func(ovs ...StringMap) stringMaps {
		return stringMaps{Field: "annotations", Overriders: ovs}
	}
	ov := func(op string, pairs ...string) StringMap {
		return StringMap{Operator: op, Value: kv(pairs...)}
	}
	runPatchCases(t, map[string]patchCase{
		"addIfAbsent adds after the existing keys, any kind": {
			input:    obj,
			patcher:  labels(ov("addIfAbsent", "tier", "fe", "8080", "on")),
			expected: []string{`replace /metadata/labels {"owner":"team-a","app":"web","tier":"fe","8080":"on"}`},
		},
		"addIfAbsent on an existing key is an error, first conflict in policy order": {
			input:       obj,
			patcher:     labels(ov("addIfAbsent", "new", "x", "app", "web", "owner", "b")),
			expectedErr: "failed to parse labels overriders: failed to apply labels overrider: addIfAbsent is not allowed to operate on exist key:app",
		},
		"addIfAbsent needs a value": {
			input:       obj,
			patcher:     annotations(ov("addIfAbsent")),
			expectedErr: "failed to parse annotations overriders: failed to apply annotations overrider: addIfAbsent operation needs value",
		},
		"overwrite updates existing keys only": {
			input:    obj,
			patcher:  labels(ov("overwrite", "app", "api", "missing", "x")),
			expected: []string{`replace /metadata/labels {"owner":"team-a","app":"api"}`},
		},
		"operator omitted does not add": {
			input:    obj,
			patcher:  annotations(ov("", "note", "bye", "other", "x")),
			expected: []string{`replace /metadata/annotations {"note":"bye"}`},
		},
		"delete ignores values and absent keys": {
			input:    obj,
			patcher:  annotations(ov("delete", "note", "something else", "absent", "")),
			expected: []string{`replace /metadata/annotations {}`},
		},
		"unknown operator does nothing, the map is still written": {
			input:    obj,
			patcher:  labels(ov("merge", "app", "x", "new", "y")),
			expected: []string{`replace /metadata/labels {"owner":"team-a","app":"web"}`},
		},
		"empty map when the object has none": {
			input:    "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n",
			patcher:  annotations(ov("overwrite", "a", "b")),
			expected: []string{`replace /metadata/annotations {}`},
		},
		"overriders chain: delete then addIfAbsent of the same key": {
			input:    obj,
			patcher:  labels(ov("delete", "app", ""), ov("addIfAbsent", "app", "web-v2"), ov("overwrite", "owner", "team-b")),
			expected: []string{`replace /metadata/labels {"owner":"team-b","app":"web-v2"}`},
		},
		"a map with a non-string value reads as empty": {
			input:    "kind: Pod\nmetadata:\n  labels:\n    version: 1\n    app: web\n",
			patcher:  labels(ov("addIfAbsent", "version", "2")),
			expected: []string{`replace /metadata/labels {"version":"2"}`},
		},
		"repeated keys: the last value wins": {
			input:    obj,
			patcher:  labels(ov("addIfAbsent", "x", "1", "y", "2", "x", "3")),
			expected: []string{`replace /metadata/labels {"owner":"team-a","app":"web","x":"3","y":"2"}`},
		},
		"no metadata at all": {
			input:    "kind: Pod\n",
			patcher:  labels(ov("addIfAbsent", "a", "b")),
			expected: []string{`replace /metadata/labels {"a":"b"}`},
		},
		"empty list": {
			input:    obj,
			patcher:  labels(),
			expected: nil,
		},
		"wrong field": {
			input:       obj,
			patcher:     stringMaps{Field: "finalizers"},
			expectedErr: `string map field must be labels or annotations, not "finalizers"`,
		},
	})
}

func TestJSONPatches(t *testing.T) {
	runPatchCases(t, map[string]patchCase{
		"verbatim, operator omitted means replace, value omitted is null": {
			input: "kind: Pod\n",
			patcher: JSONPatches{
				{Operator: "add", Path: "/metadata/labels/json1", Value: overridertest.Node(t, "all")},
				{Path: "/spec/replicas", Value: overridertest.Node(t, "10")},
				{Operator: "remove", Path: "/metadata/finalizers/0"},
				{Operator: "merge", Path: "no-slash", Value: overridertest.Node(t, "{a: [1, true, null]}")},
				{Operator: "test", Path: "", Value: overridertest.Node(t, "null")},
			},
			expected: []string{
				`add /metadata/labels/json1 "all"`,
				`replace /spec/replicas 10`,
				`remove /metadata/finalizers/0 null`,
				`merge no-slash {"a":[1,true,null]}`,
				`test  null`,
			},
		},
		"empty": {
			input:    "kind: Pod\n",
			patcher:  JSONPatches{},
			expected: nil,
		},
	})
}
