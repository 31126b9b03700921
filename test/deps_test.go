// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package test

// The tests run a binary built by `go build`, whose sources Go's test cache
// cannot see; importing the function's packages makes a change to them
// invalidate cached results of this package.
import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/apply-overrides/apply-overrides/fn"
)

// TestFunctionLinksNoCEL: bin/apply-overrides, built with -tags nocel,
// links none of the CEL dialects' dependencies, whose package
// initialisation would double its start-up (PERFORMANCE.md, "Start-up").
func TestFunctionLinksNoCEL(t *testing.T) {
	cmd := exec.Command("go", "list", "-tags", "nocel", "-deps", ".")
	cmd.Dir = repoRoot
	out, err := cmd.Output()
	require.NoError(t, err)
	for _, pkg := range strings.Fields(string(out)) {
		for _, heavy := range []string{"github.com/google/cel-go/", "k8s.io/apiserver/", "k8s.io/client-go/", "k8s.io/component-base/", "github.com/prometheus/", "github.com/apply-overrides/apply-overrides/admissionpolicy", "github.com/apply-overrides/apply-overrides/kyverno/mpol", "github.com/apply-overrides/apply-overrides/internal/k8sschema"} {
			assert.False(t, strings.HasPrefix(pkg, heavy), "bin/apply-overrides links %s", pkg)
		}
	}
}
