// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// renderFixture is a small package: two clusters, a policy that changes
// member1's ConfigMap, the ConfigMap (with comments) in a subdirectory, and
// files render must skip (hidden, not YAML).
var renderFixture = map[string]string{
	"clusters.yaml": `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: member1
---
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: member2
`,
	"policies.yaml": `apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata:
  name: cm
  namespace: shop
spec:
  resourceSelectors:
    - apiVersion: v1
      kind: ConfigMap
  overrideRules:
    - targetCluster:
        clusterNames: [member1]
      overriders:
        plaintext:
          - {operator: replace, path: /data/size, value: large}
`,
	"app/web.yaml": `# The settings.
apiVersion: v1
kind: ConfigMap
metadata:
  name: web
  namespace: shop
  annotations:
    team: web # kept
data:
  size: small # the default
  list: |
    a
`,
	".hidden.yaml":        "not: [valid",
	".git/config.yaml":    "not: [valid",
	"notes.txt":           "not: [valid",
	"app/.editor/x.yml":   "not: [valid",
	"app/other/empty.yml": "",
}

// member1Web is app/web.yaml as member1 receives it: the override replaced
// the value, and the comment stays.
var member1Web = strings.Replace(renderFixture["app/web.yaml"], "size: small", "size: large", 1)

// member2Web is app/web.yaml as member2 receives it: unchanged.
var member2Web = renderFixture["app/web.yaml"]

func writeFixture(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	return dir
}

// runMain runs Main and returns stdout, stderr and the exit status.
func runMain(stdin string, args ...string) (string, string, int) {
	var stdout, stderr bytes.Buffer
	code := Main(args, strings.NewReader(stdin), &stdout, &stderr)
	return stdout.String(), stderr.String(), code
}

// tree is every file under dir and its content.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	}))
	return files
}

func TestParseRenderFlags(t *testing.T) {
	f, err := parseRenderFlags([]string{"a", "--cluster", "m1", "b", "-cluster=m2", "-o", "out", "--placement", "off", "--explain", "--", "--all"})
	require.NoError(t, err)
	assert.Equal(t, []string{"m1", "m2"}, f.clusters)
	assert.Equal(t, []string{"a", "b", "--all"}, f.inputs)
	assert.Equal(t, "out", f.output)
	assert.Equal(t, "off", f.placement)
	assert.True(t, f.explain)
	assert.False(t, f.all)

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--all", "--cluster", "m1"}, "--all and --cluster are exclusive"},
		{[]string{"--placement", "sometimes"}, `--placement: "sometimes" is not a placement mode`},
		{[]string{"--force"}, "--force applies to -o DIR"},
		{[]string{"--cluster", ""}, "empty cluster name"},
		{[]string{"--bogus"}, "flag provided but not defined: -bogus"},
	} {
		_, err := parseRenderFlags(c.args)
		if assert.Error(t, err, "%v", c.args) {
			assert.Contains(t, err.Error(), c.want)
		}
	}
	_, err = parseRenderFlags([]string{"--help"})
	assert.ErrorIs(t, err, errHelp)
}

// TestRenderStdout: a directory in, member1's manifests out, byte for
// byte: comments and the input's annotations kept, the reader's left out,
// hidden and non-YAML files skipped, policies and clusters dropped.
func TestRenderStdout(t *testing.T) {
	dir := writeFixture(t, renderFixture)
	stdout, stderr, code := runMain("", "render", "--cluster", "member1", dir)
	assert.Equal(t, 0, code, stderr)
	assert.Empty(t, stderr)
	assert.Equal(t, member1Web, stdout)

	// --verbose adds the info results on stderr.
	_, stderr, code = runMain("", "render", "--cluster", "member1", "--verbose", dir)
	assert.Equal(t, 0, code)
	assert.Equal(t, "[info] cluster member1: applied 1 override rule(s) to 1 resource(s)\n", stderr)

	// The same manifests on stdin, and files named one by one.
	var stream []string
	for _, name := range []string{"clusters.yaml", "policies.yaml", "app/web.yaml"} {
		stream = append(stream, renderFixture[name])
	}
	stdout, stderr, code = runMain(strings.Join(stream, "---\n"), "render", "--cluster", "member1")
	assert.Equal(t, 0, code, stderr)
	assert.Equal(t, member1Web, stdout)
	stdout, stderr, code = runMain("", "render", "--cluster", "member1", filepath.Join(dir, "app", "web.yaml"), filepath.Join(dir, "clusters.yaml"), filepath.Join(dir, "policies.yaml"))
	assert.Equal(t, 0, code, stderr)
	assert.Equal(t, member1Web, stdout)

	// Two clusters on stdout: each cluster's copies in turn.
	stdout, stderr, code = runMain("", "render", "--all", dir)
	assert.Equal(t, 0, code, stderr)
	assert.Equal(t, member1Web+"---\n"+member2Web, stdout)
}

// TestRenderErrors: bad usage exits 2, error results 1, and nothing goes
// to stdout.
func TestRenderErrors(t *testing.T) {
	dir := writeFixture(t, renderFixture)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--cluster", "member1", filepath.Join(dir, "missing")}, 2, "no such file or directory: name a file or a directory"},
		{[]string{"--cluster", "member9", dir}, 1, `[error] cluster "member9" is not in the inventory; known clusters: member1, member2`},
		{[]string{"--all", "--cluster", "member1", dir}, 2, "exclusive"},
		{[]string{"--cluster", "member1", dir, "-"}, 2, ""},
	} {
		stdout, stderr, code := runMain(rlHead+"items: []\n", append([]string{"render"}, c.args...)...)
		assert.Equal(t, c.code, code, "%v: %s", c.args, stderr)
		assert.Contains(t, stderr, c.want)
		assert.Empty(t, stdout)
	}
}

// TestRenderConfigPrecedence: an ApplyOverrides object among the inputs
// configures the run and is not an output; the flags override the fields
// they set.
func TestRenderConfigPrecedence(t *testing.T) {
	files := map[string]string{}
	for k, v := range renderFixture {
		files[k] = v
	}
	files["config.yaml"] = "apiVersion: apply-overrides.dev/v1alpha1\nkind: ApplyOverrides\nmetadata:\n  name: cfg\nspec:\n  cluster: member2\n"
	dir := writeFixture(t, files)
	stdout, stderr, code := runMain("", "render", dir)
	assert.Equal(t, 0, code, stderr)
	assert.Equal(t, member2Web, stdout)

	stdout, stderr, code = runMain("", "render", "--cluster", "member1", dir)
	assert.Equal(t, 0, code, stderr)
	assert.Equal(t, member1Web, stdout)

	stdout, stderr, code = runMain("", "render", "--keep-policies", dir)
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "kind: OverridePolicy")
	assert.Contains(t, stdout, "size: small")

	files["more/config.yaml"] = strings.Replace(files["config.yaml"], "name: cfg", "name: other", 1)
	dir = writeFixture(t, files)
	_, stderr, code = runMain("", "render", dir)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "keep one functionConfig among the inputs")
}

// TestRenderResourceList: a ResourceList is taken whole, its
// functionConfig overridden by the flags, and its items written without
// the wrapper.
func TestRenderResourceList(t *testing.T) {
	in := rlHead + "items:\n" + rlCluster +
		"- apiVersion: cluster.karmada.io/v1alpha1\n  kind: Cluster\n  metadata: {name: member2}\n" +
		rlCM + strings.Replace(op(`[{operator: replace, path: /data/k, value: w}]`), "    - overriders:", "    - targetCluster: {clusterNames: [member1]}\n      overriders:", 1) + rlFC
	stdout, stderr, code := runMain(in, "render")
	assert.Equal(t, 0, code, stderr)
	assert.Equal(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm, namespace: default}\ndata: {k: w}\n", stdout)

	stdout, stderr, code = runMain(in, "render", "--cluster", "member2")
	assert.Equal(t, 0, code, stderr)
	assert.Equal(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm, namespace: default}\ndata: {k: v}\n", stdout)

	// A directory holding the ResourceList file alone renders as the file.
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "resourcelist.yaml"), []byte(in), 0o644))
	stdout, stderr, code = runMain("", "render", dir)
	assert.Equal(t, 0, code, stderr)
	assert.Equal(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm, namespace: default}\ndata: {k: w}\n", stdout)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "more.yaml"), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"), 0o644))
	_, stderr, code = runMain("", "render", dir)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "a ResourceList is taken whole, so pass it alone")

	_, stderr, code = runMain(rlHead+"items:\n"+rlCM+"---\n"+rlHead+"items: []\n", "render")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "a ResourceList is taken whole, so pass it alone")
}

// TestRenderOutputDir: -o DIR lays the files out as the input, one folder
// per cluster with several, and refuses a non-empty directory without
// --force.
func TestRenderOutputDir(t *testing.T) {
	dir := writeFixture(t, renderFixture)
	out := filepath.Join(t.TempDir(), "out")
	stdout, stderr, code := runMain("", "render", "--cluster", "member1", "-o", out, dir)
	assert.Equal(t, 0, code, stderr)
	assert.Empty(t, stdout)
	assert.Equal(t, map[string]string{"app/web.yaml": member1Web}, tree(t, out))

	_, stderr, code = runMain("", "render", "--cluster", "member2", "-o", out, dir)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "the directory is not empty")
	_, stderr, code = runMain("", "render", "--cluster", "member2", "-o", out, "--force", dir)
	assert.Equal(t, 0, code, stderr)
	assert.Equal(t, map[string]string{"app/web.yaml": member2Web}, tree(t, out))

	all := filepath.Join(t.TempDir(), "all")
	_, stderr, code = runMain("", "render", "--all", "--output", all, dir)
	assert.Equal(t, 0, code, stderr)
	assert.Equal(t, map[string]string{"member1/app/web.yaml": member1Web, "member2/app/web.yaml": member2Web}, tree(t, all))

	// From stdin, with no paths: kyaml's default file names.
	two := filepath.Join(t.TempDir(), "two")
	stream := renderFixture["clusters.yaml"] + "---\n" + renderFixture["policies.yaml"] + "---\n" + renderFixture["app/web.yaml"]
	_, stderr, code = runMain(stream, "render", "--cluster", "member1", "--cluster", "member2", "-o", two)
	assert.Equal(t, 0, code, stderr)
	got := tree(t, two)
	names := make([]string, 0, len(got))
	for k := range got {
		names = append(names, k)
	}
	sort.Strings(names)
	assert.Equal(t, []string{"member1/shop/configmap_web.yaml", "member2/shop/configmap_web.yaml"}, names)
	assert.Equal(t, member1Web, got["member1/shop/configmap_web.yaml"])
}

// TestVersion: --version prints a semver with the commit as build metadata
// when Go recorded one.
func TestVersion(t *testing.T) {
	stdout, _, code := runMain("", "--version")
	assert.Equal(t, 0, code)
	assert.Regexp(t, regexp.MustCompile(`^apply-overrides v0\.0\.0-dev(\+[0-9a-f]{7}(\.dirty)?)?\n$`), stdout)

	old := Version
	Version = "v1.2.0+abc1234"
	defer func() { Version = old }()
	stdout, _, _ = runMain("", "--version")
	assert.Equal(t, "apply-overrides v1.2.0+abc1234\n", stdout)

	stdout, _, code = runMain("", "render", "--help")
	assert.Equal(t, 0, code)
	assert.Equal(t, renderUsage, stdout)
}
