// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package jsonpatch

import (
	"encoding/json"
	"fmt"
	"testing"

	evanphx "github.com/evanphx/json-patch/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"
	sigsyaml "sigs.k8s.io/yaml"
)

// upstream is Kyverno's patchesJSON6902 patcher run on the JSON of the
// resource: YAML to JSON unless the patch starts with "[", DecodePatch,
// then ApplyWithOptions with Kyverno's options.
func upstream(resource []byte, patch string) ([]byte, error) {
	raw := []byte(patch)
	if patch == "" || patch[0] != '[' {
		var err error
		if raw, err = sigsyaml.YAMLToJSON(raw); err != nil {
			return nil, fmt.Errorf("failed to convert patchesJSON6902 to JSON: %w", err)
		}
	}
	p, err := evanphx.DecodePatch(raw)
	if err != nil {
		return nil, fmt.Errorf("failed to decode patches: %w", err)
	}
	return p.ApplyWithOptions(resource, &evanphx.ApplyOptions{
		SupportNegativeIndices:   true,
		AllowMissingPathOnRemove: true,
		EnsurePathExistsOnAdd:    true,
	})
}

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
  annotations: ~
spec:
  replicas: 2
  template:
    spec:
      containers:
      - name: app
        image: nginx
        ports: [{containerPort: 80}]
      - name: sidecar
        image: envoy
        env: null
`

var differentialPatches = []string{
	// add and missing parents
	"- {op: add, path: /metadata/labels/team, value: a}",
	"- {op: add, path: /metadata/annotations/x, value: a}",
	"- {op: add, path: /spec/template/metadata/labels/app, value: web}",
	"- {op: add, path: /spec/template/spec/containers/1/env/0/name, value: X}",
	"- {op: add, path: /spec/template/spec/containers/1/env/-, value: {name: X}}",
	"- {op: add, path: /spec/template/spec/containers/1/env/-1, value: {name: X}}",
	"- {op: add, path: /spec/template/spec/containers/1/env/-2, value: {name: X}}",
	"- {op: add, path: /spec/template/spec/containers/0/ports/3/name, value: p}",
	"- {op: add, path: /spec/template/spec/containers/0/ports/-1/name, value: p}",
	"- {op: add, path: /spec/template/spec/containers/0/ports/-3/name, value: p}",
	"- {op: add, path: /spec/template/spec/containers/-1/x, value: 1}",
	"- {op: add, path: /spec/template/spec/containers/5, value: {}}",
	"- {op: add, path: /spec/template/spec/volumes/2, value: {name: v}}",
	"- {op: add, path: /spec/replicas/x, value: 1}",
	"- {op: add, path: /metadata/name/x/y, value: 1}",
	"- {op: add, path: /a~1b/c, value: 1}",
	"- {op: add, path: /x/-/-/y, value: 1}",
	"- {op: add, path: spec/replicas, value: 3}",
	"- {op: add, path: /spec, value: {}}",
	"- {op: add, path: '', value: {kind: X}}",
	`- {op: add, path: /metadata/labels/x, value: null}
- {op: add, path: /metadata/labels/x/y, value: 1}`,
	`- {op: add, path: /l/2, value: 1}
- {op: test, path: /l/0, value: null}`,
	// remove
	"- {op: remove, path: /metadata/labels/missing}",
	"- {op: remove, path: /missing/deep/path}",
	"- {op: remove, path: /spec/template/spec/containers/7}",
	"- {op: remove, path: /spec/template/spec/containers/-7}",
	"- {op: remove, path: /spec/template/spec/containers/-1}",
	"- {op: remove, path: /spec/template/spec/containers/x}",
	"- {op: remove, path: /spec/template/spec/containers/-}",
	"- {op: remove, path: /metadata/name/x}",
	"- {op: remove, path: /}",
	`- {op: remove, path: /spec/template/spec/containers/0}
- {op: remove, path: /spec/template/spec/containers/0}
- {op: remove, path: /spec/template/spec/containers/0}`,
	// replace, move, copy, test
	"- {op: replace, path: /spec/template/spec/containers/-1/image, value: envoy:2}",
	"- {op: replace, path: /spec/missing, value: 1}",
	"- {op: replace, path: /spec/missing/x, value: 1}",
	"- {op: replace, path: '', value: null}",
	"- {op: move, from: /metadata/labels, path: /spec/selector/matchLabels}",
	"- {op: move, from: /metadata/labels, path: /spec/selector}",
	"- {op: move, from: /, path: /copy}",
	"- {op: copy, from: /metadata/name, path: /metadata/labels/name}",
	"- {op: copy, from: /metadata/name, path: /metadata/missing/name}",
	"- {op: copy, from: /spec/template/spec/containers/-1, path: /spec/template/spec/containers/0}",
	"- {op: test, path: /metadata/name, value: web}",
	"- {op: test, path: /metadata/name, value: api}",
	"- {op: test, path: /metadata/annotations, value: null}",
	"- {op: test, path: /metadata/missing}",
	// values and parsing
	"- {op: add, path: /metadata/labels/on, value: on}",
	"- {op: add, path: /v, value: {y: n, o: 0777, f: 1.0, e: 1e3, list: [yes, '', ~]}}",
	`[{"op":"add","path":"/v","value":{"f":1.0,"e":1E3,"s":"\u00e9\n","z":[]}}]`,
	` [{"op":"add","path":"/v","value":yes}]`,
	`- op: add
  path: /v
  value: |
    multi
    line`,
	"- {op: bogus, path: /x}",
	"- {op: add, path: /x}",
	"[{]",
	"not: [a list",
	"- {op: add, path: /v, value: 1}\n- {op: replace, path: /nothing, value: 1}",
}

func TestAgainstUpstream(t *testing.T) {
	for _, doc := range []string{commentedPod, deployment} {
		for i, patch := range differentialPatches {
			t.Run(fmt.Sprintf("%s/%d", yaml.MustParse(doc).GetKind(), i), func(t *testing.T) {
				checkAgainstUpstream(t, doc, patch)
			})
		}
	}
}

func checkAgainstUpstream(t *testing.T, doc, patch string) {
	t.Helper()
	rn := yaml.MustParse(doc)
	before, err := rn.MarshalJSON()
	require.NoError(t, err)
	want, wantErr := upstream(before, patch)
	err = Apply(rn, patch)
	after, jerr := rn.MarshalJSON()
	require.NoError(t, jerr)
	if wantErr != nil {
		require.EqualError(t, err, wantErr.Error(), "patch %s", patch)
		assert.Equal(t, doc, rn.MustString(), "a failed patch must leave the resource alone")
		return
	}
	require.NoError(t, err, "patch %s", patch)
	var w, g any
	require.NoError(t, json.Unmarshal(want, &w))
	require.NoError(t, json.Unmarshal(after, &g))
	assert.Equal(t, w, g, "patch %s", patch)
	// the result must read back the same
	again, err := yaml.Parse(rn.MustString())
	require.NoError(t, err)
	back, err := again.MarshalJSON()
	require.NoError(t, err)
	assert.JSONEq(t, string(after), string(back))
}
