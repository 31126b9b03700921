// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"

	"github.com/apply-overrides/apply-overrides/internal/corpus"
	"github.com/apply-overrides/apply-overrides/internal/resourcelist"
)

// TestStreamMatchesWholeList holds the streaming path to the whole-list
// path, byte for byte, and checks that it hands over every input it must
// not serve: errors, other layouts, items whose text hides their kind.
func TestStreamMatchesWholeList(t *testing.T) {
	inputs := map[string][]byte{
		"corpus": corpus.ResourceList(300, 20),
	}
	files, err := filepath.Glob("../testdata/golden/*/input.yaml")
	require.NoError(t, err)
	more, err := filepath.Glob("../examples/*/resourcelist.yaml")
	require.NoError(t, err)
	for _, f := range append(files, more...) {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		inputs[f] = b
	}
	require.Greater(t, len(inputs), 5)
	const list = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n"
	const fc = "functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: fc}\n  data: {cluster: member1}\n"
	const cluster = "- apiVersion: cluster.karmada.io/v1alpha1\n  kind: Cluster\n  metadata: {name: member1}\n"
	const op = "  kind: OverridePolicy\n  metadata: {name: op, namespace: default}\n  spec:\n    resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]\n    overrideRules:\n    - overriders:\n        labelsOverrider: [{operator: add, value: {x: y}}]\n"
	const cm = "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: cm # comment\n    namespace: default\n"
	crafted := map[string]struct {
		in       string
		streamed bool
	}{
		"plain":               {list + cm + cluster + "- apiVersion: policy.karmada.io/v1alpha1\n" + op + fc, true},
		"quoted policy":       {list + cm + cluster + "- apiVersion: \"policy.karmada.io/v1alpha1\"\n" + op + fc, true},
		"policy after kind":   {list + cm + cluster + "- kind: OverridePolicy\n  apiVersion: policy.karmada.io/v1alpha1\n" + strings.Replace(op, "  kind: OverridePolicy\n", "", 1) + fc, true},
		"local config policy": {list + cm + cluster + "- apiVersion: policy.karmada.io/v1alpha1\n" + strings.Replace(op, "namespace: default}", "namespace: default, annotations: {config.kubernetes.io/local-config: \"true\"}}", 1) + fc, true},
		"keepPolicies":        {list + cm + cluster + "- apiVersion: policy.karmada.io/v1alpha1\n" + op + strings.Replace(fc, "cluster: member1", "cluster: member1, keepPolicies: \"true\"", 1), true},
		"unknown cluster":     {list + cm + cluster + "- apiVersion: policy.karmada.io/v1alpha1\n" + op + strings.Replace(fc, "member1", "member9", 1), false},
		"not a list":          {"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n", false},
		"flow item":           {list + "- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n" + cm + cluster + fc, true},
	}
	for name, c := range crafted {
		inputs[name] = []byte(c.in)
	}
	streamed := 0
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			in, _ = resourcelist.Normalize(in)
			var got bytes.Buffer
			results, ok := stream(in, &got)
			if c, crafted := crafted[name]; crafted {
				assert.Equal(t, c.streamed, ok, "streamed")
			}
			if !ok {
				assert.Zero(t, got.Len(), "a run that hands over writes nothing")
				// A handover needs a reason: the input is in another layout,
				// or the run fails (the whole-list path then reports it).
				_, splits := resourcelist.Split(in, listOptions)
				parsed, err := resourcelist.Parse(in, listOptions)
				fails := err != nil
				whole := false
				if !fails {
					_, rendered := executeList(parsed, &bytes.Buffer{})
					fails = !rendered
					r := &run{rl: &framework.ResourceList{Items: parsed.Items, FunctionConfig: parsed.FunctionConfig}}
					if pl, ok := r.prepare(); ok {
						whole = pl.placesWhole || r.cfg.Render != nil || r.cfg.Explain // placement read every resource, a fan-out, or an explaining run
					}
				}
				assert.True(t, !splits || fails || whole, "the streaming path declined an input that splits and renders")
				return
			}
			streamed++
			parsed, err := resourcelist.Parse(in, listOptions)
			require.NoError(t, err)
			var want bytes.Buffer
			wantResults, wantOK := executeList(parsed, &want)
			require.True(t, wantOK, "%v", wantResults)
			assert.Equal(t, wantResults, results)
			assert.Equal(t, want.String(), got.String())
		})
	}
	assert.Greater(t, streamed, len(inputs)/2, "the streaming path serves most inputs")
}
