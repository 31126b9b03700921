// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package test

import "strings"

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

// kyvernoV2beta1 is policy text, written in kyverno.io/v1, moved to
// kyverno.io/v2beta1.
func kyvernoV2beta1(policy string) string {
	return strings.Replace(policy, "apiVersion: kyverno.io/v1\n", "apiVersion: kyverno.io/v2beta1\n", 1)
}

// yMutate is a rule's mutate block that adds a label.
const yMutate = "mutate:\n  patchStrategicMerge: {metadata: {labels: {a: b}}}\n"

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
	// kyverno.io/v2beta1: what its CRD schema (Kyverno v1.19.1,
	// cmd/cli/kubectl-kyverno/data/crds) drops from v1's.
	"v2beta1 inline match resources": {policies: "apiVersion: kyverno.io/v2beta1\nkind: ClusterPolicy\nmetadata: {name: x}\nspec:\n  rules:\n  - name: r\n    match: {resources: {kinds: [Deployment]}}\n" + indent(yMutate, 4),
		want: []string{yCP, yRule + ".match.resources: Forbidden: unknown field"}},
	"v2beta1 exclude roles": {policies: kyvernoV2beta1(kyvernoCP("exclude: {roles: [admin]}\n" + yMutate)),
		want: []string{yCP, yRule + ".exclude.roles: Forbidden: unknown field"}},
	"v2beta1 preconditions a list": {policies: kyvernoV2beta1(kyvernoCP("preconditions:\n- {key: a, operator: Equals, value: a}\n" + yMutate)),
		want: []string{yCP, yRule + `.preconditions: Invalid value: "array": must be of type object`}},
	"v2beta1 preconditions unknown block": {policies: kyvernoV2beta1(kyvernoCP("preconditions:\n  none: [{key: a, operator: Equals, value: a}]\n" + yMutate)),
		want: []string{yCP, yRule + ".preconditions.none: Forbidden: unknown field"}},
	"v2beta1 preconditions operator In": {policies: kyvernoV2beta1(kyvernoCP("preconditions:\n  all: [{key: a, operator: In, value: [a]}]\n" + yMutate)),
		want: []string{yCP, yRule + `.preconditions.all[0].operator: Unsupported value: "In": supported values: "Equals", "NotEquals", "AnyIn"`}},
	"v2beta1 validate allowExistingViolations": {policies: kyvernoV2beta1(kyvernoCP("validate:\n  allowExistingViolations: true\n  pattern: {metadata: {labels: {team: \"?*\"}}}\n")),
		want: []string{yCP, yRule + ".validate.allowExistingViolations: Forbidden: unknown field"}},
	"v2beta1 deny conditions a list": {policies: kyvernoV2beta1(kyvernoCP("validate:\n  deny:\n    conditions: [{key: a, operator: Equals, value: a}]\n")),
		want: []string{yCP, yRule + `.validate.deny.conditions: Invalid value: "array": must be of type object`}},
	"v2beta1 verifyImages image": {policies: kyvernoV2beta1(kyvernoCP("verifyImages:\n- image: ghcr.io/example/*\n  imageReferences: [ghcr.io/example/*]\n")),
		want: []string{yCP, yRule + ".verifyImages[0].image: Forbidden: unknown field"}},
	"ClusterPolicy version v2": {policies: strings.Replace(kyvernoCP(yMutate), "kyverno.io/v1", "kyverno.io/v2", 1),
		want: []string{yCP, "kyverno.io/v2 ClusterPolicy is not supported: supported versions are kyverno.io/v1 and kyverno.io/v2beta1"}},
}
