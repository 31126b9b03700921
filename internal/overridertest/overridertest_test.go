// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overridertest

import (
	"errors"
	"testing"

	"github.com/distribution/reference"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func TestHelpers(t *testing.T) {
	assert.Equal(t, "  a\n\n  b\n", Indent("a\n\nb\n", 2))
	n := Node(t, "{a: 1}")
	assert.Equal(t, yaml.MappingNode, n.Kind)
	assert.True(t, SameError(nil, nil))
	assert.True(t, SameError(errors.New("x"), errors.New("x")))
	assert.False(t, SameError(errors.New("x"), nil))
	assert.False(t, SameError(errors.New("x"), errors.New("y")))
	for _, d := range OddDocuments {
		_, err := yaml.Parse(d)
		if d != "" {
			assert.NoError(t, err, d)
		}
	}
	_, err := yaml.Parse(BenchDeployment)
	require.NoError(t, err)
}

func TestReferenceHelpers(t *testing.T) {
	for s, want := range map[string][2]string{
		"nginx:1.25": {"", "nginx"},
		"ealen/echo": {"", "ealen/echo"},
		"my.reg:5000/a/b@" + "sha256:" + "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855": {"my.reg:5000", "a/b"},
		"localhost/x": {"localhost", "x"},
	} {
		ref, err := reference.Parse(s)
		require.NoError(t, err)
		CheckHostSplit(t, s, ref, want[0], want[1])
	}
	ref, err := reference.Parse("app:v1@sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
	require.NoError(t, err)
	tag, dgst := TagAndDigest(ref)
	assert.Equal(t, "v1", tag)
	assert.Equal(t, "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", dgst)
}
