// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/overridertest"
	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
	"github.com/apply-overrides/apply-overrides/internal/yamlvalue"
)

// patchCase is one row of a KubeAdmiral patch-builder table: an input
// object, the builder, and either the expected operations, each written
// as "<op> <path> <value as JSON>", or a substring of the error.
type patchCase struct {
	input       string
	patcher     Patcher
	expected    []string
	expectedErr string
}

// runPatchCases runs each row through runPatchCase.
func runPatchCases(t *testing.T, cases map[string]patchCase) {
	t.Helper()
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) { runPatchCase(t, tc) })
	}
}

// runPatchCase computes the patch and checks it (or the error), and that
// the input was only read.
func runPatchCase(t *testing.T, tc patchCase) {
	t.Helper()
	rn, err := yaml.Parse(tc.input)
	if err != nil {
		t.Fatalf("parse input: %v", err)
	}
	before := rn.MustString()
	patch, err := tc.patcher.Patches(rn.YNode())
	if after := rn.MustString(); after != before {
		t.Errorf("Patches changed its input:\n%s", after)
	}
	if tc.expectedErr != "" {
		if err == nil {
			t.Fatalf("expected error containing %q, got patch %q", tc.expectedErr, renderPatch(t, patch))
		}
		if !strings.Contains(err.Error(), tc.expectedErr) {
			t.Fatalf("error %q does not contain %q", err.Error(), tc.expectedErr)
		}
		if patch != nil {
			t.Errorf("a failing builder must return a nil patch")
		}
		return
	}
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
	if got := renderPatch(t, patch); !reflect.DeepEqual(got, tc.expected) && (len(got) != 0 || len(tc.expected) != 0) {
		t.Errorf("patch mismatch\n--- got:\n%s\n--- want:\n%s", strings.Join(got, "\n"), strings.Join(tc.expected, "\n"))
	}
}

// renderPatch writes each operation as "<op> <path> <value JSON>". It also
// checks that a YAML 1.1 reader (kubectl's) sees the same JSON, so values
// such as "on" or "1.10" are quoted.
func renderPatch(t *testing.T, p yamlpatch.Patch) []string {
	t.Helper()
	out := make([]string, 0, len(p))
	for _, op := range p {
		js := nodeJSON(t, op.Value)
		raw, err := yamlvalue.StoredJSON(op.Value)
		if err != nil {
			t.Fatalf("render %s %s: %v", op.Op, op.Path, err)
		}
		var a, b any
		if err := json.Unmarshal([]byte(js), &a); err != nil {
			t.Fatalf("value of %s %s is not JSON: %s", op.Op, op.Path, js)
		}
		if err := json.Unmarshal(raw, &b); err != nil || !reflect.DeepEqual(a, b) {
			t.Errorf("value of %s %s reads as %s in YAML 1.2 but %s in YAML 1.1", op.Op, op.Path, js, raw)
		}
		out = append(out, op.Op+" "+op.Path+" "+js)
	}
	return out
}

// nodeJSON renders n as compact JSON in document order, scalars typed the
// way the engine reads them (yaml.v3's resolved tags).
func nodeJSON(t *testing.T, n *yaml.Node) string {
	t.Helper()
	n = yamlnode.Deref(n)
	if n == nil {
		return "null"
	}
	switch n.Kind {
	case yaml.MappingNode:
		parts := make([]string, 0, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, _ := json.Marshal(n.Content[i].Value)
			parts = append(parts, string(k)+":"+nodeJSON(t, n.Content[i+1]))
		}
		return "{" + strings.Join(parts, ",") + "}"
	case yaml.SequenceNode:
		parts := make([]string, 0, len(n.Content))
		for _, c := range n.Content {
			parts = append(parts, nodeJSON(t, c))
		}
		return "[" + strings.Join(parts, ",") + "]"
	case yaml.DocumentNode:
		return nodeJSON(t, n.Content[0])
	}
	b, err := json.Marshal(yamlvalue.ToUnstructured(n))
	if err != nil {
		t.Fatalf("marshal %q: %v", n.Value, err)
	}
	return string(b)
}

// podYAML renders a core Pod whose spec body is spec.
func podYAML(spec string) string {
	return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n" + overridertest.Indent(spec, 2)
}

// workloadYAML renders an object of apiVersion and kind with the pod spec
// body spec under spec.template.spec.
func workloadYAML(apiVersion, kind, spec string) string {
	return "apiVersion: " + apiVersion + "\nkind: " + kind + "\nmetadata:\n  name: w\nspec:\n  replicas: 1\n  template:\n    spec:\n" + overridertest.Indent(spec, 6)
}

// deploymentYAML is an apps/v1 Deployment with the pod spec body spec.
func deploymentYAML(spec string) string { return workloadYAML("apps/v1", "Deployment", spec) }

// cronJobYAML is a batch/v1 CronJob with the pod spec body spec.
func cronJobYAML(spec string) string {
	return "apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: c\nspec:\n  jobTemplate:\n    spec:\n      template:\n        spec:\n" + overridertest.Indent(spec, 10)
}

// envNodes parses a YAML list of EnvVars into the nodes a policy holds.
func envNodes(t *testing.T, s string) []*yaml.Node {
	t.Helper()
	n := overridertest.Node(t, s)
	if n.Kind != yaml.SequenceNode {
		t.Fatalf("env value %q is not a list", s)
	}
	return n.Content
}
