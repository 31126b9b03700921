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

// TestMatchedRules: a rule matched when its match, exclude and
// preconditions pass, whether it changed the resource or not (a +()
// anchor that finds the field set); an autogen rule counts as the rule of
// spec.rules it was generated from; a rule whose precondition fails, or
// that applyRules One never reaches, did not match. The binding lists the
// policy's mutate rules, autogen ones as their source, with hints.
func TestMatchedRules(t *testing.T) {
	const pol = `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: p}
spec:
  rules:
  - name: validate-only
    match: {any: [{resources: {kinds: [Deployment]}}]}
    validate: {pattern: {metadata: {name: "?*"}}}
  - name: defensive
    match: {any: [{resources: {kinds: [Deployment]}}]}
    mutate: {patchStrategicMerge: {spec: {+(replicas): 1}}}
  - name: pods
    match: {any: [{resources: {kinds: [Pod]}}]}
    mutate: {patchStrategicMerge: {metadata: {labels: {pod: "yes"}}}}
  - name: not-prod
    match: {any: [{resources: {kinds: [Deployment]}}]}
    preconditions: {all: [{key: "{{request.object.metadata.namespace}}", operator: Equals, value: prod}]}
    mutate: {patchStrategicMerge: {metadata: {labels: {prod: "yes"}}}}
  - name: typo
    match: {any: [{resources: {kinds: [Deploymnet]}}]}
    exclude: {any: [{resources: {namespaces: [kube-system]}}]}
    mutate: {patchStrategicMerge: {metadata: {labels: {x: "y"}}}}
`
	deploy := `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 3
  template: {spec: {containers: [{name: web, image: nginx}]}}
`
	ps, errs := Dialect{}.Compile([]*yaml.RNode{yaml.MustParse(pol)})
	require.Empty(t, errs)
	b, errs := ps.For(policy.Target{})
	require.Empty(t, errs)
	var bound []string
	for _, r := range b.Rules {
		bound = append(bound, r.Rule+" "+r.Name)
	}
	assert.Equal(t, []string{"spec.rules[1] defensive", "spec.rules[2] pods", "spec.rules[3] not-prod", "spec.rules[4] typo"}, bound)

	tr := &policy.Trace{}
	_, err := policy.ApplyTrace(policy.NewResource(yaml.MustParse(deploy)), b.Sets, tr)
	require.NoError(t, err)
	var matched []string
	for _, m := range tr.Matched {
		matched = append(matched, m.Rule)
	}
	assert.Equal(t, []string{"spec.rules[1]", "spec.rules[2]"}, matched, "the defensive rule, and the Pod rule through autogen")

	seen := policy.Seen{Kinds: []string{"Deployment"}, Names: []string{"web-front"}}
	assert.Equal(t, "it matches kind Deploymnet, with an exclude block; near misses in the input: kind Deployment: check the rule's match, exclude and preconditions",
		b.Rules[3].Hint(seen))

	ps, errs = Dialect{}.Compile([]*yaml.RNode{yaml.MustParse(`apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: q}
spec:
  rules:
  - name: by-name
    match: {any: [{resources: {kinds: [apps/v1/Deployment, StatefulSet], names: [wbe-front, "api-*"], namespaces: [shop], selector: {matchLabels: {a: b}}}}]}
    mutate: {patchStrategicMerge: {metadata: {labels: {x: "y"}}}}
`)})
	require.Empty(t, errs)
	b, errs = ps.For(policy.Target{})
	require.Empty(t, errs)
	require.Len(t, b.Rules, 1)
	assert.Equal(t, "it matches kinds apps/v1/Deployment, StatefulSet; names wbe-front, api-*; namespace shop, with a label selector; near misses in the input: name web-front: check the rule's match, exclude and preconditions",
		b.Rules[0].Hint(seen))
}

// TestMatchedApplyOne: under spec.applyRules One a rule after one that
// changed the resource is not tried, so it did not match; its hint says
// why it may never be.
func TestMatchedApplyOne(t *testing.T) {
	ps, errs := Dialect{}.Compile([]*yaml.RNode{yaml.MustParse(`apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: one}
spec:
  applyRules: One
  rules:
  - name: first
    match: {any: [{resources: {kinds: [ConfigMap]}}]}
    mutate: {patchStrategicMerge: {metadata: {labels: {a: "1"}}}}
  - name: second
    match: {any: [{resources: {kinds: [ConfigMap]}}]}
    mutate: {patchStrategicMerge: {metadata: {labels: {b: "2"}}}}
`)})
	require.Empty(t, errs)
	b, errs := ps.For(policy.Target{})
	require.Empty(t, errs)
	tr := &policy.Trace{}
	_, err := policy.ApplyTrace(policy.NewResource(yaml.MustParse("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n")), b.Sets, tr)
	require.NoError(t, err)
	require.Len(t, tr.Matched, 1)
	assert.Equal(t, "spec.rules[0]", tr.Matched[0].Rule)
	assert.Equal(t, "it matches kind ConfigMap; spec.applyRules is One, so it is tried only on resources no earlier rule changed: check the rule's match, exclude and preconditions",
		b.Rules[1].Hint(policy.Seen{Kinds: []string{"ConfigMap"}}))
}
