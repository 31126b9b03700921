// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package smp

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
)

// FuzzFast: wherever the fast path takes a patch, the general path gives
// the same changed, JSON value and printed YAML (comments included); where
// it declines, the resource is untouched.
func FuzzFast(f *testing.F) {
	const deploy = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # the name
  labels: {tier: frontend}
spec:
  template:
    spec:
      containers:
      # the app
      - name: app
        image: nginx # pinned
        securityContext:
          runAsNonRoot: false
        ports:
        - containerPort: 80
      - name: "side"
        imagePullPolicy: Always
`
	f.Add(deploy, `{"metadata":{"labels":{"+(cost-center)":"shop"}}}`)
	f.Add(deploy, `{"spec":{"template":{"spec":{"containers":[{"name":"side","imagePullPolicy":"IfNotPresent","securityContext":{"+(runAsNonRoot)":true,"+(allowPrivilegeEscalation)":false}}]}}}}`)
	f.Add(deploy, `{"spec":{"template":{"spec":{"containers":[{"name":"app","image":"nginx:2","env":{"a":"b"}}]}}}}`)
	f.Add("kind: ConfigMap\nmetadata:\n  name: a\ndata:\n  x: 'y' # c\n", `{"data":{"x":"z","+(w)":"on","n":{"a":"b"}}}`)
	f.Add("apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n  annotations: {}\nspec:\n  ports:\n  - port: 80\n", `{"metadata":{"annotations":{"+(a)":"1","b":"yes"}}}`)
	f.Fuzz(func(t *testing.T, resource, patch string) {
		var p any
		if json.Unmarshal([]byte(patch), &p) != nil {
			return
		}
		n, err := yaml.Parse(resource)
		if err != nil || n.YNode().Kind != yaml.MappingNode {
			return
		}
		if _, err := yamlnode.MarshalJSON(n.YNode()); err != nil {
			return
		}
		before, err := n.String()
		if err != nil {
			return
		}
		a, b := n.Copy(), n.Copy()
		changedF, ok := TryFast(a, p)
		if !ok {
			after, err := a.String()
			require.NoError(t, err)
			require.Equal(t, before, after, "declined, yet changed the resource")
			return
		}
		changedG, _, err := ApplyJSON(b, nil, p)
		require.NoError(t, err, "the general path fails where the fast path did not")
		require.Equal(t, changedG, changedF, "changed")
		ja, err := yamlnode.MarshalJSON(a.YNode())
		require.NoError(t, err)
		jb, err := yamlnode.MarshalJSON(b.YNode())
		require.NoError(t, err)
		require.Equal(t, string(jb), string(ja), "JSON")
		sa, err := a.String()
		require.NoError(t, err)
		sb, err := b.String()
		require.NoError(t, err)
		require.Equal(t, sb, sa, "YAML")
	})
}
