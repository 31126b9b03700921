// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"errors"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/overridertest"
)

func TestPodSpecPath(t *testing.T) {
	testCases := map[string]struct {
		input, prefix, firstKey, expectedErr string
	}{
		"apps Deployment":        {input: deploymentYAML("containers: []\n"), prefix: "/spec/template/spec", firstKey: "containers"},
		"apps StatefulSet":       {input: workloadYAML("apps/v1", "StatefulSet", "hostname: h\n"), prefix: "/spec/template/spec", firstKey: "hostname"},
		"apps DaemonSet v1beta2": {input: workloadYAML("apps/v1beta2", "DaemonSet", "a: b\n"), prefix: "/spec/template/spec", firstKey: "a"},
		"batch Job":              {input: workloadYAML("batch/v1", "Job", "a: b\n"), prefix: "/spec/template/spec", firstKey: "a"},
		"batch CronJob":          {input: cronJobYAML("a: b\n"), prefix: "/spec/jobTemplate/spec/template/spec", firstKey: "a"},
		"core Pod":               {input: podYAML("a: b\n"), prefix: "/spec", firstKey: "a"},
		"document node":          {input: "---\napiVersion: v1\nkind: Pod\nspec: {x: 1}\n", prefix: "/spec", firstKey: "x"},
		"empty pod spec":         {input: "apiVersion: v1\nkind: Pod\nspec: {}\n", prefix: "/spec"},
		"ReplicaSet":             {input: workloadYAML("apps/v1", "ReplicaSet", "a: b\n"), expectedErr: "unknown type to get pod spec: apps/v1, Kind=ReplicaSet"},
		"Pod in a group":         {input: "apiVersion: x.io/v1\nkind: Pod\nspec: {}\n", expectedErr: "unknown type to get pod spec: x.io/v1, Kind=Pod"},
		"bad apiVersion":         {input: "apiVersion: a/b/c\nkind: Pod\nspec: {}\n", expectedErr: "unknown type to get pod spec: /, Kind="},
		"kind not a string":      {input: "apiVersion: v1\nkind: [Pod]\nspec: {}\n", expectedErr: "unknown type to get pod spec: /v1, Kind="},
		"no spec":                {input: "apiVersion: v1\nkind: Pod\n", expectedErr: `pod spec does not exist at path "spec"`},
		"null parent":            {input: "apiVersion: batch/v1\nkind: Job\nspec:\n  template: ~\n", expectedErr: `pod spec does not exist at path "spec.template.spec"`},
		"null pod spec":          {input: "apiVersion: v1\nkind: Pod\nspec: null\n", expectedErr: ".spec accessor error: <nil> is of the type <nil>, expected map[string]interface{}"},
		"list parent":            {input: "apiVersion: batch/v1\nkind: Job\nspec: [a, 1]\n", expectedErr: ".spec.template accessor error: [a 1] is of the type []interface {}, expected map[string]interface{}"},
		"scalar pod spec":        {input: "apiVersion: batch/v1\nkind: Job\nspec:\n  template:\n    spec: 1.5\n", expectedErr: ".spec.template.spec accessor error: 1.5 is of the type float64, expected map[string]interface{}"},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			obj := yaml.MustParse(tc.input).YNode()
			prefix, spec, err := podSpecPath(obj)
			if tc.expectedErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.expectedErr) {
					t.Fatalf("error %v does not contain %q", err, tc.expectedErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if prefix != tc.prefix {
				t.Errorf("prefix %q, want %q", prefix, tc.prefix)
			}
			if spec == nil || spec.Kind != yaml.MappingNode {
				t.Fatalf("pod spec %v is not a mapping", spec)
			}
			if tc.firstKey != "" && (len(spec.Content) == 0 || spec.Content[0].Value != tc.firstKey) {
				t.Errorf("pod spec does not start with %q", tc.firstKey)
			}
		})
	}
	_, _, err := podSpecPath(yaml.MustParse("apiVersion: v1\nkind: Node\n").YNode())
	if !errors.Is(err, errUnknownPodSpec) {
		t.Errorf("%v does not wrap errUnknownPodSpec", err)
	}
}

func TestGVK(t *testing.T) {
	for in, want := range map[string]schema.GroupVersionKind{
		"apiVersion: apps/v1\nkind: Deployment\n": {Group: "apps", Version: "v1", Kind: "Deployment"},
		"apiVersion: v1\nkind: Pod\n":             {Version: "v1", Kind: "Pod"},
		"kind: Pod\n":                             {Kind: "Pod"},
		"apiVersion: a/b/c\nkind: Pod\n":          {},
		"apiVersion: 1\nkind: Pod\n":              {Kind: "Pod"},
		"- a\n":                                   {},
	} {
		if got := GVK(yaml.MustParse(in).YNode()); got != want {
			t.Errorf("%q: got %v, want %v", in, got, want)
		}
	}
	if got := GVK(nil); got != (schema.GroupVersionKind{}) {
		t.Errorf("nil: got %v", got)
	}
}

func TestRuleOrder(t *testing.T) {
	// Every list is computed against the same object, and the patch is
	// image, command, args, envs, annotations, labels, jsonpatch.
	input := podYAML("containers:\n- name: a\n  image: nginx\n")
	rule := Rule{
		JSONPatch:   JSONPatches{{Operator: "add", Path: "/metadata/labels/tier", Value: overridertest.Node(t, "jp")}},
		Labels:      []StringMap{{Operator: "addIfAbsent", Value: []KeyValue{{Key: "tier", Value: "l"}}}},
		Annotations: []StringMap{{Operator: "addIfAbsent", Value: []KeyValue{{Key: "n", Value: "a"}}}},
		Envs:        Envs{{ContainerName: "a", Operator: "addIfAbsent", Value: envNodes(t, "[{name: E, value: v}]")}},
		Args:        []Entrypoint{{ContainerName: "a", Operator: "append", Value: []string{"-x"}}},
		Command:     []Entrypoint{{ContainerName: "a", Operator: "overwrite", Value: []string{"sh"}}},
		Image:       Images{{Operations: imageOps(imageOp("Tag", "", "1"))}},
	}
	runPatchCases(t, map[string]patchCase{
		"fixed order": {
			input:   input,
			patcher: rule,
			expected: []string{
				`replace /spec/containers/0/image "nginx:1"`,
				`replace /spec/containers/0/command ["sh"]`,
				`replace /spec/containers/0/args ["-x"]`,
				`replace /spec/containers/0/env [{"name":"E","value":"v"}]`,
				`replace /metadata/annotations {"n":"a"}`,
				`replace /metadata/labels {"tier":"l"}`,
				`add /metadata/labels/tier "jp"`,
			},
		},
		"the first failing list stops the rule": {
			input: input,
			patcher: Rule{
				Labels:  []StringMap{{Operator: "addIfAbsent"}},
				Command: []Entrypoint{{ContainerName: "a"}},
			},
			expectedErr: "failed to parse command overriders: failed to apply command override: unsupported operator:",
		},
		"the template's GVK is used for every list": {
			input: "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: a\n    image: nginx\n",
			patcher: WithGVK{GVK: schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, Patcher: Rule{
				Envs: Envs{{ContainerName: "a"}},
			}},
			expectedErr: `failed to parse env overriders: failed to get podSpec from sourceObj: pod spec does not exist at path "spec.template.spec"`,
		},
		"nothing": {
			input:    input,
			patcher:  Rule{},
			expected: nil,
		},
	})
}

func TestWithoutFinalizers(t *testing.T) {
	p := JSONPatches{
		{Operator: "add", Path: "/metadata/finalizers/-"},
		{Operator: "add", Path: "/metadata/labels/a"},
		{Operator: "replace", Path: "/metadata/finalizers"},
		{Operator: "add", Path: "/metadata/finalizersx"},
	}
	patch, _ := p.Patches(nil)
	got := WithoutFinalizers(patch)
	if len(got) != 1 || got[0].Path != "/metadata/labels/a" {
		t.Errorf("got %+v", got)
	}
}
