// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package test

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRenderCommand runs apply-overrides render through the binary on the
// examples: its stdout is what `kpt fn eval -o unwrap` prints, its -o DIR
// what `kpt fn eval --output DIR` writes.
func TestRenderCommand(t *testing.T) {
	out, stderr, code := runBinary(t, nil, "render", "--cluster", "member1", filepath.Join(repoRoot, "examples", "kpt-eval"))
	require.Equal(t, 0, code, "stderr:\n%s", stderr)
	assert.Empty(t, string(stderr))
	want, err := os.ReadFile(expected("kpt-eval", "member1.yaml"))
	require.NoError(t, err)
	assert.Equal(t, string(want), string(out))

	dir := filepath.Join(t.TempDir(), "fan-out")
	out, stderr, code = runBinary(t, nil, "render", "--all", "-o", dir, filepath.Join(repoRoot, "examples", "fan-out"))
	require.Equal(t, 0, code, "stderr:\n%s", stderr)
	assert.Empty(t, string(out))
	for _, c := range []string{"member1", "member2", "staging"} {
		want, err := os.ReadFile(expected("fan-out", "by-cluster", c, "resources.yaml"))
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join(dir, c, "resources.yaml"))
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), c)
	}

	_, stderr, code = runBinary(t, nil, "render", "--cluster", "member9", filepath.Join(repoRoot, "examples", "kpt-eval"))
	assert.Equal(t, 1, code)
	assert.Equal(t, "[error] cluster \"member9\" is not in the inventory; known clusters: member1, member2\n", string(stderr))
	_, _, code = runBinary(t, nil, "render", "--bogus")
	assert.Equal(t, 2, code)

	version, _, code := runBinary(t, nil, "--version")
	assert.Equal(t, 0, code)
	assert.Regexp(t, regexp.MustCompile(`^apply-overrides v\d+\.\d+\.\d+\S*\n$`), string(version))
}
