// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyverno

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

// TestForEachNetEffect checks how a foreach entry is judged: by the
// resource's JSON value before and after it (an entry whose elements undo
// each other applies nothing), and that request.object is refreshed after
// an entry that changed the resource.
func TestForEachNetEffect(t *testing.T) {
	const pol = `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: net}
spec:
  rules:
  - name: net
    match: {any: [{resources: {kinds: [Pod]}}]}
    mutate:
      foreach:
      - list: request.object.spec.containers
        patchStrategicMerge:
          metadata: {labels: {x: "{{element.name}}"}}
      - list: request.object.spec.containers
        patchStrategicMerge:
          metadata: {labels: {z: "seen-{{request.object.metadata.labels.x}}"}}
`
	compiled, errs := policy.CompileFor(Dialect{}, []*yaml.RNode{yaml.MustParse(pol)}, policy.Target{})
	require.Empty(t, errs)
	for _, c := range []struct{ name, pod, want string }{
		{
			// Descending: "new" first, then "old": x ends as it was, and
			// z reads the unchanged x.
			name: "undone",
			pod:  "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p # the pod\n  labels:\n    x: old\n    z: seen-old\nspec:\n  containers:\n  - name: old\n  - name: new\n",
			want: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p # the pod\n  labels:\n    x: old\n    z: seen-old\nspec:\n  containers:\n  - name: old\n  - name: new\n",
		},
		{
			name: "changed",
			pod:  "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p # the pod\n  labels:\n    x: old\nspec:\n  containers:\n  - name: first\n  - name: second\n",
			want: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p # the pod\n  labels:\n    x: first\n    z: seen-first\nspec:\n  containers:\n  - name: first\n  - name: second\n",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := policy.NewResource(yaml.MustParse(c.pod))
			applied, err := policy.Apply(res, compiled.Sets)
			require.NoError(t, err)
			if c.name == "undone" {
				assert.Equal(t, 0, applied)
			} else {
				assert.Equal(t, 1, applied)
			}
			assert.Equal(t, c.want, res.Node.MustString())
		})
	}
}
