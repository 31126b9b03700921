// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// binary is the apply-overrides binary built once for this test run
// (without the CEL dialects, as make build builds it), and celBinary the
// whole function beside it.
var binary, celBinary string

// repoRoot is the module root, one level up from this package.
var repoRoot = func() string {
	wd, err := os.Getwd()
	if err != nil {
		panic(err)
	}
	return filepath.Dir(wd)
}()

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "apply-overrides-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// The two programs `make build` writes: the function without the CEL
	// dialects, and beside it the whole one it hands CEL inputs to.
	binary = filepath.Join(dir, "apply-overrides")
	celBinary = filepath.Join(dir, "apply-overrides-cel")
	for _, b := range [][]string{{"-tags", "nocel", "-o", binary, "."}, {"-o", celBinary, "./cmd/apply-overrides-cel"}} {
		build := exec.Command("go", append([]string{"build"}, b...)...)
		build.Dir = repoRoot
		if out, err := build.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "go build %v: %v\n%s", b, err, out)
			os.Exit(1)
		}
	}
	code := m.Run()
	if err := os.RemoveAll(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
	os.Exit(code)
}

// runBinary runs the binary with stdin and returns stdout, stderr and the
// exit code.
func runBinary(t *testing.T, stdin []byte, args ...string) (stdout, stderr []byte, code int) {
	t.Helper()
	out, errs, code := runProgram(t, binary, "", nil, stdin, args...)
	return []byte(out), []byte(errs), code
}
