// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package test

// kyvernoCP is ClusterPolicy x with one rule r on Deployments; rule holds
// the rule's other fields.
func kyvernoCP(rule string) string {
	return `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: x
spec:
  rules:
  - name: r
    match:
      any:
      - resources: {kinds: [Deployment]}
` + indent(rule, 4)
}

const (
	yCP   = "ClusterPolicy x: "
	yRule = "spec.rules[0]"
)

var kyvernoBadPolicies = map[string]badPolicy{
	// Upstream fails such a rule when it applies it, with kyaml's text only.
	"patchStrategicMerge a string": {policies: kyvernoCP(`mutate: {patchStrategicMerge: "metadata: {labels: {a: b}}"}`),
		want: []string{"ClusterPolicy x spec.rules[0]: apps/v1 Deployment default/web", "patchStrategicMerge is a string, not a mapping"}, file: "resources.yaml"},
	"mutate a string": {policies: kyvernoCP(`mutate: "add a label"`),
		want: []string{yCP, yRule + `.mutate: Invalid value: "string": must be of type object`}},
	"patchesJson6902 a list": {policies: kyvernoCP(`mutate: {patchesJson6902: [{op: add, path: /x, value: 1}]}`),
		want: []string{yCP, yRule + `.mutate.patchesJson6902: Invalid value: "array": must be of type string`}},
	"patchesJson6902 not YAML": {policies: kyvernoCP("mutate:\n  patchesJson6902: |-\n    - op: add\n      path: [/metadata/labels/a\n"),
		want: []string{yCP, yRule + `.mutate.patchesJson6902`}},
	"patchesJson6902 not a list of operations": {policies: kyvernoCP("mutate:\n  patchesJson6902: |-\n    op: add\n    path: /metadata/labels/a\n"),
		want: []string{yCP, yRule + `.mutate.patchesJson6902`}},
	"foreach a map": {policies: kyvernoCP(`mutate: {foreach: {list: request.object.spec.template.spec.containers}}`),
		want: []string{yCP, yRule + `.mutate.foreach: Invalid value: "object": must be of type array`}},
	"foreach list a number": {policies: kyvernoCP(`mutate: {foreach: [{list: 3, patchStrategicMerge: {}}]}`),
		want: []string{yCP, yRule + `.mutate.foreach[0].list: Invalid value: "integer": must be of type string`}},
	// A foreach over a value that is not a list runs once on that value, as
	// upstream's EvaluateList does; over a missing field it fails.
	"foreach over a missing field": {policies: kyvernoCP("mutate:\n  foreach:\n  - list: request.object.spec.volumes\n    patchStrategicMerge: {metadata: {labels: {a: b}}}\n"), file: "resources.yaml",
		want: []string{"ClusterPolicy x spec.rules[0]", "apps/v1 Deployment default/web", "request.object.spec.volumes"}},
	"invalid JMESPath": {policies: kyvernoCP("mutate:\n  patchStrategicMerge:\n    metadata:\n      labels:\n        a: \"{{ request.object.metadata.name | }}\"\n"),
		want: []string{yCP, "spec.rules", `rule r`, "invalid JMESPath query request.object.metadata.name |"}},
	"self-referencing variable": {policies: kyvernoCP("context:\n- name: a\n  variable: {value: \"{{ a }}\"}\nmutate:\n  patchStrategicMerge: {metadata: {labels: {a: \"{{ a }}\"}}}\n"), file: "resources.yaml",
		want: []string{"ClusterPolicy x spec.rules[0]", "apps/v1 Deployment default/web", `rule "r"`, "context entry a {{ a }}"}},
	"label value not a string": {policies: kyvernoCP("mutate:\n  patchStrategicMerge: {metadata: {labels: {replicas: 3}}}\n"),
		want: []string{yCP, yRule}},
	"preconditions operator a list": {policies: kyvernoCP("preconditions:\n  all: [{key: a, operator: [Equals], value: a}]\nmutate:\n  patchStrategicMerge: {metadata: {labels: {a: b}}}\n"),
		want: []string{yCP, yRule + ".preconditions"}},
	"foreach patchesJson6902 a list": {policies: kyvernoCP("mutate:\n  foreach:\n  - list: request.object.spec.template.spec.containers\n    patchesJson6902: [{op: add}]\n"),
		want: []string{yCP, yRule + `.mutate.foreach[0].patchesJson6902: Invalid value: "array": must be of type string`}},
	"foreach order not an enum": {policies: kyvernoCP("mutate:\n  foreach:\n  - list: request.object.spec.template.spec.containers\n    order: Up\n    patchStrategicMerge: {metadata: {labels: {a: b}}}\n"),
		want: []string{yCP, yRule + `.mutate.foreach[0].order: Unsupported value: "Up": supported values: "Ascending", "Descending"`}},
	"foreach patchesJson6902 not a list of operations": {policies: kyvernoCP("mutate:\n  foreach:\n  - list: request.object.spec.template.spec.containers\n    patchesJson6902: \"op: add\"\n"), file: "resources.yaml",
		want: []string{"ClusterPolicy x spec.rules[0]", "apps/v1 Deployment default/web", `rule "r"`, "the patch is a YAML or JSON object, not a list of operations"}},
	"context a map": {policies: kyvernoCP("context: {name: a, variable: {value: b}}\nmutate:\n  patchStrategicMerge: {metadata: {labels: {a: b}}}\n"),
		want: []string{yCP, yRule + `.context: Invalid value: "object": must be of type array`}},
	"rules a map": {policies: "apiVersion: kyverno.io/v1\nkind: ClusterPolicy\nmetadata: {name: x}\nspec:\n  rules: {name: r}\n",
		want: []string{yCP, `spec.rules: Invalid value: "object": must be of type array`}},
	"match kinds a string": {policies: "apiVersion: kyverno.io/v1\nkind: ClusterPolicy\nmetadata: {name: x}\nspec:\n  rules:\n  - name: r\n    match: {any: [{resources: {kinds: Deployment}}]}\n    mutate: {patchStrategicMerge: {metadata: {labels: {a: b}}}}\n",
		want: []string{yCP, `spec.rules[0].match.any[0].resources.kinds: ` + kArray}},
}
