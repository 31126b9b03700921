// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package policy

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// TestReinvocation: a resource has no reinvocation context until an
// admission Set makes one; the second pass happens only when a plugin of
// the first asked for it, and it marks the context.
func TestReinvocation(t *testing.T) {
	res := NewResource(yaml.MustParse("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"))
	assert.Nil(t, res.ReinvocationIfAny())
	assert.Nil(t, res.SecondPass(), "no context: no second pass")

	rc := res.Reinvocation()
	assert.Same(t, rc, res.Reinvocation(), "made once")
	assert.Same(t, rc, res.ReinvocationIfAny())
	rc.SetValue("plugin", 1)
	assert.Equal(t, 1, rc.Value("plugin"))
	assert.Nil(t, rc.Value("other"))
	assert.Nil(t, res.SecondPass(), "nobody asked for a second pass")
	assert.False(t, rc.IsReinvoke())

	rc.SetShouldReinvoke()
	assert.Same(t, rc, res.SecondPass())
	assert.True(t, rc.IsReinvoke())
	assert.Same(t, rc, res.SecondPass(), "every plugin of the second pass sees it")
}
