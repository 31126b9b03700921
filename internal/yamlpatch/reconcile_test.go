// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlpatch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func TestReconcile(t *testing.T) {
	testCases := map[string]struct {
		dst, src, want string
	}{
		"map keeps comments and order, appends new keys": {
			dst:  "# head\na: 1 # one\nb: 2 # two\nc: 3\n",
			src:  "c: 3\nd: 4\na: 1\n",
			want: "# head\na: 1 # one\nc: 3\nd: 4\n",
		},
		"changed scalar keeps its line comment": {
			dst:  "a: old # comment\n",
			src:  "a: new\n",
			want: "a: new # comment\n",
		},
		"quoted string stays quoted": {
			dst:  "a: \"x\" # c\n",
			src:  "a: y\n",
			want: "a: \"y\" # c\n",
		},
		"list keeps matched items and their comments": {
			dst:  "l:\n- a # first\n- b # second\n- c\n",
			src:  "l: [a, c, d]\n",
			want: "l:\n- a # first\n- c\n- d\n",
		},
		"list items between matches are reconciled in place": {
			dst:  "env:\n- name: A\n  value: x # old\n- name: B\n  value: y\n",
			src:  "env:\n- name: A\n  value: z\n- name: B\n  value: \"y\"\n",
			want: "env:\n- name: A\n  value: z # old\n- name: B\n  value: y\n",
		},
		"flow list stays flow": {
			dst:  "c: [a] # flow\n",
			src:  "c:\n- a\n- b\n",
			want: "c: [a, b] # flow\n",
		},
		"kind change keeps the node's comments": {
			dst:  "a: x # c\n",
			src:  "a:\n  b: 1\n",
			want: "a: # c\n  b: 1\n",
		},
		"empty map takes the new style": {
			dst:  "labels: {}\n",
			src:  "labels:\n  a: b\n",
			want: "labels:\n  a: b\n",
		},
		"equal number keeps its text": {
			dst:  "n: 1.50\n",
			src:  "n: 1.50\n",
			want: "n: 1.50\n",
		},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			dst, err := yaml.Parse(tc.dst)
			require.NoError(t, err)
			src, err := yaml.Parse(tc.src)
			require.NoError(t, err)
			require.NoError(t, Reconcile(dst.YNode(), src.YNode()))
			assert.Equal(t, tc.want, dst.MustString())
		})
	}
}
