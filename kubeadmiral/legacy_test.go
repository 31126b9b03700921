// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubeadmiral

import (
	"encoding/json"
	"testing"

	jsonpatchv4 "github.com/evanphx/json-patch"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
)

// TestApplyPatchMatchesV4 holds applyPatch to the library KubeAdmiral uses,
// evanphx/json-patch v5.6.0+incompatible's root package: same result or the
// same error text, for the operations KubeAdmiral can emit (no "from").
func TestApplyPatchMatchesV4(t *testing.T) {
	doc := `{"metadata":{"name":"x","labels":{"a":"1"},"finalizers":[]},"spec":{"list":[1,2,3],"m":{"k":"v"}}}`
	testCases := map[string]string{
		"replace existing":            `[{"op":"replace","path":"/spec/m/k","value":"w"}]`,
		"replace missing key adds":    `[{"op":"replace","path":"/spec/m/new","value":{"a":[1]}}]`,
		"replace missing parent":      `[{"op":"replace","path":"/spec/none/k","value":1}]`,
		"replace index":               `[{"op":"replace","path":"/spec/list/1","value":9}]`,
		"replace negative index":      `[{"op":"replace","path":"/spec/list/-1","value":9}]`,
		"replace index out of range":  `[{"op":"replace","path":"/spec/list/5","value":9}]`,
		"replace whole map":           `[{"op":"replace","path":"/metadata/labels","value":{"b":"2"}}]`,
		"replace with null":           `[{"op":"replace","path":"/spec/m","value":null}]`,
		"add key":                     `[{"op":"add","path":"/metadata/labels/c","value":"3"}]`,
		"add missing parent":          `[{"op":"add","path":"/spec/none/k","value":1}]`,
		"add append":                  `[{"op":"add","path":"/metadata/finalizers/-","value":"f"}]`,
		"add negative index":          `[{"op":"add","path":"/spec/list/-2","value":0}]`,
		"add index out of range":      `[{"op":"add","path":"/spec/list/7","value":0}]`,
		"remove key":                  `[{"op":"remove","path":"/spec/m/k"}]`,
		"remove missing key":          `[{"op":"remove","path":"/spec/m/none"}]`,
		"remove missing parent":       `[{"op":"remove","path":"/spec/none/k"}]`,
		"remove index":                `[{"op":"remove","path":"/spec/list/0"}]`,
		"test equal":                  `[{"op":"test","path":"/spec/m","value":{"k":"v"}}]`,
		"test unequal":                `[{"op":"test","path":"/spec/m/k","value":"w"}]`,
		"test missing":                `[{"op":"test","path":"/spec/none/k","value":1}]`,
		"empty path add":              `[{"op":"add","path":"","value":{}}]`,
		"empty path replace":          `[{"op":"replace","path":"","value":{}}]`,
		"empty path remove":           `[{"op":"remove","path":""}]`,
		"empty path test":             `[{"op":"test","path":"","value":{}}]`,
		"move without from":           `[{"op":"move","path":"/spec/x","value":null}]`,
		"copy without from":           `[{"op":"copy","path":"/spec/x","value":null}]`,
		"unknown op":                  `[{"op":"merge","path":"/spec/x","value":1}]`,
		"escaped key":                 `[{"op":"add","path":"/metadata/labels/a~1b","value":"x"}]`,
		"sequence of ops":             `[{"op":"replace","path":"/spec/m/k2","value":"a"},{"op":"remove","path":"/spec/list/1"},{"op":"add","path":"/spec/list/0","value":"z"}]`,
		"error after partial changes": `[{"op":"add","path":"/spec/m/z","value":1},{"op":"remove","path":"/spec/m/none"}]`,
	}
	for name, patchJSON := range testCases {
		t.Run(name, func(t *testing.T) {
			p, err := jsonpatchv4.DecodePatch([]byte(patchJSON))
			require.NoError(t, err)
			want, wantErr := p.Apply([]byte(doc))

			var ops []struct {
				Op    string          `json:"op"`
				Path  string          `json:"path"`
				Value json.RawMessage `json:"value"`
			}
			require.NoError(t, json.Unmarshal([]byte(patchJSON), &ops))
			var patch yamlpatch.Patch
			for _, op := range ops {
				o := yamlpatch.Operation{Op: op.Op, Path: op.Path}
				if len(op.Value) > 0 && string(op.Value) != "null" {
					v, err := yaml.Parse(string(op.Value))
					require.NoError(t, err)
					o.Value = v.YNode()
				}
				patch = append(patch, o)
			}
			got, err := yaml.Parse(doc)
			require.NoError(t, err)
			gotErr := applyPatch(patch, got.YNode())
			if wantErr != nil {
				require.Error(t, gotErr, "v4 failed with %v", wantErr)
				assert.Equal(t, wantErr.Error(), gotErr.Error())
				return
			}
			require.NoError(t, gotErr)
			gotJSON, err := got.MarshalJSON()
			require.NoError(t, err)
			assert.JSONEq(t, string(want), string(gotJSON))
		})
	}
}
