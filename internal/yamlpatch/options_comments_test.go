// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlpatch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const commentedOptionsDoc = `# head
metadata:
  name: web # the name
  annotations: # none yet
  labels: ~ # null labels
spec: # the spec
  replicas: 2 # two
  flow: {a: 1} # flow
  list:
    - x # item
`

// TestOptionsKeepComments checks the rendered YAML after options did their
// work: created parents are block style under block parents and flow under
// flow ones, the comment of a replaced null stays on its key's line, and
// everything else is untouched. Each case is also held against evanphx.
func TestOptionsKeepComments(t *testing.T) {
	both := Options{EnsurePathExistsOnAdd: true, AllowMissingPathOnRemove: true}
	tests := map[string]struct{ patch, old, new string }{
		"new parent": {
			`[{"op":"add","path":"/metadata/extra/app","value":"web"}]`,
			"  labels: ~ # null labels\n", "  labels: ~ # null labels\n  extra:\n    app: \"web\"\n",
		},
		"empty null with key comment": {
			`[{"op":"add","path":"/metadata/annotations/x","value":"y"}]`,
			"  annotations: # none yet\n", "  annotations: # none yet\n    x: \"y\"\n",
		},
		"null with line comment": {
			`[{"op":"add","path":"/metadata/labels/x","value":"y"}]`,
			"  labels: ~ # null labels\n", "  labels: # null labels\n    x: \"y\"\n",
		},
		"nested arrays and objects": {
			`[{"op":"add","path":"/spec/template/spec/containers/0/name","value":"c"}]`,
			"    - x # item\n", "    - x # item\n  template:\n    spec:\n      containers:\n        - name: \"c\"\n",
		},
		"inside flow": {
			`[{"op":"add","path":"/spec/flow/b/c","value":1}]`,
			"  flow: {a: 1} # flow\n", "  flow: {a: 1, b: {c: 1}} # flow\n",
		},
		"padded list": {
			`[{"op":"add","path":"/spec/list/2/c","value":1}]`,
			"    - x # item\n", "    - x # item\n    - null\n    - c: 1\n",
		},
		"remove missing": {
			`[{"op":"remove","path":"/spec/nothing/here"},{"op":"remove","path":"/spec/list/5"}]`,
			"", "",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			checkAgainstEvanphxWith(t, commentedOptionsDoc, tc.patch, false, both)
			n := node(t, commentedOptionsDoc)
			p, err := toPatch(tc.patch, false)
			require.NoError(t, err)
			require.NoError(t, p.ApplyWithOptions(n, both))
			assert.Equal(t, replaceIn(commentedOptionsDoc, tc.old, tc.new), render(t, n, commentedOptionsDoc))
		})
	}
}
