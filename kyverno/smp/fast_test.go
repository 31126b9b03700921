// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package smp

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
)

// TestYAML11NonString: the shortcut agrees with kyaml's YAML 1.1 parse.
func TestYAML11NonString(t *testing.T) {
	for _, v := range []string{"", "yes", "Yes", "no", "on", "Off", "y", "n", "true", "~", "null", "1", "0x1F", "1:20", "1_000",
		"2024-01-01", ".5", "-1", "+1", "nginx", "nginx:1.27", "registry.example.com/app:1.7", "a b", "a: b", "a #b", "a:",
		"abc\tdef", "Hello, world", "z=1", "frontend", "NaN", ".inf", "a[b]", "a{b}", "<<", "=", "team-a", "x\ny",
		"Y", "YES", "yEs", "N", "No", "NO", "nO", "True", "TRUE", "tRUE", "False", "FALSE", "On", "ON", "oN", "onion", "off", "OFF",
		"Off", "offline", "null", "Null", "NULL", "nULL", "nil", "None", "t", "f", "o", "tier", "backend", "IfNotPresent", "yaml",
		"Infinity", "inf", "nan", "e", "E", "x:y", "no way", "yes please", "true story",
		"100m", "128Mi", "1Gi", "250m", "2024-01-01T00:00:00Z", "2024-01-01 10:00:00", "1e3", "0x1F", "12:30", "1_000", "0b1",
		"0o7", "3d", "1h", "5s", "1.5Gi", "0.5", "1ki", "1 2", "7z", "12:30:45.5", "1:2:3", "0xZZ"} {
		n := &yaml.Node{Kind: yaml.ScalarNode, Value: v}
		assert.Equal(t, yaml.IsYaml1_1NonString(n), yaml11NonString(n), "%q", v)
	}
}

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
