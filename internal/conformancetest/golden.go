// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package conformancetest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Golden is one case of testdata/golden: a ResourceList, the exact output
// expected for it (comments included) and the exit status.
type Golden struct {
	// Name is the case's directory name, e.g. "comments".
	Name string
	// Input is input.yaml.
	Input []byte
	// ExpectedPath is the path of expected.yaml, the whole stdout.
	ExpectedPath string
	// WantCode is the exit status: exit-code.txt, or 0 without one.
	WantCode int
}

// LoadGolden reads every case under dir (testdata/golden), sorted by name.
func LoadGolden(t testing.TB, dir string) []Golden {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(dir, "*"))
	require.NoError(t, err)
	require.NotEmpty(t, dirs, "no golden cases under %s", dir)
	var out []Golden
	for _, d := range dirs {
		input, err := os.ReadFile(filepath.Join(d, "input.yaml"))
		require.NoError(t, err)
		g := Golden{Name: filepath.Base(d), Input: input, ExpectedPath: filepath.Join(d, "expected.yaml")}
		if b, err := os.ReadFile(filepath.Join(d, "exit-code.txt")); err == nil {
			g.WantCode = int(strings.TrimSpace(string(b))[0] - '0')
		}
		out = append(out, g)
	}
	return out
}
