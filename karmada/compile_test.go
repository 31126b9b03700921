// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

// TestUnmatchedTargetWarns holds the warning for an override rule whose
// targetCluster matches no cluster of the inventory: once per input, not
// once per rendered cluster, and not without a fleet.
func TestUnmatchedTargetWarns(t *testing.T) {
	op := yaml.MustParse(`apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: op, namespace: default}
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]
  overrideRules:
  - targetCluster: {clusterNames: [member-1]}
    overriders: {plaintext: [{path: /data/a, operator: add, value: b}]}
  - targetCluster: {labelSelector: {matchLabels: {env: prod}}}
    overriders: {plaintext: [{path: /data/c, operator: add, value: d}]}
  - overriders: {plaintext: [{path: /data/e, operator: add, value: f}]}
`)
	ps, errs := Dialect{}.Compile([]*yaml.RNode{op})
	require.Empty(t, errs)
	fleet := []*policy.Cluster{{Name: "member1", Labels: map[string]string{"env": "prod"}}, {Name: "member2"}}
	_, errs = ps.For(policy.Target{Cluster: fleet[0], Fleet: fleet, Placement: policy.PlacementAuto})
	require.Len(t, errs, 1)
	assert.True(t, policy.IsWarning(errs[0]))
	assert.EqualError(t, errs[0], `OverridePolicy default/op: spec.overrideRules[0].targetCluster {"clusterNames":["member-1"]} matches no cluster of the inventory (member1, member2), so the rule applies nowhere: check its cluster names and labels`)
	_, errs = ps.For(policy.Target{Cluster: fleet[1], Fleet: fleet, Placement: policy.PlacementAuto})
	assert.Empty(t, errs, "reported once per input")

	ps, _ = Dialect{}.Compile([]*yaml.RNode{op})
	_, errs = ps.For(policy.Target{Cluster: fleet[0], Placement: policy.PlacementAuto})
	assert.Empty(t, errs, "no fleet given: nothing to check against")
}
