// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package jsonpatch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func TestExplain(t *testing.T) {
	tests := map[string]struct{ patch, want string }{
		"not YAML":          {"- op: [", "failed to convert patchesJSON6902 to JSON: not valid YAML: line 1: did not find expected node content"},
		"not a list":        {"op: add", `failed to decode patches: the patch is a YAML or JSON object, not a list of operations such as "- {op: add, path: /metadata/labels/team, value: a}"`},
		"item not a map":    {"- add", "failed to decode patches: an operation is a string, not an object such as {op: add, path: /metadata/labels/team, value: a}"},
		"path not a string": {"- {op: remove, path: 1}", `failed to decode patches: invalid operation {"op":"remove","path":1}: failed to decode 'path': a number where a string belongs`},
		"kept":              {"- {op: replace, path: /a, value: 1}", "replace operation does not apply: doc is missing key: /a: missing value"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			err := Apply(yaml.MustParse("{}\n"), tc.patch)
			require.Error(t, err)
			assert.Equal(t, tc.want, Explain(err).Error())
		})
	}
	err := Validate("op: add")
	require.Error(t, err)
	var ve *ValidationError
	require.ErrorAs(t, Explain(err), &ve)
	assert.Equal(t, `path must begin with a forward slash: spec.rules[0]: the patch is a YAML or JSON object, not a list of operations such as "- {op: add, path: /metadata/labels/team, value: a}"`, ve.Message("spec.rules[0]"))
	assert.Nil(t, Explain(nil))
}
