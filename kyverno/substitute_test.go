// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyverno

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestMutateOnly: a rule's mutate part is substituted alone only when
// nothing else in the rule holds a variable or a reference and mutate
// holds no reference (which reads the whole rule).
func TestMutateOnly(t *testing.T) {
	mutate := map[string]any{"patchStrategicMerge": map[string]any{"metadata": map[string]any{"labels": map[string]any{"+(a)": "{{request.object.metadata.namespace}}"}}}}
	for name, tc := range map[string]struct {
		doc  any
		want bool
	}{
		"variable in mutate only":   {map[string]any{"name": "r", "match": map[string]any{"any": []any{"x"}}, "mutate": mutate}, true},
		"variable in preconditions": {map[string]any{"name": "r", "preconditions": map[string]any{"any": []any{map[string]any{"key": "{{x}}"}}}, "mutate": mutate}, false},
		"variable in a key":         {map[string]any{"name": "r", "match": map[string]any{"{{k}}": "v"}, "mutate": mutate}, false},
		"reference in mutate":       {map[string]any{"name": "r", "mutate": map[string]any{"patchStrategicMerge": map[string]any{"a": "$(../b)"}}}, false},
		"reference elsewhere":       {map[string]any{"name": "$(x)", "mutate": mutate}, false},
		"no mutate":                 {map[string]any{"name": "r"}, false},
		"not a map":                 {[]any{"x"}, false},
	} {
		t.Run(name, func(t *testing.T) {
			m, ok := mutateOnly(tc.doc)
			assert.Equal(t, tc.want, ok)
			if ok {
				assert.Equal(t, tc.doc.(map[string]any)["mutate"], m)
			}
		})
	}
}
