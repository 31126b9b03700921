// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/overridertest"
)

// oddDocuments put every shape where the builders expect another one,
// plus alias cycles and an alias bomb.
var oddDocuments = append([]string{
	"apiVersion: v1\nkind: Pod\nspec:\n  containers: [null, {name: a, image: [x]}, {name: a, env: [1, null, {name: 2}]}]\n",
	"apiVersion: v1\nkind: Pod\nspec:\n  initContainers: {a: b}\n  containers:\n  - name: a\n    image: nginx\n    command: &c [a, *c]\n",
	"apiVersion: v1\nkind: Pod\nspec: &s\n  containers:\n  - name: a\n    args: *s\n",
	"apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n      - &c {name: a, image: 'nginx:1', env: [{name: x, valueFrom: {resourceFieldRef: {resource: cpu, divisor: '1.5'}}}]}\n      - *c\n",
	"apiVersion: batch/v1\nkind: CronJob\nspec:\n  jobTemplate: {spec: {template: {spec: {containers: [{name: a, image: 'A'}]}}}}\n",
	"apiVersion: v1\nkind: Pod\nmetadata:\n  labels: &l {a: b, c: *l}\n  annotations: {a: 1}\nspec: {}\n",
	"apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: a\n    image: \"a\\\"b\"\n",
	"apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: a\n    image: nginx\n    env:\n    - name: a\n      valueFrom:\n        resourceFieldRef: {resource: cpu, divisor: 1e400}\n",
	"apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - {name: a, image: .nan}\n",
	aliasBomb,
}, overridertest.OddDocuments...)

// aliasBomb expands to 10^9 nodes.
const aliasBomb = `apiVersion: v1
kind: Pod
a: &a [x, x, x, x, x, x, x, x, x, x]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]
f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]
g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]
h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g, *g]
spec: &s [*h, *h, *h, *h, *h, *h, *h, *h, *h, *h]
`

// FuzzPatches checks that no builder panics or changes its input,
// whatever the document, the path, the operator and the value.
func FuzzPatches(f *testing.F) {
	for _, d := range oddDocuments {
		for _, p := range []string{"", "/", "/spec/containers/0/image", "spec/x", "/a/-1/b", "//", "/spec/containers/x/image", "/a/0/0"} {
			f.Add(d, p, "overwrite", "v")
		}
	}
	f.Add("apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: a\n    image: nginx\n", "/spec/containers/0/image", "addIfAbsent", `x"y`)
	f.Fuzz(func(t *testing.T, doc, path, op, value string) {
		rn, err := yaml.Parse(doc)
		if err != nil {
			return
		}
		before, err := rn.String()
		if err != nil {
			return
		}
		env, err := yaml.Parse("[{name: a, value: v}, {name: b, valueFrom: {fieldRef: {fieldPath: x}}}, 1, null]")
		if err != nil {
			t.Fatal(err)
		}
		ops := imageOps(imageOp("Registry", op, value), imageOp("Tag", "", value), imageOp("Digest", op, value), imageOp(value, op, value))
		rule := Rule{
			Image: Images{
				{Operations: ops},
				{ContainerNames: []string{"a", value}, Operations: ops},
				{ImagePath: path, Operations: ops},
			},
			Command:     []Entrypoint{{ContainerName: "a", Operator: op, Value: []string{value}}},
			Args:        []Entrypoint{{ContainerName: "a", Operator: "delete", Value: []string{value}}},
			Envs:        Envs{{ContainerName: "a", Operator: op, Value: env.YNode().Content}},
			Annotations: []StringMap{{Operator: op, Value: []KeyValue{{Key: value, Value: value}}}},
			Labels:      []StringMap{{Operator: "delete", Value: []KeyValue{{Key: "a"}}}},
			JSONPatch:   JSONPatches{{Operator: op, Path: path}},
		}
		// Each list on its own, so a failing earlier list does not hide
		// a later one.
		for _, p := range append(rule.Patchers(), rule) {
			_, _ = p.Patches(rn.YNode())
			_, _ = p.Patches(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{rn.YNode()}})
			_, _ = p.Patches(nil)
		}
		_, _, _ = podSpecPath(rn.YNode())
		if after := rn.MustString(); after != before {
			t.Fatalf("a builder changed its input:\n%s", after)
		}
	})
}
