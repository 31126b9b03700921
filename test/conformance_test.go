// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// conformanceCase is one file of testdata/conformance (see
// testdata/conformance/FORMAT.md).
type conformanceCase struct {
	Name        string           `yaml:"name"`
	System      string           `yaml:"system"`
	Source      string           `yaml:"source"`
	Cluster     *caseCluster     `yaml:"cluster"`
	Resources   []map[string]any `yaml:"resources"`
	Policies    []map[string]any `yaml:"policies"`
	Expected    []map[string]any `yaml:"expected"`
	ExpectError string           `yaml:"expectError"`
	Note        string           `yaml:"note"`
}

type caseCluster struct {
	Name        string            `yaml:"name"`
	Labels      map[string]string `yaml:"labels"`
	Provider    string            `yaml:"provider"`
	Region      string            `yaml:"region"`
	Zone        string            `yaml:"zone"`
	Zones       []string          `yaml:"zones"`
	APIEndpoint string            `yaml:"apiEndpoint"`
}

// controlPlaneGroups are the API groups whose objects are not compared.
var controlPlaneGroups = []string{"policy.karmada.io/", "policy.one.alibabacloud.com/", "core.kubeadmiral.io/", "kyverno.io/", "cluster.karmada.io/"}

// ignoredAnnotationPrefixes are dropped before comparing.
var ignoredAnnotationPrefixes = []string{"config.kubernetes.io/", "internal.config.kubernetes.io/", "config.k8s.io/", "kustomize.config.k8s.io/", "apply-overrides.dev/"}

func TestConformance(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(repoRoot, "testdata", "conformance", "*", "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		name := filepath.Base(filepath.Dir(f)) + "/" + strings.TrimSuffix(filepath.Base(f), ".yaml")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			var c conformanceCase
			require.NoError(t, yaml.Unmarshal(data, &c))
			runCase(t, &c)
		})
	}
}

// divergences are the cases whose upstream behaviour apply-overrides
// deliberately does not reproduce (README "Kyverno", "Rejected"): the case
// stays as upstream recorded it, and the run must fail with the error that
// replaces the upstream outcome.
var divergences = map[string]struct{ expectError, why string }{
	"kyverno/match-userinfo-ignored-without-admission-info": {
		expectError: "user info criteria (subjects, roles, clusterRoles) are not supported",
		why:         "kyverno apply drops user criteria from match filters when it has no --userinfo, so the rule applies to everyone; a render must not silently widen a rule meant for one user",
	},
	"kyverno/smp-equality-anchor-is-literal-key": {
		expectError: "equality anchor =(team) is not supported in a mutate patch",
		why:         "Kyverno does not interpret =() and X() anchors in mutate patches and merges them into the resource as literal keys (kyverno issue #2109); the render rejects them instead of writing keys like \"=(team)\" into a manifest",
	},
	"kyverno/match-namespace-selector-no-labels-offline": {
		expectError: "namespaceSelector needs the labels of namespace \"prod\"",
		why:         "kyverno apply evaluates namespaceSelector against an empty label set offline, so the rule silently never applies; the render asks for the Namespace object instead",
	},
}

func runCase(t *testing.T, c *conformanceCase) {
	if d, ok := divergences[c.System+"/"+c.Name]; ok {
		t.Logf("diverges from upstream on purpose: %s", d.why)
		c.Expected, c.ExpectError = nil, d.expectError
	}
	input := caseResourceList(t, c)
	stdout, stderr, code := runBinary(t, input)
	out, err := yaml.Parse(string(stdout))
	require.NoError(t, err, "output is not YAML:\n%s\nstderr:\n%s", stdout, stderr)
	if c.ExpectError != "" {
		assert.NotEqual(t, 0, code, "expected a failure; stdout:\n%s", stdout)
		var msgs []string
		results, err := out.Pipe(yaml.Lookup("results"))
		require.NoError(t, err)
		require.NotNil(t, results, "no results in output:\n%s", stdout)
		for _, r := range results.Content() {
			if rn := yaml.NewRNode(r); yaml.GetValue(rn.Field("severity").Value) == "error" {
				msgs = append(msgs, yaml.GetValue(rn.Field("message").Value))
			}
		}
		require.NotEmpty(t, msgs, "no error result:\n%s", stdout)
		assert.Contains(t, strings.Join(msgs, "\n"), c.ExpectError, "note: %s", c.Note)
		return
	}
	require.Equal(t, 0, code, "stderr:\n%s\nstdout:\n%s", stderr, stdout)
	items, err := out.Pipe(yaml.Lookup("items"))
	require.NoError(t, err)
	var got []any
	for _, it := range items.Content() {
		rn := yaml.NewRNode(it)
		if isControlPlane(rn.GetApiVersion()) {
			continue
		}
		var v map[string]any
		require.NoError(t, rn.YNode().Decode(&v))
		got = append(got, stripAnnotations(v))
	}
	want := make([]any, 0, len(c.Expected))
	for _, e := range c.Expected {
		want = append(want, normalize(e))
	}
	assert.Equal(t, want, normalize(got), "note: %s", c.Note)
}

// caseResourceList builds the ResourceList FORMAT.md describes.
func caseResourceList(t *testing.T, c *conformanceCase) []byte {
	var items []any
	addAll := func(objs []map[string]any, path string) {
		for i, o := range objs {
			items = append(items, withWireAnnotations(o, path, i))
		}
	}
	addAll(c.Resources, "resources.yaml")
	addAll(c.Policies, "policies.yaml")
	fcSpec := map[string]any{}
	if c.Cluster != nil {
		addAll([]map[string]any{clusterObject(c)}, "clusters.yaml")
		fcSpec["cluster"] = c.Cluster.Name
	}
	rl := map[string]any{
		"apiVersion": "config.kubernetes.io/v1",
		"kind":       "ResourceList",
		"items":      items,
		"functionConfig": map[string]any{
			"apiVersion": "apply-overrides.dev/v1alpha1",
			"kind":       "ApplyOverrides",
			"metadata": map[string]any{
				"name":        "render",
				"annotations": map[string]any{"config.kubernetes.io/local-config": "true"},
			},
			"spec": fcSpec,
		},
	}
	b, err := yaml.Marshal(rl)
	require.NoError(t, err)
	return b
}

func clusterObject(c *conformanceCase) map[string]any {
	meta := map[string]any{"name": c.Cluster.Name}
	if len(c.Cluster.Labels) > 0 {
		meta["labels"] = c.Cluster.Labels
	}
	spec := map[string]any{}
	for k, v := range map[string]string{"provider": c.Cluster.Provider, "region": c.Cluster.Region, "zone": c.Cluster.Zone, "apiEndpoint": c.Cluster.APIEndpoint} {
		if v != "" {
			spec[k] = v
		}
	}
	if len(c.Cluster.Zones) > 0 {
		spec["zones"] = c.Cluster.Zones
	}
	if c.System == "kubeadmiral" {
		return map[string]any{"apiVersion": "core.kubeadmiral.io/v1alpha1", "kind": "FederatedCluster", "metadata": meta}
	}
	return map[string]any{"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster", "metadata": meta, "spec": spec}
}

// withWireAnnotations adds the path/index annotations kpt sends.
func withWireAnnotations(o map[string]any, path string, index int) map[string]any {
	out := map[string]any{}
	for k, v := range o {
		out[k] = v
	}
	meta := map[string]any{}
	if m, ok := o["metadata"].(map[string]any); ok {
		for k, v := range m {
			meta[k] = v
		}
	}
	annos := map[string]any{}
	if a, ok := meta["annotations"].(map[string]any); ok {
		for k, v := range a {
			annos[k] = v
		}
	}
	idx := strconv.Itoa(index)
	annos["config.kubernetes.io/index"] = idx
	annos["config.kubernetes.io/path"] = path
	annos["internal.config.kubernetes.io/index"] = idx
	annos["internal.config.kubernetes.io/path"] = path
	meta["annotations"] = annos
	out["metadata"] = meta
	return out
}

func isControlPlane(apiVersion string) bool {
	for _, g := range controlPlaneGroups {
		if strings.HasPrefix(apiVersion, g) {
			return true
		}
	}
	return false
}

func stripAnnotations(v map[string]any) map[string]any {
	meta, ok := v["metadata"].(map[string]any)
	if !ok {
		return v
	}
	annos, ok := meta["annotations"].(map[string]any)
	if !ok {
		return v
	}
	for k := range annos {
		for _, p := range ignoredAnnotationPrefixes {
			if strings.HasPrefix(k, p) {
				delete(annos, k)
			}
		}
	}
	if len(annos) == 0 {
		delete(meta, "annotations")
	}
	return v
}

// normalize round-trips a value through YAML so both sides have the same
// Go types.
func normalize(v any) any {
	b, err := yaml.Marshal(v)
	if err != nil {
		return err.Error()
	}
	var out any
	if err := yaml.Unmarshal(b, &out); err != nil {
		return err.Error()
	}
	return out
}
