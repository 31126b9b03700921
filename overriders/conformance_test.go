// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
)

// TestKarmadaConformance runs the overrider cases of the project's Karmada
// conformance suite (copied from shared/conformance/karmada: the image-,
// command-, args-, labels-, annotations-, field- and plaintext- cases,
// minus the field-validation- ones, which are admission errors) through
// the filters directly. A minimal decoder below turns each case's rules
// into filters in Karmada's order; cluster matching is by clusterNames
// only, which is all these cases use.
func TestKarmadaConformance(t *testing.T) {
	files, err := filepath.Glob("testdata/karmada/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 61 {
		t.Fatalf("expected 61 cases, found %d", len(files))
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".yaml"), func(t *testing.T) {
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			c, err := yaml.Parse(string(b))
			if err != nil {
				t.Fatal(err)
			}
			runConformanceCase(t, c)
		})
	}
}

func runConformanceCase(t *testing.T, c *yaml.RNode) {
	cluster := scalar(t, c, "cluster", "name")
	var filters []yaml.Filter
	for _, p := range elements(t, c, "policies") {
		for _, rule := range elements(t, p, "spec", "overrideRules") {
			if targetsCluster(t, rule, cluster) {
				filters = append(filters, ruleFilters(t, lookup(t, rule, "overriders"))...)
			}
		}
	}
	resources := elements(t, c, "resources")
	wantErr := scalar(t, c, "expectError")
	var gotErr error
	for _, res := range resources {
		for _, f := range filters {
			if _, err := f.Filter(res); err != nil {
				gotErr = err
				break
			}
		}
	}
	if wantErr != "" {
		if gotErr == nil || !strings.Contains(gotErr.Error(), wantErr) {
			t.Fatalf("error %v does not contain %q", gotErr, wantErr)
		}
		return
	}
	if gotErr != nil {
		t.Fatalf("unexpected error: %v", gotErr)
	}
	expected := elements(t, c, "expected")
	if len(expected) != len(resources) {
		t.Fatalf("%d expected resources for %d inputs", len(expected), len(resources))
	}
	for i := range expected {
		if got, want := asJSON(t, resources[i]), asJSON(t, expected[i]); !reflect.DeepEqual(got, want) {
			t.Errorf("resource %d:\n got: %v\nwant: %v\n%s", i, got, want, resources[i].MustString())
		}
	}
}

// ruleFilters builds the filters of one rule's overriders in Karmada's
// order: image, command, args, labels, annotations, field, plaintext.
func ruleFilters(t *testing.T, o *yaml.RNode) []yaml.Filter {
	var fs []yaml.Filter
	for _, io := range elements(t, o, "imageOverrider") {
		img := Image{Component: scalar(t, io, "component"), Operator: scalar(t, io, "operator"), Value: scalar(t, io, "value")}
		if lookup(t, io, "predicate") != nil {
			path := scalar(t, io, "predicate", "path")
			img.Predicate = &path
		}
		fs = append(fs, img)
	}
	for _, field := range []string{"command", "args"} {
		for _, co := range elements(t, o, field+"Overrider") {
			var values []string
			for _, v := range elements(t, co, "value") {
				values = append(values, v.YNode().Value)
			}
			fs = append(fs, CommandArgs{Field: field, ContainerName: scalar(t, co, "containerName"), Operator: scalar(t, co, "operator"), Value: values})
		}
	}
	for _, field := range []string{"labels", "annotations"} {
		for _, lo := range elements(t, o, field+"Overrider") {
			var kvs []KeyValue
			if m := lookup(t, lo, "value"); m != nil {
				n := m.YNode()
				for i := 0; i+1 < len(n.Content); i += 2 {
					kvs = append(kvs, KeyValue{Key: n.Content[i].Value, Value: n.Content[i+1].Value})
				}
			}
			fs = append(fs, LabelAnnotation{Field: field, Operator: scalar(t, lo, "operator"), Value: kvs})
		}
	}
	for _, fo := range elements(t, o, "fieldOverrider") {
		fs = append(fs, Field{FieldPath: scalar(t, fo, "fieldPath"), JSON: ops(t, fo, "json", "subPath"), YAML: ops(t, fo, "yaml", "subPath")})
	}
	if pt := ops(t, o, "plaintext", "path"); len(pt) > 0 {
		fs = append(fs, Plaintext{Patch: pt})
	}
	return fs
}

func ops(t *testing.T, n *yaml.RNode, field, pathField string) []yamlpatch.Operation {
	var out []yamlpatch.Operation
	for _, e := range elements(t, n, field) {
		op := yamlpatch.Operation{Op: scalar(t, e, "operator"), Path: scalar(t, e, pathField)}
		if v := lookup(t, e, "value"); v != nil && !isNull(v.YNode()) {
			op.Value = v.YNode()
		}
		out = append(out, op)
	}
	return out
}

func targetsCluster(t *testing.T, rule *yaml.RNode, cluster string) bool {
	tc := lookup(t, rule, "targetCluster")
	if tc == nil {
		return true
	}
	fields, err := tc.Fields()
	if err != nil {
		t.Fatal(err)
	}
	if len(fields) != 1 || fields[0] != "clusterNames" {
		t.Fatalf("this decoder only matches clusterNames, got %v", fields)
	}
	for _, name := range elements(t, tc, "clusterNames") {
		if name.YNode().Value == cluster {
			return true
		}
	}
	return false
}

func lookup(t *testing.T, n *yaml.RNode, path ...string) *yaml.RNode {
	t.Helper()
	v, err := n.Pipe(yaml.Lookup(path...))
	if err != nil {
		t.Fatalf("lookup %v: %v", path, err)
	}
	return v
}

func scalar(t *testing.T, n *yaml.RNode, path ...string) string {
	t.Helper()
	if v := lookup(t, n, path...); v != nil {
		return v.YNode().Value
	}
	return ""
}

func elements(t *testing.T, n *yaml.RNode, path ...string) []*yaml.RNode {
	t.Helper()
	v := lookup(t, n, path...)
	if v == nil {
		return nil
	}
	els, err := v.Elements()
	if err != nil {
		t.Fatalf("elements of %v: %v", path, err)
	}
	return els
}

func asJSON(t *testing.T, n *yaml.RNode) any {
	t.Helper()
	b, err := n.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}
