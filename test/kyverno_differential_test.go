// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package test

// TestKyvernoDifferential runs the same Kyverno scenarios through the real
// Kyverno CLI (v1.19.1, `kyverno apply`) and through apply-overrides, and
// compares the resources they produce. It is skipped unless KYVERNO_CLI
// names the CLI binary, so `go test ./...` needs neither the CLI nor the
// network. Run it with
//
//	make differential-kyverno
//
// which builds the CLI once into .cache/kyverno (hack/kyverno-cli.sh), or
// by hand:
//
//	KYVERNO_CLI=$(hack/kyverno-cli.sh) go test ./test/ -run TestKyvernoDifferential -count=1 -v
//
// Knobs: -kyverno-scenarios N or KYVERNO_SCENARIOS (generated scenarios,
// default 40), -kyverno-seed S or KYVERNO_SEED (default
// kyvernogen.DefaultSeed), KYVERNO_DIFF_KEEP=<dir> (keep every scenario's
// files in <dir>/<scenario>/), and -run 'TestKyvernoDifferential/<name>'
// for one scenario.
//
// Scenarios: the Kyverno part of examples/kyverno/resourcelist.yaml and of
// testdata/golden/kyverno-comments/input.yaml (Karmada/KubeAdmiral
// policies and cluster objects dropped; v1 Namespace objects stay in our
// input and reach the CLI as namespaceSelector labels in a values file);
// every testdata/conformance/kyverno case with `expected` except the
// deliberate divergences (internal/conformancetest); and the scenarios
// internal/kyvernogen generates.
//
// Each scenario's directory holds policy.yaml, resources.yaml (and
// values.yaml) for `kyverno apply policy.yaml --resource resources.yaml
// -o out.yaml`, cli.log, and our input.yaml / output.yaml. The CLI writes,
// for each resource in input order, one document per policy (the
// resource after that policy); the last one of each group is compared with
// our output item, as parsed YAML (maps unordered, list order and scalar
// types significant) after dropping config.kubernetes.io/* and
// internal.config.kubernetes.io/* annotations (and an emptied annotations
// map). The CLI gives a namespaced resource without metadata.namespace the
// namespace "default", which we do not add: that field is dropped from the
// CLI's side for such resources. When the CLI reports an error (exit code,
// "error: N" in its summary, or an emptied resource) our run must fail
// too; otherwise ours must succeed and match.

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/conformancetest"
	"github.com/apply-overrides/apply-overrides/internal/kyvernogen"
)

var (
	kyvernoScenarios = flag.Int("kyverno-scenarios", -1, "number of generated Kyverno differential scenarios (default $KYVERNO_SCENARIOS or 40)")
	kyvernoSeed      = flag.Uint64("kyverno-seed", 0, "seed of the generated Kyverno differential scenarios (default $KYVERNO_SEED or kyvernogen.DefaultSeed)")
)

// kyvernoScenario is one differential case.
type kyvernoScenario struct {
	name      string
	resources []map[string]any
	// namespaces are v1 Namespace objects: our input carries them, the
	// CLI gets their labels as namespaceSelector values.
	namespaces []map[string]any
	policies   []map[string]any
	note       string
}

func TestKyvernoDifferential(t *testing.T) {
	cli := os.Getenv("KYVERNO_CLI")
	if cli == "" {
		t.Skip("KYVERNO_CLI is not set: run make differential-kyverno")
	}
	scenarios := kyvernoDifferentialScenarios(t)
	var tally kyvernoTally
	t.Cleanup(func() {
		t.Logf("%d of %d scenarios run: %d match the Kyverno CLI, %d fail in both, %d disagree",
			tally.matched.Load()+tally.bothFail.Load()+tally.disagreed.Load(), len(scenarios),
			tally.matched.Load(), tally.bothFail.Load(), tally.disagreed.Load())
	})
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			bothFail := false
			t.Cleanup(func() {
				switch {
				case t.Failed():
					tally.disagreed.Add(1)
				case bothFail:
					tally.bothFail.Add(1)
				default:
					tally.matched.Add(1)
				}
			})
			bothFail = runKyvernoDifferential(t, cli, s)
		})
	}
}

// kyvernoTally counts the outcomes of the scenarios.
type kyvernoTally struct {
	matched, bothFail, disagreed atomic.Int32
}

// kyvernoDifferentialScenarios gathers the examples, the conformance cases
// and the generated scenarios.
func kyvernoDifferentialScenarios(t *testing.T) []kyvernoScenario {
	var out []kyvernoScenario
	for _, rl := range []struct{ name, path string }{
		{"example-kyverno", filepath.Join(repoRoot, "examples", "kyverno", "resourcelist.yaml")},
		{"example-kyverno-v2beta1", filepath.Join(repoRoot, "examples", "kyverno", "v2beta1.yaml")},
		{"golden-kyverno-comments", filepath.Join(repoRoot, "testdata", "golden", "kyverno-comments", "input.yaml")},
	} {
		out = append(out, resourceListScenario(t, rl.name, rl.path))
	}
	for _, c := range conformancetest.Load(t, filepath.Join(repoRoot, "testdata", "conformance"), "kyverno") {
		if _, diverges := conformancetest.Divergences[c.System+"/"+c.Name]; diverges || c.ExpectError != "" {
			continue
		}
		out = append(out, kyvernoScenario{name: "conformance-" + c.Name, resources: c.Resources, policies: c.Policies, note: c.Note})
	}
	seed, n := kyvernoGenSettings(t)
	for _, g := range kyvernogen.Generate(seed, n) {
		s := kyvernoScenario{name: g.Name, note: "features: " + strings.Join(g.Features, ", ")}
		for _, doc := range g.Resources {
			s.resources = append(s.resources, parseDoc(t, g.Name, doc))
		}
		for _, doc := range g.Policies {
			s.policies = append(s.policies, parseDoc(t, g.Name, doc))
		}
		out = append(out, s)
	}
	return out
}

// kyvernoGenSettings resolves the seed and count of generated scenarios
// from the flags, then the environment.
func kyvernoGenSettings(t *testing.T) (seed uint64, n int) {
	seed, n = kyvernogen.DefaultSeed, 40
	if v := os.Getenv("KYVERNO_SEED"); v != "" {
		s, err := strconv.ParseUint(v, 10, 64)
		require.NoError(t, err, "KYVERNO_SEED")
		seed = s
	}
	if *kyvernoSeed != 0 {
		seed = *kyvernoSeed
	}
	if v := os.Getenv("KYVERNO_SCENARIOS"); v != "" {
		c, err := strconv.Atoi(v)
		require.NoError(t, err, "KYVERNO_SCENARIOS")
		n = c
	}
	if *kyvernoScenarios >= 0 {
		n = *kyvernoScenarios
	}
	return seed, n
}

func parseDoc(t *testing.T, scenario, doc string) map[string]any {
	var m map[string]any
	require.NoError(t, yaml.Unmarshal([]byte(doc), &m), "%s: generated YAML:\n%s", scenario, doc)
	return m
}

// resourceListScenario takes the Kyverno policies and the workload
// resources of a ResourceList, leaving out the other dialects' policies
// and cluster objects, which the CLI does not know.
func resourceListScenario(t *testing.T, name, path string) kyvernoScenario {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	rl, err := yaml.Parse(string(data))
	require.NoError(t, err)
	items, err := rl.Pipe(yaml.Lookup("items"))
	require.NoError(t, err)
	require.NotNil(t, items, "%s has no items", path)
	s := kyvernoScenario{name: name, note: "from " + path}
	for _, it := range items.Content() {
		rn := yaml.NewRNode(it)
		var m map[string]any
		require.NoError(t, it.Decode(&m))
		switch apiVersion := rn.GetApiVersion(); {
		case strings.HasPrefix(apiVersion, "kyverno.io/"):
			s.policies = append(s.policies, m)
		case conformancetest.IsControlPlane(apiVersion):
		case apiVersion == "v1" && rn.GetKind() == "Namespace":
			s.namespaces = append(s.namespaces, m)
		default:
			s.resources = append(s.resources, m)
		}
	}
	return s
}

// scenarioDir is where a scenario's files go: $KYVERNO_DIFF_KEEP/<name>
// when set, else a fresh test directory.
func scenarioDir(t *testing.T, name string) string {
	keep := os.Getenv("KYVERNO_DIFF_KEEP")
	if keep == "" {
		return t.TempDir()
	}
	dir := filepath.Join(keep, name)
	require.NoError(t, os.RemoveAll(dir))
	require.NoError(t, os.MkdirAll(dir, 0o755))
	return dir
}

// writeDocs writes objects as a multi-document YAML file.
func writeDocs(t *testing.T, path string, objs []map[string]any) {
	var b bytes.Buffer
	for i, o := range objs {
		if i > 0 {
			b.WriteString("---\n")
		}
		out, err := yaml.Marshal(o)
		require.NoError(t, err)
		b.Write(out)
	}
	require.NoError(t, os.WriteFile(path, b.Bytes(), 0o644))
}

// cliSummary is the result line `kyverno apply` prints last.
var cliSummary = regexp.MustCompile(`(?m)^pass: \d+, fail: \d+, warn: \d+, error: (\d+), skip: \d+`)

// cliResult is what the Kyverno CLI produced for a scenario.
type cliResult struct {
	failure string           // why the CLI run counts as failed, "" when it succeeded
	log     string           // its combined output
	final   []map[string]any // each resource after the last policy
}

func runKyvernoCLI(t *testing.T, cli, dir string, s kyvernoScenario) cliResult {
	writeDocs(t, filepath.Join(dir, "policy.yaml"), s.policies)
	writeDocs(t, filepath.Join(dir, "resources.yaml"), s.resources)
	// --audit-warn: an Audit validate rule the resources fail is a
	// warning, not a failed run (the render ignores validate rules).
	args := []string{"apply", "policy.yaml", "--resource", "resources.yaml", "-o", "out.yaml", "--audit-warn"}
	if len(s.namespaces) > 0 {
		var sel []any
		for _, ns := range s.namespaces {
			meta, _ := ns["metadata"].(map[string]any)
			labels, _ := meta["labels"].(map[string]any)
			if labels == nil {
				labels = map[string]any{}
			}
			sel = append(sel, map[string]any{"name": meta["name"], "labels": labels})
		}
		values := map[string]any{
			"apiVersion":        "cli.kyverno.io/v1alpha1",
			"kind":              "Value",
			"metadata":          map[string]any{"name": "values"},
			"namespaceSelector": sel,
		}
		writeDocs(t, filepath.Join(dir, "values.yaml"), []map[string]any{values})
		args = append(args, "-f", "values.yaml")
	}
	cmd := exec.Command(cli, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "cli.log"), out, 0o644))
	res := cliResult{log: string(out)}
	if ee, ok := err.(*exec.ExitError); ok && !onlyValidationFailures(res.log, s.policies) {
		res.failure = fmt.Sprintf("exit code %d", ee.ExitCode())
	} else if err != nil && !ok {
		t.Fatalf("run %s: %v", cli, err)
	}
	if m := cliSummary.FindStringSubmatch(res.log); m != nil && m[1] != "0" && res.failure == "" {
		res.failure = "summary reports error: " + m[1]
	}
	if res.failure != "" {
		return res
	}
	data, err := os.ReadFile(filepath.Join(dir, "out.yaml"))
	require.NoError(t, err)
	var docs []map[string]any
	for _, part := range strings.Split(string(data), "\n---\n") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		var m map[string]any
		require.NoError(t, yaml.Unmarshal([]byte(part), &m), "CLI output document:\n%s", part)
		docs = append(docs, m)
	}
	p := 0
	for _, pol := range s.policies {
		if hasMutateRule(pol) {
			p++
		}
	}
	require.Len(t, docs, len(s.resources)*p, "the CLI should print every resource once per policy with a mutate rule (out.yaml in %s)", dir)
	if p == 0 {
		// Nothing mutates: the CLI prints nothing, the resources stay as
		// they are.
		res.final = s.resources
		return res
	}
	for i := range s.resources {
		doc := docs[(i+1)*p-1]
		if len(doc) == 0 {
			res.failure = fmt.Sprintf("resource %d came out empty", i)
			return res
		}
		res.final = append(res.final, doc)
	}
	return res
}

// cliFailedPolicy is the line `kyverno apply` prints for a policy whose
// rule failed on a resource; it follows "Mutation has been applied
// successfully." on the same line when a mutate policy ran before.
var cliFailedPolicy = regexp.MustCompile(`(?m)(?:^|successfully\.)policy (\S+) -> resource \S+ failed`)

// onlyValidationFailures reports whether the CLI failed only because
// resources failed validate-only policies in Enforce mode (Audit failures
// are warnings under --audit-warn): the render ignores those policies, and
// the CLI still applies the mutate ones.
func onlyValidationFailures(log string, policies []map[string]any) bool {
	if m := cliSummary.FindStringSubmatch(log); m == nil || m[1] != "0" {
		return false
	}
	failed := cliFailedPolicy.FindAllStringSubmatch(log, -1)
	if len(failed) == 0 {
		return false
	}
	validateOnly := map[string]bool{}
	for _, p := range policies {
		meta, _ := p["metadata"].(map[string]any)
		name, _ := meta["name"].(string)
		validateOnly[name] = !hasMutateRule(p)
		if ns, _ := meta["namespace"].(string); ns != "" {
			validateOnly[ns+"/"+name] = !hasMutateRule(p) // a Policy may be named so
		}
	}
	for _, f := range failed {
		if !validateOnly[f[1]] {
			return false
		}
	}
	return true
}

// hasMutateRule reports whether a policy has a mutate rule: the CLI prints
// the resources once for each such policy, and not for validate-only ones.
func hasMutateRule(policy map[string]any) bool {
	spec, _ := policy["spec"].(map[string]any)
	rules, _ := spec["rules"].([]any)
	for _, r := range rules {
		if rule, _ := r.(map[string]any); rule["mutate"] != nil {
			return true
		}
	}
	return false
}

// kyvernoResourceList is our input: the resources (with the annotations
// kpt adds), the Namespace objects and the policies.
func kyvernoResourceList(t *testing.T, s kyvernoScenario) []byte {
	var items []any
	for i, r := range s.resources {
		items = append(items, conformancetest.WithWireAnnotations(r, "resources.yaml", i))
	}
	for i, ns := range s.namespaces {
		items = append(items, conformancetest.WithWireAnnotations(ns, "namespaces.yaml", i))
	}
	for i, p := range s.policies {
		items = append(items, conformancetest.WithWireAnnotations(p, "policy.yaml", i))
	}
	rl := map[string]any{
		"apiVersion": "config.kubernetes.io/v1",
		"kind":       "ResourceList",
		"items":      items,
		"functionConfig": map[string]any{
			"apiVersion": "apply-overrides.dev/v1alpha1",
			"kind":       "ApplyOverrides",
			"metadata":   map[string]any{"name": "differential"},
			"spec":       map[string]any{},
		},
	}
	b, err := yaml.Marshal(rl)
	require.NoError(t, err)
	return b
}

// ourResources runs the binary and returns its output resources (the
// Namespace objects left out), or the reason it failed.
func ourResources(t *testing.T, dir string, s kyvernoScenario) (resources []map[string]any, failure string) {
	input := kyvernoResourceList(t, s)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "input.yaml"), input, 0o644))
	stdout, stderr, code := runBinary(t, input)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "output.yaml"), stdout, 0o644))
	if code != 0 {
		return nil, fmt.Sprintf("exit code %d\n%s%s", code, errorResults(stdout), stderr)
	}
	out, err := yaml.Parse(string(stdout))
	require.NoError(t, err, "output is not YAML:\n%s", stdout)
	items, err := out.Pipe(yaml.Lookup("items"))
	require.NoError(t, err)
	require.NotNil(t, items, "no items in output:\n%s", stdout)
	for _, it := range items.Content() {
		rn := yaml.NewRNode(it)
		if conformancetest.IsControlPlane(rn.GetApiVersion()) || rn.GetApiVersion() == "v1" && rn.GetKind() == "Namespace" {
			continue
		}
		var v map[string]any
		require.NoError(t, it.Decode(&v))
		resources = append(resources, v)
	}
	return resources, ""
}

// errorResults lists the error results of a ResourceList.
func errorResults(rl []byte) string {
	out, err := yaml.Parse(string(rl))
	if err != nil {
		return ""
	}
	results, err := out.Pipe(yaml.Lookup("results"))
	if err != nil || results == nil {
		return ""
	}
	var b strings.Builder
	for _, r := range results.Content() {
		rn := yaml.NewRNode(r)
		if yaml.GetValue(rn.Field("severity").Value) == "error" {
			b.WriteString("  " + yaml.GetValue(rn.Field("message").Value) + "\n")
		}
	}
	return b.String()
}

// runKyvernoDifferential runs one scenario both ways and compares; it
// reports whether both runs failed (which counts as agreement).
func runKyvernoDifferential(t *testing.T, cli string, s kyvernoScenario) (bothFail bool) {
	dir := scenarioDir(t, s.name)
	want := runKyvernoCLI(t, cli, dir, s)
	got, failure := ourResources(t, dir, s)
	header := fmt.Sprintf("scenario %s (%s), files in %s", s.name, s.note, dir)
	switch {
	case want.failure != "" && failure != "":
		t.Logf("both fail: CLI %s; ours %s", want.failure, failure)
		return true
	case want.failure != "":
		t.Errorf("%s\nthe Kyverno CLI fails (%s) but apply-overrides succeeds\nCLI output:\n%s", header, want.failure, cliErrors(want.log))
		return false
	case failure != "":
		t.Errorf("%s\nthe Kyverno CLI succeeds but apply-overrides fails: %s", header, failure)
		return false
	}
	require.Len(t, got, len(s.resources), "%s: output resources", header)
	for i, res := range s.resources {
		cliDoc := conformancetest.StripAnnotations(want.final[i])
		if meta, ok := res["metadata"].(map[string]any); ok && meta["namespace"] == nil {
			if m, ok := cliDoc["metadata"].(map[string]any); ok && m["namespace"] == "default" {
				delete(m, "namespace")
			}
		}
		w, g := canonicalYAML(cliDoc), canonicalYAML(conformancetest.StripAnnotations(got[i]))
		assert.Equal(t, w, g, "%s\nresource %d %s: expected = Kyverno CLI, actual = apply-overrides", header, i, describe(res))
	}
	return false
}

// cliErrors keeps the informative lines of the CLI's output: not its
// deprecation warnings nor its per-policy progress messages.
func cliErrors(log string) string {
	var b strings.Builder
	for _, l := range strings.Split(log, "\n") {
		switch {
		case strings.TrimSpace(l) == "", strings.HasPrefix(l, "Warning: "), l == "Mutation:", strings.HasPrefix(l, "Mutation has been applied successfully."):
		default:
			b.WriteString("  " + l + "\n")
		}
	}
	return b.String()
}

// canonicalYAML renders a value with sorted keys, for comparison and
// readable diffs.
func canonicalYAML(v map[string]any) string {
	b, err := yaml.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// describe names a resource as "Kind namespace/name" (or "Kind name").
func describe(o map[string]any) string {
	meta, _ := o["metadata"].(map[string]any)
	if ns, ok := meta["namespace"].(string); ok && ns != "" {
		return fmt.Sprintf("%v %s/%v", o["kind"], ns, meta["name"])
	}
	return fmt.Sprintf("%v %v", o["kind"], meta["name"])
}
