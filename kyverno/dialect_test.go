// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyverno

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

func compileSet(t *testing.T, c *policy.Cluster, objs ...string) ([]policy.Set, []error) {
	t.Helper()
	var nodes []*yaml.RNode
	for _, o := range objs {
		nodes = append(nodes, yaml.MustParse(o))
	}
	b, errs := policy.CompileFor(Dialect{}, nodes, policy.Target{Cluster: c})
	return b.Sets, errs
}

const labelPolicy = `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: ns-label}
spec:
  rules:
  - name: copy-namespace
    match: {any: [{resources: {kinds: [ConfigMap]}}]}
    mutate:
      patchStrategicMerge:
        metadata:
          labels:
            ns: "{{request.object.metadata.namespace}}"
            seen: "{{request.object.metadata.annotations || ` + "`{}`" + ` | length(@)}}"
`

// TestWireAnnotationsAndDefaultNamespace: the policy sees neither the
// orchestrator's annotations nor a missing namespace, and the output keeps
// the annotations where they were and gains no namespace.
func TestWireAnnotationsAndDefaultNamespace(t *testing.T) {
	sets, errs := compileSet(t, nil, labelPolicy)
	require.Empty(t, errs)
	res := yaml.MustParse(`apiVersion: v1
kind: ConfigMap
metadata:
  name: cm
  annotations:
    config.kubernetes.io/index: "0"
    note: kept # comment
    internal.config.kubernetes.io/path: cm.yaml
`)
	n, err := policy.Apply(policy.NewResource(res), sets)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.Equal(t, `apiVersion: v1
kind: ConfigMap
metadata:
  name: cm
  annotations:
    config.kubernetes.io/index: "0"
    note: kept # comment
    internal.config.kubernetes.io/path: cm.yaml
  labels:
    ns: default
    seen: 1
`, res.MustString(), "one annotation seen (a single variable keeps its JSON type, as upstream)")
}

func TestCompileErrors(t *testing.T) {
	for name, c := range map[string]struct {
		policy, want string
	}{
		"unknown field": {`apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: p}
spec:
  rules:
  - name: r
    match: {any: [{resources: {kinds: [Pod]}}]}
    mutate: {patchStrategicMerge: {}, patchStrategicMerg: {}}
`, "spec.rules[0].mutate.patchStrategicMerg: Forbidden: unknown field"},
		"mutate targets": {`apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: p}
spec:
  rules:
  - name: r
    match: {any: [{resources: {kinds: [ConfigMap]}}]}
    mutate:
      targets: [{apiVersion: v1, kind: Secret}]
      patchStrategicMerge: {metadata: {labels: {a: b}}}
`, "mutate targets (mutate-existing rules) are not supported"},
		"apiCall context": {`apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: p}
spec:
  rules:
  - name: r
    match: {any: [{resources: {kinds: [ConfigMap]}}]}
    context: [{name: svc, apiCall: {urlPath: /api/v1/namespaces}}]
    mutate: {patchStrategicMerge: {metadata: {labels: {a: b}}}}
`, `context entry "svc" of type apiCall is not supported`},
		"user info": {`apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: p}
spec:
  background: false
  rules:
  - name: r
    match: {any: [{resources: {kinds: [ConfigMap]}, roles: [admin]}]}
    mutate: {patchStrategicMerge: {metadata: {labels: {a: b}}}}
`, "user info criteria (subjects, roles, clusterRoles) are not supported"},
		"old object": {`apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: p}
spec:
  rules:
  - name: r
    match: {any: [{resources: {kinds: [ConfigMap]}}]}
    mutate: {patchStrategicMerge: {metadata: {labels: {a: "{{request.oldObject.metadata.name}}"}}}}
`, "request.oldObject"},
		"version": {`apiVersion: kyverno.io/v2
kind: ClusterPolicy
metadata: {name: p}
spec: {rules: []}
`, ""},
	} {
		if name == "version" {
			_, err := Dialect{}.Claims("kyverno.io/v2", "ClusterPolicy")
			assert.ErrorContains(t, err, "supported versions are kyverno.io/v1 and kyverno.io/v2beta1", name)
			for _, v := range []string{"kyverno.io/v1", "kyverno.io/v2beta1"} {
				claimed, err := Dialect{}.Claims(v, "Policy")
				assert.True(t, claimed, v)
				assert.NoError(t, err, v)
			}
			continue
		}
		_, errs := compileSet(t, nil, c.policy)
		require.Len(t, errs, 1, name)
		assert.ErrorContains(t, errs[0], c.want, name)
	}
}

func TestSelectedByScope(t *testing.T) {
	c := &policy.Selection{Scoped: []string{"prod-*", "shop/x"}, Selected: []string{"shop/x"}}
	assert.True(t, selected(c, policy.Ref{Kind: KindClusterPolicy, Name: "other"}))
	assert.False(t, selected(c, policy.Ref{Kind: KindClusterPolicy, Name: "prod-a"}))
	assert.True(t, selected(c, policy.Ref{Kind: KindPolicy, Namespace: "shop", Name: "x"}))
	assert.True(t, selected(nil, policy.Ref{Kind: KindClusterPolicy, Name: "prod-a"}))
}

// TestKindPrefilter: a policy none of whose rules can match the resource's
// kind leaves it as it is without reading it (not even as JSON: a value JSON
// cannot hold fails only where a rule matches).
func TestKindPrefilter(t *testing.T) {
	sets, errs := compileSet(t, nil, labelPolicy)
	require.Empty(t, errs)
	const secret = `apiVersion: v1
kind: Secret
metadata: {name: s, namespace: shop} # comment
data: {ratio: .nan}
`
	res := yaml.MustParse(secret)
	n, err := policy.Apply(policy.NewResource(res), sets)
	require.NoError(t, err)
	assert.Equal(t, 0, n)
	assert.Equal(t, secret, res.MustString())

	res = yaml.MustParse(`apiVersion: v1
kind: ConfigMap
metadata: {name: cm, namespace: shop}
data: {ratio: .nan}
`)
	_, err = policy.Apply(policy.NewResource(res), sets)
	require.ErrorContains(t, err, "unsupported value: NaN")
}

func TestNodeGVK(t *testing.T) {
	for in, want := range map[string][4]any{
		"apiVersion: apps/v1\nkind: Deployment":     {"apps", "v1", "Deployment", true},
		"kind: ConfigMap\napiVersion: v1":           {"", "v1", "ConfigMap", true},
		"apiVersion: v1":                            {"", "", "", false},
		"apiVersion: v1\nkind: !!str ConfigMap":     {"", "", "", false},
		"apiVersion: v1\nkind: 12":                  {"", "", "", false},
		"apiVersion: v1\nkind: [ConfigMap]":         {"", "", "", false},
		"apiVersion: v1\nkind: &k ConfigMap\nx: *k": {"", "v1", "ConfigMap", true},
		"[a]": {"", "", "", false},
	} {
		g, v, k, ok := nodeGVK(yaml.MustParse(in))
		assert.Equal(t, want, [4]any{g, v, k, ok}, in)
	}
}
