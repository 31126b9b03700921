// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"testing"
	"unicode/utf8"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/overridertest"
	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
)

// FuzzFilters checks that no filter panics, whatever the document and the
// path, and that a failing filter leaves the document as it was.
func FuzzFilters(f *testing.F) {
	for _, d := range overridertest.OddDocuments {
		for _, p := range []string{"", "/", "/spec/containers/0/image", "spec/x", "/data/c.json", "/a/-1/b", "//", "/metadata/labels/a~1b"} {
			f.Add(d, p, "add")
		}
	}
	f.Add("kind: Pod\nspec:\n  containers:\n  - name: a\n    image: nginx\n", "/spec/containers/0/image", "merge")
	f.Fuzz(func(t *testing.T, doc, path, op string) {
		if !utf8.ValidString(path) || !utf8.ValidString(op) {
			return // policies are YAML, which holds only UTF-8 strings
		}
		value := &yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagString, Value: "v"}
		filters := []yaml.Filter{
			Image{Component: "Registry", Operator: op, Value: "r.example"},
			Image{Predicate: &path, Component: "Tag", Operator: op, Value: "1"},
			CommandArgs{Field: "args", ContainerName: "a", Operator: op, Value: []string{"x"}},
			CommandArgs{Field: "command", ContainerName: "a", Operator: "remove", Value: []string{"x"}},
			LabelAnnotation{Field: "labels", Operator: op, Value: []KeyValue{{Key: "a", Value: "b"}, {Key: path, Value: ""}}},
			LabelAnnotation{Field: "annotations", Operator: "remove", Value: []KeyValue{{Key: "a"}}},
			Field{FieldPath: path, JSON: []yamlpatch.Operation{{Op: op, Path: "/a/0", Value: value}}},
			Field{FieldPath: path, YAML: []yamlpatch.Operation{{Op: op, Path: "/a", Value: value}}},
			Field{FieldPath: path},
			Plaintext{Patch: yamlpatch.Patch{{Op: op, Path: path, Value: value}, {Op: "remove", Path: path}}},
		}
		for _, f := range filters {
			rn, err := yaml.Parse(doc)
			if err != nil {
				return
			}
			// A failing filter may leave the document half-edited (the
			// caller discards it), but it must never panic or produce a
			// document that cannot be rendered.
			_, _ = f.Filter(rn)
			if _, err := rn.String(); err != nil {
				t.Fatalf("%#v left a document that cannot be rendered: %v", f, err)
			}
		}
	})
}
