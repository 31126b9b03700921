// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"

	"github.com/apply-overrides/apply-overrides/internal/resourcelist"
)

// TestWarnings runs each input of testdata/warnings/ on every path that
// serves it — the whole list, the streaming path, a fleet render of the
// same clusters (what fan-out runs) — and holds the warnings of each to the
// golden beside it (<name>.warnings: one line each, as stderr shows them).
func TestWarnings(t *testing.T) {
	files, err := filepath.Glob("../testdata/warnings/*.yaml")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 5)
	streamed := 0
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			golden, err := os.ReadFile(strings.TrimSuffix(f, ".yaml") + ".warnings")
			require.NoError(t, err)
			want := string(golden)
			in, _ := resourcelist.Normalize(data)
			parse := func() *resourcelist.List {
				l, err := resourcelist.Parse(in, listOptions)
				require.NoError(t, err)
				return l
			}

			results, ok := executeList(parse(), &bytes.Buffer{})
			require.True(t, ok, "%v", results)
			assert.Equal(t, want, warningLines(results), "whole list")
			assert.NotContains(t, warningLines(results), "[error]")

			if results, ok := stream(in, &bytes.Buffer{}); ok {
				streamed++
				assert.Equal(t, want, warningLines(results), "streaming")
			}

			l := parse()
			r := &run{rl: &framework.ResourceList{Items: l.Items, FunctionConfig: l.FunctionConfig}}
			cfg, err := ParseConfig(l.FunctionConfig)
			require.NoError(t, err)
			var names []string // nil: spec.render's clusters
			if cfg.Render == nil {
				names = []string{cfg.Cluster}
			}
			_, ok = r.processFleet(names)
			require.True(t, ok, "%v", r.rl.Results)
			assert.Equal(t, want, warningLines(r.rl.Results), "fleet render")
		})
	}
	assert.Positive(t, streamed, "the streaming path serves some of the inputs")
}

// warningLines is the warnings among results as stderr shows them.
func warningLines(results framework.Results) string {
	var b strings.Builder
	for _, r := range results {
		if r.Severity == framework.Warning {
			b.WriteString(describeResult(r) + "\n")
		}
	}
	return b.String()
}

// TestWarningsSecondRun renders with keepPolicies and renders the output
// again, as kpt fn render does with its own output: the second run warns
// about nothing the first did not. It sees the resources the first run
// rendered (or left out, and kept) only as marked, not what the policies
// did with them; here member2 receives none of the resources, so the
// second run sees only marked ones.
func TestWarningsSecondRun(t *testing.T) {
	data, err := os.ReadFile("../testdata/warnings/propagation.yaml")
	require.NoError(t, err)
	in := strings.Replace(string(data), "    cluster: member1\n", "    cluster: member2\n    keepPolicies: \"true\"\n", 1)
	first, results := execute(strings.NewReader(in))
	require.Contains(t, string(first), "apply-overrides.dev/cluster: 'member2'", "left out and kept")
	want := warningLines(results)
	require.NotEmpty(t, want)
	second, results := execute(bytes.NewReader(first))
	l, err := resourcelist.Parse(first, listOptions)
	require.NoError(t, err)
	wholeResults, ok := executeList(l, &bytes.Buffer{}) // the whole-list path too
	require.True(t, ok)
	for _, line := range strings.SplitAfter(warningLines(results)+warningLines(wholeResults), "\n") {
		assert.Contains(t, want, line, "a warning the first run did not give")
	}
	items := func(out []byte) string { return strings.Split(string(out), "\nresults:")[0] }
	assert.Equal(t, items(first), items(second), "the second run changes nothing")
}
