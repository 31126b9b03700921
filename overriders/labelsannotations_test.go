// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import "testing"

const fooBar = `labels: # the labels
  # foo head
  foo: foo # foo line
  bar: bar # bar line
`

func labels(op string, kvs ...string) LabelAnnotation {
	return LabelAnnotation{Field: "labels", Operator: op, Value: pairs(kvs...)}
}

func pairs(kvs ...string) []KeyValue {
	var out []KeyValue
	for i := 0; i+1 < len(kvs); i += 2 {
		out = append(out, KeyValue{Key: kvs[i], Value: kvs[i+1]})
	}
	return out
}

func TestLabelAnnotation(t *testing.T) {
	runCases(t, map[string]filterCase{
		"add appends new keys in policy order": {
			input:    withMeta(fooBar),
			filter:   labels("add", "zeta", "z", "alpha", "a"),
			expected: withMeta(fooBar + "  zeta: z\n  alpha: a\n"),
		},
		"add overwrites an existing key in place": {
			input:  withMeta(fooBar),
			filter: labels("add", "foo", "new"),
			expected: withMeta(`labels: # the labels
  # foo head
  foo: new # foo line
  bar: bar # bar line
`),
		},
		"add with the same value keeps the bytes": {
			input:    withMeta("labels:\n  foo: \"foo\" # quoted\n"),
			filter:   labels("add", "foo", "foo"),
			expected: withMeta("labels:\n  foo: \"foo\" # quoted\n"),
		},
		"values stay strings": {
			input:    withMeta(fooBar),
			filter:   labels("add", "bool", "true", "port", "8080", "empty", "", "yes", "yes", "float", "1.10", "null", "null"),
			expected: withMeta(fooBar + "  bool: \"true\"\n  port: \"8080\"\n  empty: \"\"\n  \"yes\": \"yes\"\n  float: \"1.10\"\n  \"null\": \"null\"\n"),
		},
		"add creates missing labels": {
			input:    withMeta("annotations: {a: b} # annotations\n"),
			filter:   labels("add", "test2", "test2"),
			expected: withMeta("annotations: {a: b} # annotations\nlabels:\n  test2: test2\n"),
		},
		"add creates missing metadata": {
			input:    "# head\napiVersion: v1 # line\nkind: ConfigMap\ndata:\n  a: b # a\n# foot\n",
			filter:   labels("add", "team", "web"),
			expected: "# head\napiVersion: v1 # line\nkind: ConfigMap\ndata:\n  a: b # a\n# foot\n\nmetadata:\n  labels:\n    team: web\n",
		},
		"add replaces null labels and keeps the comment": {
			input:    withMeta("labels: null # none yet\n"),
			filter:   labels("add", "team", "web"),
			expected: withMeta("labels: # none yet\n  team: web\n"),
		},
		"add wipes labels that are not a map of strings": {
			input:    withMeta("labels: # invalid\n  replicas: 3 # an int\n  keep: me\n"),
			filter:   labels("add", "team", "web"),
			expected: withMeta("labels: # invalid\n  team: web\n"),
		},
		"add does nothing when metadata is null": {
			input:    "# head\nkind: Deployment # d\nmetadata: null # m\n# foot\n",
			filter:   labels("add", "team", "web"),
			expected: "# head\nkind: Deployment # d\nmetadata: null # m\n# foot\n",
		},
		"add of nothing creates nothing": {
			input:    withMeta("annotations: {a: b} # annotations\n"),
			filter:   labels("add"),
			expected: withMeta("annotations: {a: b} # annotations\n"),
		},
		"replace changes existing keys only": {
			input:  withMeta(fooBar),
			filter: labels("replace", "bar", "new", "absent", "x"),
			expected: withMeta(`labels: # the labels
  # foo head
  foo: foo # foo line
  bar: new # bar line
`),
		},
		"replace on missing labels is a no-op": {
			input:    withMeta("annotations: {a: b} # annotations\n"),
			filter:   labels("replace", "a", "c"),
			expected: withMeta("annotations: {a: b} # annotations\n"),
		},
		"remove ignores the value and missing keys": {
			input:  withMeta(fooBar),
			filter: labels("remove", "foo", "some-other-value", "non-exist", "x"),
			expected: withMeta(`labels: # the labels
  bar: bar # bar line
`),
		},
		"removing the last key leaves an empty map": {
			input:    withMeta("labels: # the labels\n  foo: foo # foo line\n"),
			filter:   labels("remove", "foo", ""),
			expected: withMeta("labels: {} # the labels\n"),
		},
		"remove and replace skip a map that is not all strings": {
			input:    withMeta("labels: # invalid\n  replicas: 3 # an int\n  foo: foo\n"),
			filter:   labels("remove", "foo", ""),
			expected: withMeta("labels: # invalid\n  replicas: 3 # an int\n  foo: foo\n"),
		},
		"annotations with a slash in the key": {
			input: withMeta(`annotations: # notes
  testannotation/projectId: old # with a slash
  foo: foo # foo
`),
			filter: LabelAnnotation{Field: "annotations", Operator: "add", Value: pairs("testannotation/projectId", "c-m-lfx9lk92:p-v86cf", "new.io/key", "v")},
			expected: withMeta(`annotations: # notes
  testannotation/projectId: c-m-lfx9lk92:p-v86cf # with a slash
  foo: foo # foo
  new.io/key: v
`),
		},
		"remove a key with a slash": {
			input:    withMeta("annotations: # notes\n  testannotation/projectId: x # slash\n  foo: foo # foo\n"),
			filter:   LabelAnnotation{Field: "annotations", Operator: "remove", Value: pairs("testannotation/projectId", "")},
			expected: withMeta("annotations: # notes\n  foo: foo # foo\n"),
		},
		"a test operator that passes changes nothing": {
			input:    withMeta(fooBar),
			filter:   labels("test", "foo", "foo"),
			expected: withMeta(fooBar),
		},
		"pod template labels are never touched": {
			input:    withMeta(""),
			filter:   labels("replace", "app", "other"),
			expected: withMeta(""),
		},
		"sequential overriders see each other's results": {
			input: withMeta(fooBar),
			filter: chain{
				labels("add", "tier", "web"),
				labels("replace", "tier", "backend"),
				labels("remove", "bar", ""),
			},
			expected: withMeta(`labels: # the labels
  # foo head
  foo: foo # foo line
  tier: backend
`),
		},
	})
}

func TestLabelAnnotationErrors(t *testing.T) {
	runCases(t, map[string]filterCase{
		"an unknown operator reaches the patch engine": {
			input:       withMeta(fooBar),
			filter:      labels("merge", "foo", "x"),
			expectedErr: `invalid operation {"op":"merge","path":"/metadata/labels/foo","value":"x"}: unsupported operation`,
		},
		"a test operator that fails": {
			input:       withMeta(fooBar),
			filter:      labels("test", "foo", "other"),
			expectedErr: "/metadata/labels: testing value /metadata/labels/foo failed",
		},
		"a key with ~ is not escaped (the webhook rejects it)": {
			input:       withMeta("labels:\n  a~1b: x # tilde\n"),
			filter:      labels("replace", "a~1b", "y"),
			expectedErr: "replace operation does not apply: doc is missing key: /metadata/labels/a~1b: missing value",
		},
	})
}
