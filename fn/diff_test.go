// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDiffFlagErrors(t *testing.T) {
	dir := writeFixture(t, renderFixture)
	for name, tc := range map[string]struct {
		args []string
		want string
	}{
		"all and cluster":    {[]string{"--all", "--cluster", "member1", dir}, "--all and --cluster are exclusive"},
		"unknown format":     {[]string{"-o", "yaml", dir}, `-o "yaml": the report is markdown or json`},
		"negative size":      {[]string{"--max-bytes", "-1", dir}, "--max-bytes -1: give a size in bytes, or 0 for no limit"},
		"size with json":     {[]string{"--max-bytes", "100", "-o", "json", dir}, "--max-bytes sizes the Markdown report"},
		"stdin twice":        {[]string{"--base", "-"}, "stdin (-, or no input named) feeds one revision only"},
		"empty base":         {[]string{"--base", "", dir}, "empty path"},
		"render's flag":      {[]string{"--keep-policies", dir}, "flag provided but not defined: -keep-policies"},
		"bad placement":      {[]string{"--placement", "sometimes", dir}, "--placement"},
		"missing input":      {[]string{"--all", dir + "/nope"}, "no such file or directory"},
		"missing base input": {[]string{"--all", "--base", dir + "/nope", dir}, "base revision: "},
	} {
		t.Run(name, func(t *testing.T) {
			stdout, stderr, code := runMain("", append([]string{"diff"}, tc.args...)...)
			assert.Equal(t, 2, code)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, tc.want)
			assert.True(t, strings.HasPrefix(stderr, "apply-overrides diff: "), stderr)
		})
	}
}

func TestDiffHelp(t *testing.T) {
	stdout, _, code := runMain("", "diff", "--help")
	assert.Equal(t, 0, code)
	assert.Equal(t, diffUsage, stdout)
	stdout, _, code = runMain("", "--help")
	assert.Equal(t, 0, code)
	assert.Contains(t, stdout, "apply-overrides diff --all DIR")
}

// TestDiffExitCode: --exit-code exits 3 when a cluster differs, 0 when
// none does, and the report is written either way.
func TestDiffExitCode(t *testing.T) {
	dir := writeFixture(t, renderFixture)
	stdout, stderr, code := runMain("", "diff", "--all", "--exit-code", dir)
	assert.Equal(t, exitDifferences, code, stderr)
	assert.Contains(t, stdout, "| v1 ConfigMap shop/web | changed 1 field | unchanged |\n")
	assert.Contains(t, stdout, "-  size: small # the default\n+  size: large # the default\n")

	stdout, stderr, code = runMain("", "diff", "--cluster", "member2", "--exit-code", dir)
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "No differences.")

	// Without --exit-code, differences are a success.
	_, _, code = runMain("", "diff", "--all", dir)
	assert.Equal(t, 0, code)
}

// TestDiffStdin reads the head from stdin and the base from a directory.
func TestDiffStdin(t *testing.T) {
	dir := writeFixture(t, renderFixture)
	var stream strings.Builder
	for _, name := range []string{"clusters.yaml", "policies.yaml", "app/web.yaml"} {
		stream.WriteString(renderFixture[name] + "---\n")
	}
	changed := strings.Replace(stream.String(), "value: large", "value: huge", 1)
	stdout, stderr, code := runMain(changed, "diff", "--all", "-o", "json", "--base", dir)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, `"compare": "base"`)
	assert.Contains(t, stdout, `"pointers": [
            "/data/size"
          ]`)
	assert.Contains(t, stdout, `-  size: large # the default\n+  size: huge # the default\n`)

	// Without --base, stdin is the only input.
	stdout, stderr, code = runMain(changed, "diff", "--cluster", "member1")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "-  size: small # the default\n+  size: huge # the default\n")
}

func TestMarkdownCut(t *testing.T) {
	rep := newReport(labelInput, []string{"a", "b"})
	one := 1
	for _, name := range []string{"x", "y", "z"} {
		rep.add(diffRow{APIVersion: "v1", Kind: "ConfigMap", Name: name, Clusters: []diffCell{
			{Cluster: "a", Status: statusChanged, Fields: &one, Diff: "--- input\n+++ rendered\n@@ -1 +1 @@\n-k: " + strings.Repeat("v", 200) + "\n+k: w\n"},
			{Cluster: "b", Status: statusNotReceived},
		}})
	}
	var whole bytes.Buffer
	require.NoError(t, rep.writeMarkdown(&whole, 0))
	assert.Equal(t, 3, strings.Count(whole.String(), "```diff"))

	// Every limit is kept, or refused when even the summary does not fit;
	// the smallest that is kept cuts rows too.
	smallest := ""
	for limit := whole.Len(); limit > 0; limit-- {
		var cut bytes.Buffer
		if err := rep.writeMarkdown(&cut, limit); err != nil {
			assert.ErrorContains(t, err, "leaves no room for the report's summary")
			continue
		}
		assert.LessOrEqual(t, cut.Len(), limit)
		if limit == whole.Len() {
			assert.Equal(t, whole.String(), cut.String())
		} else {
			assert.Contains(t, cut.String(), "**Cut to stay under")
		}
		smallest = cut.String()
	}
	assert.Contains(t, smallest, "3 of 3 rows and 3 of 3 diffs are left out")

	err := rep.writeMarkdown(&bytes.Buffer{}, 100)
	assert.ErrorContains(t, err, "--max-bytes 100 leaves no room for the report's summary")
}

// TestMarkdownFence: a diff that holds a fence gets a longer one.
func TestMarkdownFence(t *testing.T) {
	one := 1
	row := diffRow{APIVersion: "v1", Kind: "ConfigMap", Name: "doc", Clusters: []diffCell{
		{Cluster: "a", Status: statusChanged, Fields: &one, Diff: "--- input\n+++ rendered\n@@ -1 +1 @@\n-  ```sh\n+  ````sh\n"},
	}}
	s := row.sections()
	require.Len(t, s, 1)
	assert.Contains(t, s[0], "\n`````diff\n")
	assert.True(t, strings.HasSuffix(s[0], "\n`````\n"))
}

func TestLinePrefixer(t *testing.T) {
	var b bytes.Buffer
	p := &linePrefixer{w: &b, prefix: "base: "}
	for _, s := range []string{"one\ntw", "o\n", "three\n"} {
		n, err := p.Write([]byte(s))
		require.NoError(t, err)
		assert.Equal(t, len(s), n)
	}
	assert.Equal(t, "base: one\nbase: two\nbase: three\n", b.String())
}

// TestKeepPoliciesFlagFalse: --keep-policies=false overrides a
// configuration's keepPolicies: true, as diff relies on (it sets it so).
func TestKeepPoliciesFlagFalse(t *testing.T) {
	dir := "../examples/kpt-render"
	kept, stderr, code := runMain("", "render", dir)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, kept, "kind: OverridePolicy")
	dropped, stderr, code := runMain("", "render", "--keep-policies=false", dir)
	require.Equal(t, 0, code, stderr)
	assert.NotContains(t, dropped, "kind: OverridePolicy")
	assert.Contains(t, dropped, "kind: Deployment")

	// The ConfigMap form too.
	list := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" +
		"- {apiVersion: cluster.karmada.io/v1alpha1, kind: Cluster, metadata: {name: member1}}\n" +
		"- {apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: n}}\n" +
		"functionConfig: {apiVersion: v1, kind: ConfigMap, metadata: {name: fc}, data: {cluster: member1, keepPolicies: \"true\"}}\n"
	out, stderr, code := runMain(list, "render", "--keep-policies=false")
	require.Equal(t, 0, code, stderr)
	assert.NotContains(t, out, "kind: Cluster")
	assert.Contains(t, out, "metadata: {name: c, namespace: n}")
}
