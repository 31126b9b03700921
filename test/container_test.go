// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// containerImage is the image `make image` built, named by
// APPLY_OVERRIDES_IMAGE, which `make e2e-container` (and so .ci/run) sets.
// Without it the container tests are skipped; with it, a missing tool fails
// them under APPLY_OVERRIDES_E2E=require.
func containerImage(t *testing.T) string {
	t.Helper()
	img := os.Getenv("APPLY_OVERRIDES_IMAGE")
	if img == "" {
		t.Skip("APPLY_OVERRIDES_IMAGE is not set: run make e2e-container")
	}
	requireTool(t, "podman")
	if os.Getenv("CONTAINERS_CONF") == "" {
		t.Setenv("CONTAINERS_CONF", filepath.Join(repoRoot, "build", "containers.conf"))
	}
	return img
}

// exampleImage is the image the container examples name.
const exampleImage = "localhost/apply-overrides:dev"

// useImage points a copied example at the image under test when that is not
// the one the examples name (make e2e-container IMAGE=...); by default the
// copy stays verbatim.
func useImage(t *testing.T, path, img string) {
	t.Helper()
	if img == exampleImage {
		return
	}
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Contains(t, string(b), "image: "+exampleImage)
	require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(b), "image: "+exampleImage, "image: "+img, 1)), 0o644))
}

// TestContainerRun is the `docker run -i` way, with podman and the flags
// kpt and kustomize use.
func TestContainerRun(t *testing.T) {
	img := containerImage(t)
	input, err := os.ReadFile(filepath.Join(repoRoot, "examples", "stdin", "resourcelist.yaml"))
	require.NoError(t, err)
	cmd := exec.Command("podman", "run", "-i", "--rm", "--network", "none", "--user", "nobody",
		"--security-opt=no-new-privileges", "--pull", "never", img)
	cmd.Stdin = bytes.NewReader(input)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "stderr:\n%s", stderr.String())
	want, err := os.ReadFile(expected("stdin", "output.yaml"))
	require.NoError(t, err)
	assert.Equal(t, string(want), string(out))

	// The image holds both programs: a CEL input is handed over inside it.
	celInput, err := os.ReadFile(filepath.Join(repoRoot, "examples", "admissionpolicy", "resourcelist.yaml"))
	require.NoError(t, err)
	cmd = exec.Command("podman", "run", "-i", "--rm", "--network", "none", "--user", "nobody",
		"--security-opt=no-new-privileges", "--pull", "never", img)
	cmd.Stdin = bytes.NewReader(celInput)
	stderr.Reset()
	cmd.Stderr = &stderr
	out, err = cmd.Output()
	require.NoError(t, err, "stderr:\n%s", stderr.String())
	celWant, _, code := runProgram(t, celBinary, repoRoot, nil, celInput)
	require.Equal(t, 0, code)
	assert.Equal(t, celWant, string(out), "a MutatingAdmissionPolicy input in the container")

	version, err := exec.Command("podman", "run", "--rm", "--pull", "never", img, "--version").Output()
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(version), "apply-overrides "), "%s", version)
	labels, err := exec.Command("podman", "image", "inspect", "--format",
		`{{index .Labels "org.opencontainers.image.source"}} {{index .Labels "org.opencontainers.image.version"}}`, img).Output()
	require.NoError(t, err)
	fields := strings.Fields(string(labels))
	require.Len(t, fields, 2, "OCI labels: %s", labels)
	assert.Equal(t, "https://github.com/apply-overrides/apply-overrides", fields[0])
	assert.Equal(t, strings.TrimSpace(strings.TrimPrefix(string(version), "apply-overrides ")), fields[1])
}

// TestContainerKptEval runs `kpt fn eval --image` with podman as kpt's
// runtime.
func TestContainerKptEval(t *testing.T) {
	img := containerImage(t)
	kpt := requireTool(t, "kpt")
	ws := workspace(t, "kpt-eval")
	out := run(t, ws, []string{"KPT_FN_RUNTIME=podman"}, kpt, "fn", "eval", "examples/kpt-eval", "--image", img,
		"--image-pull-policy", "never", "-o", "unwrap", "--", "cluster=member1")
	want, err := os.ReadFile(expected("kpt-eval", "member1.yaml"))
	require.NoError(t, err)
	assert.Equal(t, string(want), out)
}

// TestContainerKptRender renders examples/kpt-render-image, whose Kptfile
// names the image, twice: the second render must change nothing.
func TestContainerKptRender(t *testing.T) {
	img := containerImage(t)
	kpt := requireTool(t, "kpt")
	ws := workspace(t, "kpt-render-image")
	pkg := filepath.Join(ws, "examples", "kpt-render-image")
	useImage(t, filepath.Join(pkg, "Kptfile"), img)
	for i := 0; i < 2; i++ {
		run(t, ws, []string{"KPT_FN_RUNTIME=podman"}, kpt, "fn", "render", "examples/kpt-render-image", "--image-pull-policy", "never")
		for _, f := range []string{"resources.yaml", "policies.yaml", "clusters.yaml"} {
			got, err := os.ReadFile(filepath.Join(pkg, f))
			require.NoError(t, err)
			want, err := os.ReadFile(expected("kpt-render", f))
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got), "render %d: %s", i+1, f)
		}
	}
}

// TestContainerKustomize runs a kustomize container transformer; kustomize
// hard-codes `docker`, so a shim on PATH hands the call to podman.
func TestContainerKustomize(t *testing.T) {
	img := containerImage(t)
	kustomize := requireTool(t, "kustomize")
	ws := workspace(t, "kustomize-container")
	useImage(t, filepath.Join(ws, "examples", "kustomize-container", "apply-overrides.yaml"), img)
	shim := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(shim, "docker"), []byte("#!/bin/sh\nexec podman \"$@\"\n"), 0o755))
	out := run(t, ws, []string{"PATH=" + shim + string(os.PathListSeparator) + os.Getenv("PATH")},
		kustomize, "build", "--enable-alpha-plugins", "examples/kustomize-container")
	want, err := os.ReadFile(expected("kustomize", "output.yaml"))
	require.NoError(t, err)
	assert.Equal(t, string(want), out)
}

// TestContainerReadme runs the README's container blocks (marked
// <!-- doctest: container -->) in README order in a fresh copy of the
// repository, as TestE2EReadme runs the others. CONTAINERS_CONF is removed
// from their environment: the blocks must set what podman needs themselves.
// Without a Docker engine, a `docker` on PATH hands `docker run` to podman.
// The blocks' `make image` rebuilds the image from the copy (version "dev")
// under the README's name; it runs last, after the other container tests.
func TestContainerReadme(t *testing.T) {
	containerImage(t)
	var blocks []docBlock
	for _, b := range readmeBlocks(t) {
		if b.mode == "container" {
			blocks = append(blocks, b)
		}
	}
	require.NotEmpty(t, blocks)
	ws := copyTracked(t)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CONTAINERS_CONF=") && !strings.HasPrefix(kv, "PATH=") {
			env = append(env, kv)
		}
	}
	path := os.Getenv("PATH")
	if exec.Command("docker", "info").Run() != nil {
		shim := t.TempDir()
		script := "#!/bin/sh\nCONTAINERS_CONF=${CONTAINERS_CONF:-" + filepath.Join(ws, "build", "containers.conf") + "} exec podman \"$@\"\n"
		require.NoError(t, os.WriteFile(filepath.Join(shim, "docker"), []byte(script), 0o755))
		path = shim + string(os.PathListSeparator) + path
	}
	env = append(env, "PATH="+path)
	for _, b := range blocks {
		t.Run(b.name(), func(t *testing.T) { runBlock(t, ws, env, b) })
	}
}
