// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package k8sschema

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"
)

// mergeYAML merges patch into live with the converter Get returns for
// their kind, as an ApplyConfiguration does, and returns the result as
// YAML.
func mergeYAML(t *testing.T, live, patch string) (string, bool) {
	t.Helper()
	var l, p map[string]any
	require.NoError(t, yaml.Unmarshal([]byte(live), &l))
	require.NoError(t, yaml.Unmarshal([]byte(patch), &p))
	lu, pu := &unstructured.Unstructured{Object: l}, &unstructured.Unstructured{Object: p}
	tc, builtin := Get(lu.GroupVersionKind())
	lt, err := tc.ObjectToTyped(lu)
	require.NoError(t, err)
	pt, err := tc.ObjectToTyped(pu)
	require.NoError(t, err)
	merged, err := lt.Merge(pt)
	require.NoError(t, err)
	out, err := tc.TypedToObject(merged)
	require.NoError(t, err)
	b, err := yaml.Marshal(out.(*unstructured.Unstructured).Object)
	require.NoError(t, err)
	return string(b), builtin
}

// deployment is the start of a Deployment whose pod's containers follow.
const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template:
    spec:
      containers:
`

func TestGetBuiltinMergesListsByKey(t *testing.T) {
	got, builtin := mergeYAML(t, deployment+`
      - {name: app, image: app:1}
      - {name: proxy, image: envoy:1}
`, deployment+`
      - name: proxy
        image: envoy:2
        # restartPolicyRules: added in Kubernetes 1.34, unknown to 1.32's schema
        restartPolicyRules:
        - action: Restart
          exitCodes: {operator: In, values: [42]}
`)
	assert.True(t, builtin)
	assert.Equal(t, `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - image: app:1
        name: app
      - image: envoy:2
        name: proxy
        restartPolicyRules:
        - action: Restart
          exitCodes:
            operator: In
            values:
            - 42
`, got)
}

func TestGetCustomResourceIsDeduced(t *testing.T) {
	got, builtin := mergeYAML(t, `
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  parts: [{name: a}, {name: b}]
`, `
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  parts: [{name: c}]
`)
	assert.False(t, builtin)
	// every list of the deduced schema is atomic: the patch's list replaces
	assert.Equal(t, `apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
spec:
  parts:
  - name: c
`, got)
}

func TestGetListKindsAreNotInTheSchema(t *testing.T) {
	tc, builtin := Get(schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "DeploymentList"})
	assert.True(t, builtin, "client-go's scheme registers list kinds")
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetAPIVersion("apps/v1")
	u.SetKind("DeploymentList")
	_, err := tc.ObjectToTyped(u)
	assert.ErrorContains(t, err, "no type found matching: io.k8s.api.apps.v1.DeploymentList")
}
