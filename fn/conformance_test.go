// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"bytes"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/apply-overrides/apply-overrides/internal/conformancetest"
)

// TestConformanceInProcess runs every conformance case (every dialect:
// karmada, ack-one, kubeadmiral, kyverno) through Main in process, on the
// ResourceList the binary's harness builds and with the same expectations
// (test/conformance_test.go), so that a failure points at this package
// and the run counts towards its coverage.
func TestConformanceInProcess(t *testing.T) {
	for _, c := range conformancetest.SplitAll(conformancetest.Load(t, "../testdata/conformance")) {
		t.Run(c.ID, func(t *testing.T) {
			t.Parallel()
			c.Diverge(t)
			var stdout, stderr bytes.Buffer
			code := Main(nil, bytes.NewReader(conformancetest.ResourceList(t, c)), &stdout, &stderr)
			conformancetest.CheckOutput(t, c, stdout.Bytes(), stderr.Bytes(), code)
		})
	}
}

// TestGoldenInProcess runs every testdata/golden case through Main in
// process: the exit status, and stdout byte for byte (comments included).
// test/golden_test.go runs the same cases through the binary and rewrites
// expected.yaml with -update.
func TestGoldenInProcess(t *testing.T) {
	for _, g := range conformancetest.LoadGolden(t, "../testdata/golden") {
		t.Run(g.Name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			code := Main(nil, bytes.NewReader(g.Input), &stdout, &stderr)
			assert.Equal(t, g.WantCode, code, "stderr:\n%s", stderr.String())
			want, err := os.ReadFile(g.ExpectedPath)
			require.NoError(t, err, "missing golden file (run go test ./test -update)")
			assert.Equal(t, string(want), stdout.String())
		})
	}
}
