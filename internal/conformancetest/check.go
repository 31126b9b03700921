// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package conformancetest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// controlPlaneGroups are the API groups whose objects are not compared.
var controlPlaneGroups = []string{"policy.karmada.io/", "policy.one.alibabacloud.com/", "core.kubeadmiral.io/", "kyverno.io/", "policies.kyverno.io/", "cluster.karmada.io/", "placement.kubernetes-fleet.io/", "cluster.kubernetes-fleet.io/"}

// ignoredAnnotationPrefixes are dropped before comparing.
var ignoredAnnotationPrefixes = []string{"config.kubernetes.io/", "internal.config.kubernetes.io/", "config.k8s.io/", "kustomize.config.k8s.io/", "apply-overrides.dev/"}

// CheckOutput asserts what a run of the function on ResourceList(c) gave:
// stdout, stderr and the exit code, as the binary or fn.Main return them.
// An expectError case must exit non-zero with an error result containing
// ExpectError; an expected case must exit 0 with the expected items.
func CheckOutput(t testing.TB, c *Case, stdout, stderr []byte, code int) {
	t.Helper()
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
		CheckErrors(t, c, msgs)
		return
	}
	require.Equal(t, 0, code, "stderr:\n%s\nstdout:\n%s", stderr, stdout)
	items, err := out.Pipe(yaml.Lookup("items"))
	require.NoError(t, err)
	CheckItems(t, c, items.Content())
}

// CheckErrors asserts that the error messages of a run contain the case's
// ExpectError.
func CheckErrors(t testing.TB, c *Case, msgs []string) {
	t.Helper()
	require.NotEmpty(t, c.ExpectError, "the case expects no error, got:\n%s", strings.Join(msgs, "\n"))
	assert.Contains(t, strings.Join(msgs, "\n"), c.ExpectError, "note: %s", c.Note)
}

// CheckItems compares the output items that are not policy or inventory
// objects, minus the wire and bookkeeping annotations, with the case's
// expected items, as parsed YAML and in order.
func CheckItems(t testing.TB, c *Case, items []*yaml.Node) {
	t.Helper()
	require.Empty(t, c.ExpectError, "the case expects an error")
	var got []any
	for _, it := range items {
		rn := yaml.NewRNode(it)
		if IsControlPlane(rn.GetApiVersion()) {
			continue
		}
		var v map[string]any
		require.NoError(t, rn.YNode().Decode(&v))
		got = append(got, StripAnnotations(v))
	}
	want := make([]any, 0, len(c.Expected))
	for _, e := range c.Expected {
		want = append(want, Normalize(e))
	}
	assert.Equal(t, want, Normalize(got), "note: %s", c.Note)
}

// IsControlPlane reports whether an apiVersion is in a policy or inventory
// API group (never compared: it does not reach a member cluster).
func IsControlPlane(apiVersion string) bool {
	for _, g := range controlPlaneGroups {
		if strings.HasPrefix(apiVersion, g) {
			return true
		}
	}
	return false
}

// StripAnnotations drops, in place, the annotations FORMAT.md leaves out of
// the comparison, and the annotations map if that leaves it empty.
func StripAnnotations(v map[string]any) map[string]any {
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

// Normalize round-trips a value through YAML so both sides have the same
// Go types.
func Normalize(v any) any {
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
