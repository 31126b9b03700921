// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package test

import (
	"bytes"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

// workspace lays out in a temp dir what the README's commands expect at the
// repository root: bin/apply-overrides (the binary under test) and
// bin/apply-overrides-cel (which it hands CEL inputs to), and verbatim
// copies of the named examples, so that the commands run with the paths the
// README gives and may write in place. It returns the temp dir.
func workspace(t *testing.T, examples ...string) string {
	t.Helper()
	ws := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(ws, "bin"), 0o755))
	require.NoError(t, os.Symlink(binary, filepath.Join(ws, "bin", "apply-overrides")))
	require.NoError(t, os.Symlink(celBinary, filepath.Join(ws, "bin", "apply-overrides-cel")))
	for _, name := range examples {
		require.NoError(t, os.CopyFS(filepath.Join(ws, "examples", name), os.DirFS(filepath.Join(repoRoot, "examples", name))))
	}
	return ws
}

// expected is where an example's expected output lives: under
// testdata/examples/<example>, outside the package that kpt and kustomize
// read.
func expected(example string, elem ...string) string {
	return filepath.Join(append([]string{repoRoot, "testdata", "examples", example}, elem...)...)
}

// run runs a command in dir and returns its stdout; a failure shows stderr.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "%s %s:\nstderr:\n%s", name, strings.Join(args, " "), stderr.String())
	return string(out)
}

// readTree reads every regular file under dir, by slash-separated relative
// path.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	require.NoError(t, fs.WalkDir(os.DirFS(dir), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(path)))
		files[path] = string(b)
		return err
	}))
	return files
}

// assertTreeEqual checks that two directories hold the same files with the
// same contents.
func assertTreeEqual(t *testing.T, want, got string, msg string) {
	t.Helper()
	w, g := readTree(t, want), readTree(t, got)
	assert.Equal(t, sortedKeys(w), sortedKeys(g), "%s: files of %s", msg, got)
	for path, content := range w {
		if gc, ok := g[path]; ok {
			assert.Equal(t, content, gc, "%s: %s", msg, path)
		}
	}
}

func sortedKeys(m map[string]string) []string {
	return slices.Sorted(maps.Keys(m))
}

// compareGoldenTree compares a directory with the expected one; -update
// replaces the expected directory with it.
func compareGoldenTree(t *testing.T, want, got string) {
	t.Helper()
	if *update {
		require.NoError(t, os.RemoveAll(want))
		require.NoError(t, os.CopyFS(want, os.DirFS(got)))
		return
	}
	assertTreeEqual(t, want, got, "expected "+want)
}

// TestExamplesArePlainPackages guards what kpt and kustomize read: an example
// is one flat directory of its own files. Expected outputs live in
// testdata/examples; a hidden or nested directory here (such as the old
// .expected/) is read by kpt as part of the package, and a nested Kptfile
// makes it a sub-package that kpt fn render runs too.
func TestExamplesArePlainPackages(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join(repoRoot, "examples"))
	require.NoError(t, err)
	require.NotEmpty(t, entries)
	for _, ex := range entries {
		require.True(t, ex.IsDir(), "examples/%s: examples/ holds only example directories", ex.Name())
		files, err := os.ReadDir(filepath.Join(repoRoot, "examples", ex.Name()))
		require.NoError(t, err)
		for _, f := range files {
			assert.False(t, f.IsDir(), "examples/%s/%s: an example holds no directory (expected outputs go to testdata/examples/%[1]s)", ex.Name(), f.Name())
			assert.False(t, strings.HasPrefix(f.Name(), "."), "examples/%s/%s: an example holds no hidden file (kpt reads it)", ex.Name(), f.Name())
		}
	}
}

// TestE2EKptEval runs the README's `kpt fn eval --exec` commands on
// examples/kpt-eval: the preview, the in-place render and the
// source | eval | sink pipeline.
func TestE2EKptEval(t *testing.T) {
	kpt := requireTool(t, "kpt")
	ws := workspace(t, "kpt-eval")
	pkg := filepath.Join(ws, "examples", "kpt-eval")

	out := run(t, ws, nil, kpt, "fn", "eval", "examples/kpt-eval", "--exec", "bin/apply-overrides", "-o", "unwrap", "--", "cluster=member1")
	compareGolden(t, expected("kpt-eval", "member1.yaml"), out)
	assertTreeEqual(t, filepath.Join(repoRoot, "examples", "kpt-eval"), pkg, "a preview leaves the package untouched")

	// In place: the package itself is rewritten, comments kept; policies
	// and clusters are dropped without keepPolicies.
	run(t, ws, nil, kpt, "fn", "eval", "examples/kpt-eval", "--exec", "bin/apply-overrides", "--", "cluster=member1")
	compareGoldenTree(t, expected("kpt-eval", "in-place"), pkg)

	// source | eval | sink writes the same files into a new directory.
	require.NoError(t, os.RemoveAll(pkg))
	require.NoError(t, os.CopyFS(pkg, os.DirFS(filepath.Join(repoRoot, "examples", "kpt-eval"))))
	sh := "kpt fn source examples/kpt-eval | kpt fn eval - --exec bin/apply-overrides -- cluster=member1 | kpt fn sink out/member1"
	run(t, ws, nil, "bash", "-euo", "pipefail", "-c", sh)
	assertTreeEqual(t, expected("kpt-eval", "in-place"), filepath.Join(ws, "out", "member1"), "kpt fn sink")
}

// TestE2EKptRender runs `kpt fn render examples/kpt-render --allow-exec`
// twice on a verbatim copy of the package: the second run must change
// nothing.
func TestE2EKptRender(t *testing.T) {
	kpt := requireTool(t, "kpt")
	ws := workspace(t, "kpt-render")
	pkg := filepath.Join(ws, "examples", "kpt-render")

	out := run(t, ws, nil, kpt, "fn", "render", "examples/kpt-render", "--allow-exec", "-o", "unwrap")
	assert.Contains(t, out, "apply-overrides.dev/cluster: member1")
	assertTreeEqual(t, filepath.Join(repoRoot, "examples", "kpt-render"), pkg, "-o unwrap leaves the package untouched")

	run(t, ws, nil, kpt, "fn", "render", "examples/kpt-render", "--allow-exec")
	compareGoldenTree(t, expected("kpt-render"), pkg)
	run(t, ws, nil, kpt, "fn", "render", "examples/kpt-render", "--allow-exec")
	assertTreeEqual(t, expected("kpt-render"), pkg, "the second render changed the package")
}

// TestE2EKustomize runs the function as a kustomize exec transformer, with
// the README's command on a verbatim copy of examples/kustomize.
func TestE2EKustomize(t *testing.T) {
	kustomize := requireTool(t, "kustomize")
	ws := workspace(t, "kustomize")
	out := run(t, ws, nil, kustomize, "build", "--enable-alpha-plugins", "--enable-exec", "examples/kustomize")
	compareGolden(t, expected("kustomize", "output.yaml"), out)
}

// TestE2EPlacement renders examples/placement, ACK One's propagation
// example, for both clusters with the README's commands: kpt fn render
// for the first (twice: the second render changes nothing), and a plain
// pipe from kpt fn source for the second.
func TestE2EPlacement(t *testing.T) {
	renderThenPipe(t, "placement", "cluster1", "render-cluster2.yaml", "cluster2.yaml",
		"replicas: 2 # divided 2:1 between the two clusters", "replicas: 1 # divided 2:1 between the two clusters")
}

// renderThenPipe runs a two-cluster example with the README's commands:
// kpt fn render for the cluster its Kptfile names (once with -o unwrap,
// whose output holds first; then twice in place: the package must equal
// testdata/examples/<example>/<tree>, and the second render change
// nothing), and a pipe from kpt fn source with the other function config
// (fnConfig), whose output holds second and equals <golden>.
func renderThenPipe(t *testing.T, example, tree, fnConfig, golden, first, second string) {
	kpt := requireTool(t, "kpt")
	ws := workspace(t, example)
	pkg := filepath.Join(ws, "examples", example)

	out := run(t, ws, nil, kpt, "fn", "render", "examples/"+example, "--allow-exec", "-o", "unwrap")
	assert.Contains(t, out, first)
	assertTreeEqual(t, filepath.Join(repoRoot, "examples", example), pkg, "-o unwrap leaves the package untouched")

	run(t, ws, nil, kpt, "fn", "render", "examples/"+example, "--allow-exec")
	compareGoldenTree(t, expected(example, tree), pkg)
	run(t, ws, nil, kpt, "fn", "render", "examples/"+example, "--allow-exec")
	assertTreeEqual(t, expected(example, tree), pkg, "the second render changed the package")

	ws = workspace(t, example)
	out = run(t, ws, nil, "bash", "-c", "set -o pipefail; kpt fn source examples/"+example+" --fn-config examples/"+example+"/"+fnConfig+" | bin/apply-overrides")
	assert.Contains(t, out, second)
	compareGolden(t, expected(example, golden), out)
}

// TestExampleKubeAdmiralPlacement renders examples/kubeadmiral-placement
// for both of its clusters, the second by naming it in the functionConfig:
// member-1 gets 4 of the web Deployment's 6 replicas, its ConfigMap and
// the production StatefulSet; member-2 gets 2 replicas and the ConfigMap.
func TestExampleKubeAdmiralPlacement(t *testing.T) {
	input, err := os.ReadFile(filepath.Join(repoRoot, "examples", "kubeadmiral-placement", "resourcelist.yaml"))
	require.NoError(t, err)
	for _, cluster := range []string{"kubeadmiral-member-1", "kubeadmiral-member-2"} {
		t.Run(cluster, func(t *testing.T) {
			in := string(input)
			i := strings.LastIndex(in, "cluster: kubeadmiral-member-1")
			require.Positive(t, i, "the functionConfig names the cluster last")
			in = in[:i] + "cluster: " + cluster + in[i+len("cluster: kubeadmiral-member-1"):]
			stdout, stderr, code := runBinary(t, []byte(in))
			require.Equal(t, 0, code, "stderr:\n%s", stderr)
			compareGolden(t, expected("kubeadmiral-placement", cluster+".yaml"), string(stdout))
		})
	}
}

// TestE2EFanOut runs the README's fan-out command on examples/fan-out:
// `kpt fn eval --output` writes one folder per cluster, each holding what
// that cluster receives, comments and file layout kept; the staging
// cluster gets no Deployment (placement). kustomize cannot take the
// duplicated resources, and says so.
func TestE2EFanOut(t *testing.T) {
	kpt := requireTool(t, "kpt")
	ws := workspace(t, "fan-out")
	run(t, ws, nil, kpt, "fn", "eval", "examples/fan-out", "--exec", "bin/apply-overrides", "--output", "out/fan-out", "--", "render=*")
	compareGoldenTree(t, expected("fan-out", "by-cluster"), filepath.Join(ws, "out", "fan-out"))
	assertTreeEqual(t, filepath.Join(repoRoot, "examples", "fan-out"), filepath.Join(ws, "examples", "fan-out"), "--output leaves the package untouched")

	kustomize := requireTool(t, "kustomize")
	dir := filepath.Join(ws, "examples", "fan-out")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte("resources: [resources.yaml, policies.yaml, clusters.yaml]\ntransformers: [fn.yaml]\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "fn.yaml"), []byte(`apiVersion: apply-overrides.dev/v1alpha1
kind: ApplyOverrides
metadata:
  name: fan-out
  annotations:
    config.kubernetes.io/function: |
      exec:
        path: ../../bin/apply-overrides
spec:
  render:
    clusters: ["*"]
`), 0o644))
	cmd := exec.Command(kustomize, "build", "--enable-alpha-plugins", "--enable-exec", "examples/fan-out")
	cmd.Dir = ws
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "kustomize takes no duplicated resource ids:\n%s", out)
	assert.Contains(t, string(out), `generated duplicate resource: {"group":"apps","version":"v1","kind":"Deployment","name":"web","namespace":"shop"}`)
}

// TestE2EKubeFleet renders examples/kubefleet, a KubeFleet fleet of two
// MemberClusters, with the README's commands: kpt fn render for member1
// (twice: the second render changes nothing), and a pipe from kpt fn
// source for member2. member1 (production) gets three replicas, its
// region and no debug settings (a Delete override); member2, whose taint
// the placement tolerates, gets the package with its own region.
func TestE2EKubeFleet(t *testing.T) {
	renderThenPipe(t, "kubefleet", "member1", "render-member2.yaml", "member2.yaml",
		"value: eastus # the cluster's region label", "value: westus # the cluster's region label")
}
