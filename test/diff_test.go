// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDiffReports runs apply-overrides diff on examples/fan-out (each
// cluster against the input) and on testdata/diff/{base,head} (two
// revisions) and compares the reports with the goldens in
// testdata/diff/expected (-update rewrites them). The manifests carry
// comments, so a diff that lost them fails.
func TestDiffReports(t *testing.T) {
	fanOut := filepath.Join(repoRoot, "examples", "fan-out")
	base := filepath.Join(repoRoot, "testdata", "diff", "base")
	head := filepath.Join(repoRoot, "testdata", "diff", "head")
	for _, tc := range []struct {
		golden string
		args   []string
		code   int
	}{
		{"fan-out.md", []string{"--all", fanOut}, 0},
		{"fan-out.json", []string{"--all", "-o", "json", fanOut}, 0},
		{"revisions.md", []string{"--all", "--base", base, head}, 0},
		{"revisions.json", []string{"--all", "--base", base, "-o", "json", head}, 0},
		{"revisions-cut.md", []string{"--all", "--base", base, "--max-bytes", "1500", head, "--exit-code"}, 3},
		{"input-member2.md", []string{"--cluster", "member2", head}, 0},
		{"no-difference.md", []string{"--all", "--base", head, head, "--exit-code"}, 0},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			stdout, stderr, code := runBinary(t, nil, append([]string{"diff"}, tc.args...)...)
			require.Equal(t, tc.code, code, "stderr:\n%s", stderr)
			assert.Empty(t, string(stderr))
			compareGolden(t, filepath.Join(repoRoot, "testdata", "diff", "expected", tc.golden), string(stdout))
			if strings.HasSuffix(tc.golden, ".json") {
				var v map[string]any
				require.NoError(t, json.Unmarshal(stdout, &v))
				assert.Equal(t, "DiffReport", v["kind"])
			}
			if strings.HasSuffix(tc.golden, "-cut.md") {
				assert.LessOrEqual(t, len(stdout), 1500)
			}
		})
	}
}

// TestDiffFailsAsRender holds diff's errors to render's: a bad input fails
// with the same results on stderr, exit status 1, and nothing on stdout;
// in the base revision, each line says so.
func TestDiffFailsAsRender(t *testing.T) {
	fanOut := filepath.Join(repoRoot, "examples", "fan-out")
	_, renderErr, code := runBinary(t, nil, "render", "--cluster", "member9", fanOut)
	require.Equal(t, 1, code)
	stdout, stderr, code := runBinary(t, nil, "diff", "--cluster", "member9", fanOut)
	assert.Equal(t, 1, code)
	assert.Empty(t, string(stdout))
	assert.Equal(t, string(renderErr), string(stderr))
	assert.Equal(t, "[error] cluster \"member9\" is not in the inventory; known clusters: member1, member2, staging\n", string(stderr))

	// The base revision (its manifests only, no inventory) fails, the head
	// renders.
	stdout, stderr, code = runBinary(t, nil, "diff", "--cluster", "member1",
		"--base", filepath.Join(repoRoot, "testdata", "diff", "base", "app.yaml"), filepath.Join(repoRoot, "testdata", "diff", "head"))
	assert.Equal(t, 1, code)
	assert.Empty(t, string(stdout))
	assert.Regexp(t, `^base revision: \[error\] cluster "member1" is not in the inventory; no clusters are known: [^\n]*\n$`, string(stderr))
}

// TestDiffMatchesRenderOnGoldens runs diff and render on every golden
// ResourceList: the same exit status and the same lines on stderr, and,
// on success, a report.
func TestDiffMatchesRenderOnGoldens(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join(repoRoot, "testdata", "golden", "*", "input.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, inputs)
	for _, in := range inputs {
		t.Run(filepath.Base(filepath.Dir(in)), func(t *testing.T) {
			list, err := os.ReadFile(in)
			require.NoError(t, err)
			_, renderErr, renderCode := runBinary(t, list, "render")
			stdout, stderr, code := runBinary(t, list, "diff")
			assert.Equal(t, renderCode, code)
			assert.Equal(t, string(renderErr), string(stderr))
			if code == 0 {
				assert.True(t, strings.HasPrefix(string(stdout), "## apply-overrides diff\n"), "%s", stdout)
			} else {
				assert.Empty(t, string(stdout))
			}
		})
	}
}
