// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package differ

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/apply-overrides/apply-overrides/oracle/harness/quiet"
	"github.com/apply-overrides/apply-overrides/oracle/harness/rl"
)

func TestMain(m *testing.M) {
	quiet.Klog()
	os.Exit(m.Run())
}

// identity is a stand-in function that returns its input unchanged.
func identity(t *testing.T) string {
	fn := filepath.Join(t.TempDir(), "identity")
	require.NoError(t, os.WriteFile(fn, []byte("#!/bin/sh\ncat\n"), 0o755))
	return fn
}

const scenarioYAML = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: Namespace
  metadata: {name: default}
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: d1, namespace: default, labels: {app: d1}}
  spec:
    selector: {matchLabels: {app: d1}}
    template:
      metadata: {labels: {app: d1}}
      spec: {containers: [{name: app, image: nginx}]}
- apiVersion: admissionregistration.k8s.io/v1
  kind: MutatingAdmissionPolicy
  metadata: {name: p}
  spec:
    matchConstraints:
      resourceRules:
      - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [RESOURCE]}
    mutations:
    - patchType: ApplyConfiguration
      applyConfiguration: {expression: 'Object{metadata: Object.metadata{labels: {"x": "y"}}}'}
- apiVersion: admissionregistration.k8s.io/v1
  kind: MutatingAdmissionPolicyBinding
  metadata: {name: b}
  spec: {policyName: p}
`

func list(t *testing.T, resource string) *rl.ResourceList {
	l, err := rl.Decode([]byte(strings.Replace(scenarioYAML, "RESOURCE", resource, 1)))
	require.NoError(t, err)
	return l
}

// A policy that matches nothing: the identity function agrees; one that
// adds a label: the identity function disagrees on that label.
func TestScenario(t *testing.T) {
	fn := identity(t)
	rep := Scenario("no match", list(t, "statefulsets"), fn, time.Minute)
	assert.True(t, rep.Agree(), "%+v", rep)

	rep = Scenario("label", list(t, "deployments"), fn, time.Minute)
	require.Len(t, rep.Disagreements, 1, "%+v", rep)
	d := rep.Disagreements[0]
	assert.Equal(t, "apps/v1 Deployment default/d1", d.Resource)
	assert.Equal(t, "content", d.Field)
	assert.Equal(t, `/metadata/labels/x: oracle="y" function=absent`, d.Function)
}

// Normalize drops the KRM annotations and refuses unknown fields.
func TestNormalize(t *testing.T) {
	l, err := rl.Decode([]byte(`apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: c, annotations: {config.kubernetes.io/index: "0", internal.config.kubernetes.io/path: a.yaml}}
  data: {k: v}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: c}
  dta: {k: v}
`))
	require.NoError(t, err)
	got, err := Normalize(l.Items[0])
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c"}, "data": map[string]any{"k": "v"}}, got)
	_, err = Normalize(l.Items[1])
	assert.ErrorContains(t, err, `unknown field "dta"`)
}
