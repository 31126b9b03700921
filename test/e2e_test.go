// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// requireTool finds an end-to-end tool on PATH. Without it the test is
// skipped, unless APPLY_OVERRIDES_E2E=require (as .ci/run sets) makes that a
// failure.
func requireTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("APPLY_OVERRIDES_E2E") == "require" {
			t.Fatalf("%s is not on PATH and APPLY_OVERRIDES_E2E=require", name)
		}
		t.Skipf("%s is not on PATH (set APPLY_OVERRIDES_E2E=require to make this a failure)", name)
	}
	return p
}

// copyExample copies examples/<name> (without .expected) to a temp dir.
func copyExample(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join(repoRoot, "examples", name)
	dst := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.CopyFS(dst, os.DirFS(src)))
	require.NoError(t, os.RemoveAll(filepath.Join(dst, ".expected")))
	return dst
}

// replaceInFile points a copied example at the binary or image under test.
func replaceInFile(t *testing.T, path, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Contains(t, string(b), old)
	require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o644))
}

func expected(example, file string) string {
	return filepath.Join(repoRoot, "examples", example, ".expected", file)
}

func run(t *testing.T, dir string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s %s:\n%s", name, strings.Join(args, " "), out)
	return string(out)
}

// TestE2EKptEval runs `kpt fn eval --exec` on examples/kpt-eval.
func TestE2EKptEval(t *testing.T) {
	kpt := requireTool(t, "kpt")
	pkg := copyExample(t, "kpt-eval")
	cmd := exec.Command(kpt, "fn", "eval", pkg, "--exec", binary, "-o", "unwrap", "--", "cluster=member1")
	out, err := cmd.Output()
	require.NoError(t, err)
	compareGolden(t, expected("kpt-eval", "member1.yaml"), string(out))

	// In place: the package itself is rewritten, comments kept.
	run(t, filepath.Dir(pkg), kpt, "fn", "eval", pkg, "--exec", binary, "--", "cluster=member1")
	got, err := os.ReadFile(filepath.Join(pkg, "resources.yaml"))
	require.NoError(t, err)
	compareGolden(t, expected("kpt-eval", "resources.yaml"), string(got))
	assert.NoFileExists(t, filepath.Join(pkg, "policies.yaml"), "policies are dropped without keepPolicies")
}

// TestE2EKptRender runs `kpt fn render --allow-exec` twice on
// examples/kpt-render: the second run must change nothing.
func TestE2EKptRender(t *testing.T) {
	kpt := requireTool(t, "kpt")
	pkg := copyExample(t, "kpt-render")
	replaceInFile(t, filepath.Join(pkg, "Kptfile"), "exec: bin/apply-overrides", "exec: "+binary)

	for i := 0; i < 2; i++ {
		run(t, filepath.Dir(pkg), kpt, "fn", "render", pkg, "--allow-exec")
		for _, f := range []string{"Kptfile", "resources.yaml", "policies.yaml", "clusters.yaml", "apply-overrides.yaml"} {
			b, err := os.ReadFile(filepath.Join(pkg, f))
			require.NoError(t, err)
			got := strings.ReplaceAll(string(b), binary, "bin/apply-overrides")
			if i == 0 {
				compareGolden(t, expected("kpt-render", f), got)
				continue
			}
			want, err := os.ReadFile(expected("kpt-render", f))
			require.NoError(t, err)
			assert.Equal(t, string(want), got, "second render changed %s", f)
		}
	}
}

// TestE2EKustomize runs the function as a kustomize exec transformer.
func TestE2EKustomize(t *testing.T) {
	kustomize := requireTool(t, "kustomize")
	dir := copyExample(t, "kustomize")
	replaceInFile(t, filepath.Join(dir, "apply-overrides.yaml"), "path: ../../bin/apply-overrides", "path: "+binary)
	out := run(t, dir, kustomize, "build", "--enable-alpha-plugins", "--enable-exec", ".")
	compareGolden(t, expected("kustomize", "output.yaml"), out)
}
