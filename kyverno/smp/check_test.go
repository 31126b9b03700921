// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package smp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func TestCheck(t *testing.T) {
	tests := map[string]struct {
		patch string
		errs  []string // substrings; none means accepted
	}{
		"plain patch":           {patch: `{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"a","image":"x"}]}}`},
		"mutate anchors":        {patch: `{"metadata":{"labels":{"+(a)":"b"}},"spec":{"(hostname)":"h","containers":[{"(name)":"*","<(image)":"x*","env":[{"(name)":"A","value":"1"}]}]}}`},
		"one anchored + plain":  {patch: `{"spec":{"containers":[{"name":"new"},{"(name)":"a","image":"x"}]}}`},
		"variables in anchors":  {patch: `{"spec":{"containers":[{"(name)":"{{element.name}}","image":"x"}]}}`},
		"null patch":            {patch: `null`},
		"empty list kept alone": {patch: `{"spec":{"tolerations":[],"volumes":[{}]}}`},
		"equality anchor": {
			patch: `{"metadata":{"labels":{"=(team)":"platform"}}}`,
			errs:  []string{`metadata.labels."=(team)": equality anchor =(team) is not supported in a mutate patch: Kyverno does not interpret it and merges "=(team)" into the resource as a literal key (kyverno issue #2109); use a conditional anchor (team) or a precondition`},
		},
		"negation and existence, also inside conditions": {
			patch: `{"metadata":{"(labels)":{"X(owner)":null}},"spec":{"^(volumes)":[{"name":"v"}]}}`,
			errs:  []string{`metadata."(labels)"."X(owner)": negation anchor X(owner)`, `spec."^(volumes)": existence anchor ^(volumes)`},
		},
		"two anchored elements": {
			patch: `{"spec":{"containers":[{"(name)":"a","image":"x"},{"(name)":"b","image":"y"}]}}`,
			errs:  []string{"spec.containers: elements 0, 1 of this list are all removed by anchor processing", "kyverno issue #16862"},
		},
		"anchored element and empty map": {
			patch: `{"spec":{"volumes":[{"<(emptyDir)":{}},{"emptyDir":{}}]}}`,
			errs:  []string{"spec.volumes: elements 0, 1 of this list"},
		},
		"anchor-like scalars": {
			patch: `{"spec":{"containers":[{"name":"a","args":["(x)","(y)"]}]}}`,
			errs:  []string{"spec.containers[0].args: elements 0, 1 of this list"},
		},
		"nested list inside an anchored element": {
			patch: `{"spec":{"containers":[{"(name)":"*","env":[{"(name)":"A","value":"1"},{"(name)":"B","value":"2"}]}]}}`,
			errs:  []string{"spec.containers[0].env: elements 0, 1 of this list"},
		},
		"white space around anchors": {
			patch: `{"metadata":{"labels":{" (app)":"web","+(x) ":"y"}}}`,
			errs:  []string{`metadata.labels." (app)": anchor " (app)" has white space around it`, `metadata.labels."+(x) ": anchor "+(x) " has white space around it`},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var patch any
			require.NoError(t, json.Unmarshal([]byte(tc.patch), &patch))
			err := Check(patch)
			if len(tc.errs) == 0 {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			for _, want := range tc.errs {
				assert.Contains(t, err.Error(), want)
			}
		})
	}
}

// TestCheckConformancePatches: Check accepts every conformance patch but
// the one documenting literal =() keys.
func TestCheckConformancePatches(t *testing.T) {
	files, err := filepath.Glob("testdata/conformance/*.yaml")
	require.NoError(t, err)
	for _, file := range files {
		raw, err := os.ReadFile(file)
		require.NoError(t, err)
		var c conformanceFile
		require.NoError(t, yaml.Unmarshal(raw, &c))
		for _, step := range c.Steps {
			for _, p := range step.Patches {
				err := Check(jsonOf(t, p))
				if c.Name == "smp-equality-anchor-is-literal-key" {
					assert.Error(t, err, c.Name)
				} else {
					assert.NoError(t, err, c.Name)
				}
			}
		}
	}
}

// TestCheckDecodedYAML: Check reads values decoded from YAML (ints, nested
// maps) as their JSON value.
func TestCheckDecodedYAML(t *testing.T) {
	var patch any
	require.NoError(t, yaml.Unmarshal([]byte("spec:\n  replicas: 3\n  containers:\n  - =(name): a\n"), &patch))
	err := Check(patch)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `spec.containers[0]."=(name)": equality anchor`)
	assert.Error(t, Check(map[any]any{1: "x"}))
}
