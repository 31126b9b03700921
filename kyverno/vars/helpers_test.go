// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package vars

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// fromYAML decodes YAML into a JSON value.
func fromYAML(t *testing.T, s string) any {
	t.Helper()
	data, err := yaml.YAMLToJSON([]byte(s))
	require.NoError(t, err)
	var v any
	require.NoError(t, json.Unmarshal(data, &v))
	return v
}

// podContext builds the context kyverno apply builds for a resource.
func podContext(t *testing.T, resource string) *Context {
	t.Helper()
	obj := fromYAML(t, resource)
	c := NewContext()
	require.NoError(t, c.SetObject(obj))
	require.NoError(t, c.SetOperation("CREATE"))
	require.NoError(t, c.AddImages(obj))
	return c
}

// at reads a nested field of a JSON value.
func at(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

const busyboxPod = `
apiVersion: v1
kind: Pod
metadata:
  name: busybox
  namespace: default
  labels:
    deploy-zone: frankfurt
    corp.com/retention: days_37
  annotations:
    template: "{{ inner }}"
spec:
  replicas: 3
  hostNetwork: false
  priority: null
  containers:
    - name: busybox
      image: public.ecr.aws/docker/library/busybox:stable
      ports:
        - containerPort: 80
    - name: helper
      image: quay.io/bar/baz:1
`
