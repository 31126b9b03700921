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

// runProgram runs a program with stdin, args and extra environment, in
// dir, and returns stdout, stderr and the exit status.
func runProgram(t *testing.T, prog, dir string, env []string, stdin []byte, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(prog, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), errb.String(), ee.ExitCode()
	}
	require.NoError(t, err)
	return out.String(), errb.String(), 0
}

// TestHandOverMatchesCEL: bin/apply-overrides (built without CEL) gives,
// on inputs with and without CEL policies and in each mode, exactly what
// bin/apply-overrides-cel gives: the output, the messages and the exit
// status.
func TestHandOverMatchesCEL(t *testing.T) {
	for _, tc := range []struct {
		name  string
		stdin string // a file fed on stdin, or ""
		args  []string
	}{
		{name: "MutatingAdmissionPolicy", stdin: "examples/admissionpolicy/resourcelist.yaml"},
		{name: "reinvocation", stdin: "examples/admissionpolicy/reinvocation.yaml"},
		{name: "Kyverno MutatingPolicy", stdin: "examples/kyverno/mutatingpolicy.yaml"},
		{name: "Kyverno kyverno.io only", stdin: "examples/kyverno/resourcelist.yaml"},
		{name: "no CEL", stdin: "examples/stdin/resourcelist.yaml"},
		{name: "render of a ResourceList", stdin: "examples/admissionpolicy/resourcelist.yaml", args: []string{"render"}},
		{name: "render of files", args: []string{"render", "examples/admissionpolicy/resourcelist.yaml"}},
		{name: "diff", args: []string{"diff", "examples/kyverno/mutatingpolicy.yaml"}},
		{name: "scoped reinvocation", stdin: "testdata/golden/admissionpolicy-reinvocation-scoped/input.yaml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdin []byte
			if tc.stdin != "" {
				var err error
				stdin, err = os.ReadFile(filepath.Join(repoRoot, tc.stdin))
				require.NoError(t, err)
			}
			out, errs, code := runProgram(t, binary, repoRoot, nil, stdin, tc.args...)
			wantOut, wantErrs, wantCode := runProgram(t, celBinary, repoRoot, nil, stdin, tc.args...)
			assert.Equal(t, wantCode, code, "exit status; stderr:\n%s", errs)
			assert.Equal(t, wantOut, out)
			assert.Equal(t, wantErrs, errs)
			assert.NotEmpty(t, out)
		})
	}
}

// TestHandOverFindsTheCELProgram: beside the program (through a symbolic
// link too), from $APPLY_OVERRIDES_CEL, on PATH, or a clear error.
func TestHandOverFindsTheCELProgram(t *testing.T) {
	input, err := os.ReadFile(filepath.Join(repoRoot, "examples/admissionpolicy/resourcelist.yaml"))
	require.NoError(t, err)
	want, _, code := runProgram(t, celBinary, repoRoot, nil, input)
	require.Equal(t, 0, code)

	alone := t.TempDir()
	lean := filepath.Join(alone, "apply-overrides")
	data, err := os.ReadFile(binary)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(lean, data, 0o755))
	noPath := []string{"PATH=" + t.TempDir(), "APPLY_OVERRIDES_CEL="}

	out, errs, code := runProgram(t, lean, alone, noPath, input)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "severity: error")
	assert.Equal(t, "[error] the input holds admissionregistration.k8s.io objects (first seen in stdin), which only apply-overrides-cel evaluates (Kubernetes MutatingAdmissionPolicies, Kyverno's CEL MutatingPolicies), and it was not found: looked for $APPLY_OVERRIDES_CEL (unset), "+filepath.Join(alone, "apply-overrides-cel")+", apply-overrides-cel on PATH; build both programs with make build (bin/), install it with go install github.com/apply-overrides/apply-overrides/cmd/apply-overrides-cel@VERSION next to this one, set $APPLY_OVERRIDES_CEL to its path, or use the container image, which has both\n", errs)

	// render and diff say it on stderr, naming the file.
	_, errs, code = runProgram(t, lean, repoRoot, noPath, nil, "render", "--all", "examples/admissionpolicy")
	assert.Equal(t, 1, code)
	assert.True(t, strings.HasPrefix(errs, "apply-overrides render: the input holds admissionregistration.k8s.io objects (first seen in examples/admissionpolicy/"), errs)

	out, errs, code = runProgram(t, lean, alone, []string{"PATH=" + t.TempDir(), "APPLY_OVERRIDES_CEL=" + celBinary}, input)
	assert.Equal(t, 0, code, errs)
	assert.Equal(t, want, out, "$APPLY_OVERRIDES_CEL")

	onPath := t.TempDir()
	require.NoError(t, os.Symlink(celBinary, filepath.Join(onPath, "apply-overrides-cel")))
	out, errs, code = runProgram(t, lean, alone, []string{"PATH=" + onPath, "APPLY_OVERRIDES_CEL="}, input)
	assert.Equal(t, 0, code, errs)
	assert.Equal(t, want, out, "on PATH")

	linked := filepath.Join(t.TempDir(), "apply-overrides")
	require.NoError(t, os.Symlink(binary, linked))
	out, errs, code = runProgram(t, linked, alone, noPath, input)
	assert.Equal(t, 0, code, errs)
	assert.Equal(t, want, out, "beside the program a symbolic link names")
}
