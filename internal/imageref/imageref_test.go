// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package imageref

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const digest = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

func TestParse(t *testing.T) {
	for in, want := range map[string]Components{
		"nginx":                             {Repository: "nginx"},
		"nginx:1.25":                        {Repository: "nginx", Tag: "1.25"},
		"ealen/echo":                        {Repository: "ealen/echo"},
		"localhost/app":                     {Registry: "localhost", Repository: "app"},
		"registry:5000/team/app:v1":         {Registry: "registry:5000", Repository: "team/app", Tag: "v1"},
		"docker.io/library/nginx@" + digest: {Registry: "docker.io", Repository: "library/nginx", Digest: digest},
		"gcr.io/app:v2@" + digest:           {Registry: "gcr.io", Repository: "app", Tag: "v2", Digest: digest},
	} {
		t.Run(in, func(t *testing.T) {
			got, err := Parse(in)
			require.NoError(t, err)
			assert.Equal(t, want, got)
			assert.Equal(t, in, got.String(), "String gives the input back")
		})
	}
	_, err := Parse("Nginx")
	assert.EqualError(t, err, "repository name must be lowercase")
}

func TestTagAndDigest(t *testing.T) {
	assert.True(t, IsTag("1.25-alpine"))
	assert.False(t, IsTag("1.25 alpine"))
	assert.False(t, IsTag(".hidden"))
	assert.True(t, IsDigest(digest))
	assert.False(t, IsDigest("sha256:abc"))
}

func TestSplitHostname(t *testing.T) {
	for name, want := range map[string][2]string{
		"nginx":        {"", "nginx"},
		"ealen/echo":   {"", "ealen/echo"},
		"my.reg/app":   {"my.reg", "app"},
		"reg:5000/a/b": {"reg:5000", "a/b"},
		"localhost/x":  {"localhost", "x"},
		"Upper/x":      {"", "Upper/x"},
	} {
		h, r := SplitHostname(name)
		assert.Equal(t, want, [2]string{h, r}, name)
	}
}
