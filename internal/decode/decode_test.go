// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package decode

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

type item struct {
	Path   string            `yaml:"path" required:"true"`
	Value  *yaml.Node        `yaml:"value"`
	Labels map[string]string `yaml:"labels"`
}

type doc struct {
	Items []item `yaml:"items" required:"true"`
}

func TestDecodeNulls(t *testing.T) {
	testCases := map[string]struct {
		in           string
		strict, crd  []string // errors, as strings
		crdLabels    map[string]string
		strictLabels map[string]string
	}{
		"null required field": {
			in:     "items: [{path: null}]",
			strict: nil,
			crd:    []string{"items[0].path: Required value"},
		},
		"comment only": {
			in:     "items: # none yet\n",
			strict: nil,
			crd:    []string{"items: Required value"},
		},
		"null list item": {
			in:     "items: [null]",
			strict: nil,
			crd:    []string{`items[0]: Invalid value: "null": must be of type object`},
		},
		"null map value": {
			in:           "items: [{path: /a, labels: {a: null, b: x}}]",
			crdLabels:    map[string]string{"b": "x"},
			strictLabels: map[string]string{"a": "", "b": "x"},
		},
		"wrong type": {
			in:     "items: [{path: [a]}]",
			strict: []string{`items[0].path: Invalid value: "array": must be of type string`},
			crd:    []string{`items[0].path: Invalid value: "array": must be of type string`},
		},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			n, err := yaml.Parse(tc.in)
			require.NoError(t, err)
			for _, mode := range []struct {
				o      Options
				want   []string
				labels map[string]string
			}{{Options{}, tc.strict, tc.strictLabels}, {Options{CRD: true}, tc.crd, tc.crdLabels}} {
				var d doc
				var got []string
				for _, e := range mode.o.Decode(n.YNode(), nil, &d) {
					got = append(got, e.Error())
				}
				assert.Equal(t, mode.want, got, "CRD: %v", mode.o.CRD)
				if mode.labels != nil {
					assert.Equal(t, mode.labels, d.Items[0].Labels, "CRD: %v", mode.o.CRD)
				}
			}
		})
	}
}
