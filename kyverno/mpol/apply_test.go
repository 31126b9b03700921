// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package mpol

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"
	sigsyaml "sigs.k8s.io/yaml"
)

func mustPolicy(t *testing.T, src string) *Policy {
	t.Helper()
	p, err := Compile(yaml.MustParse(src))
	require.NoError(t, err)
	return p
}

func mustObject(t *testing.T, src string) map[string]any {
	t.Helper()
	b, err := sigsyaml.YAMLToJSON([]byte(src))
	require.NoError(t, err)
	obj, err := decodeObject(b)
	require.NoError(t, err)
	return obj
}

// onPods is a spec matching Pods on CREATE.
const onPods = `spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
`

const pod = `
apiVersion: v1
kind: Pod
metadata:
  name: web
  namespace: default
  labels: {app: web}
spec:
  containers:
  - name: nginx
    image: nginx:1.27
  - name: sidecar
    image: busybox
`

func TestApplyConfigurationMergesContainersByName(t *testing.T) {
	p := mustPolicy(t, `
apiVersion: policies.kyverno.io/v1beta1
kind: MutatingPolicy
metadata: {name: add-pull-policy}
`+onPods+`  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: >
        Object{spec: Object.spec{containers: object.spec.containers.map(c,
          Object.spec.containers{name: c.name, imagePullPolicy: "Always"})}}
`)
	res, err := p.Apply(mustObject(t, pod), Namespace{}, nil)
	require.NoError(t, err)
	assert.True(t, res.Matched)
	assert.Equal(t, []string{"spec.mutations[0]"}, res.Applied)
	cs := res.Object["spec"].(map[string]any)["containers"].([]any)
	require.Len(t, cs, 2)
	assert.Equal(t, map[string]any{"name": "nginx", "image": "nginx:1.27", "imagePullPolicy": "Always"}, cs[0])
	assert.Equal(t, map[string]any{"name": "sidecar", "image": "busybox", "imagePullPolicy": "Always"}, cs[1])
}

func TestJSONPatchAndMatchConditions(t *testing.T) {
	p := mustPolicy(t, `
apiVersion: policies.kyverno.io/v1
kind: MutatingPolicy
metadata: {name: label}
`+onPods+`  variables:
  - name: team
    expression: "'team-' + object.metadata.labels.app"
  matchConditions:
  - name: web
    expression: "object.metadata.labels.app == 'web'"
  mutations:
  - patchType: JSONPatch
    jsonPatch:
      expression: >
        [JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("example.com/team"), value: variables.team}]
`)
	res, err := p.Apply(mustObject(t, pod), Namespace{}, nil)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"app": "web", "example.com/team": "team-web"}, res.Object["metadata"].(map[string]any)["labels"])

	other := mustObject(t, pod)
	other["metadata"].(map[string]any)["labels"] = map[string]any{"app": "db"}
	res, err = p.Apply(other, Namespace{}, nil)
	require.NoError(t, err)
	assert.False(t, res.Matched)
	assert.Empty(t, res.Applied)
}

func TestKyvernoLibraryIsAnOfflineError(t *testing.T) {
	_, err := Compile(yaml.MustParse(`
apiVersion: policies.kyverno.io/v1beta1
kind: MutatingPolicy
metadata: {name: remote}
` + onPods + `  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: "Object{metadata: Object.metadata{labels: {'x': http.Get('https://example.com').body}}}"
`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "spec.mutations[0].applyConfiguration.expression")
	assert.Contains(t, err.Error(), "not available offline")
}

func TestAutogenRewritesOntoTemplates(t *testing.T) {
	assert.Equal(t,
		"Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{containers: object.spec.template.spec.containers.map(c, Object.spec.template.spec.containers{name: c.name})}}}}",
		onTemplate("Object{spec: Object.spec{containers: object.spec.containers.map(c, Object.spec.containers{name: c.name})}}", false))
	assert.Equal(t,
		"has(object.spec.jobTemplate.spec.template.metadata.labels) && object.metadata.name != ''",
		onTemplate("has(object.metadata.labels) && object.metadata.name != ''", true))
}
