// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyverno

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func podRule() Rule {
	return Rule{
		Name:  "add-label",
		Match: MatchResources{Any: []ResourceFilter{{Resources: ResourceDescription{Kinds: []string{"Pod"}}}}},
		Mutate: &Mutation{PatchStrategicMerge: map[string]any{
			"metadata": map[string]any{"labels": map[string]any{"name": "{{request.object.metadata.name}}"}},
		}},
	}
}

func TestComputeRulesAutogen(t *testing.T) {
	p := &Policy{Spec: Spec{Rules: []Rule{podRule()}}}
	rules, err := computeRules(p)
	require.NoError(t, err)
	require.Len(t, rules, 3)
	assert.Equal(t, "add-label", rules[0].Name)
	assert.Equal(t, "autogen-add-label", rules[1].Name)
	assert.Equal(t, []string{"apps/v1/DaemonSet", "apps/v1/Deployment", "batch/v1/Job", "apps/v1/ReplicaSet", "v1/ReplicationController", "apps/v1/StatefulSet"},
		rules[1].Match.Any[0].Resources.Kinds)
	assert.Equal(t, map[string]any{"spec": map[string]any{"template": map[string]any{
		"metadata": map[string]any{"labels": map[string]any{"name": "{{request.object.spec.template.metadata.name}}"}},
	}}}, rules[1].Mutate.PatchStrategicMerge)
	assert.Equal(t, "autogen-cronjob-add-label", rules[2].Name)
	assert.Equal(t, []string{"batch/v1/CronJob"}, rules[2].Match.Any[0].Resources.Kinds)
	assert.Equal(t, map[string]any{"spec": map[string]any{"jobTemplate": map[string]any{"spec": map[string]any{"template": map[string]any{
		"metadata": map[string]any{"labels": map[string]any{"name": "{{request.object.spec.jobTemplate.spec.template.metadata.name}}"}},
	}}}}}, rules[2].Mutate.PatchStrategicMerge)
}

func TestComputeRulesAnnotation(t *testing.T) {
	for value, want := range map[string][]string{
		"none":                {"add-label"},
		"Deployment":          {"add-label", "autogen-add-label"},
		"CronJob":             {"add-label", "autogen-cronjob-add-label"},
		"StatefulSet,CronJob": {"add-label", "autogen-add-label", "autogen-cronjob-add-label"},
	} {
		p := &Policy{Metadata: Metadata{Annotations: map[string]string{AnnotationAutogenControllers: value}}, Spec: Spec{Rules: []Rule{podRule()}}}
		rules, err := computeRules(p)
		require.NoError(t, err)
		var names []string
		for _, r := range rules {
			names = append(names, r.Name)
		}
		assert.Equal(t, want, names, value)
	}
}

func TestCanAutogen(t *testing.T) {
	withSelector := podRule()
	withSelector.Match.Any[0].Resources.Selector = &LabelSelector{MatchLabels: map[string]string{"a": "b"}}
	gvkOnly := podRule()
	gvkOnly.Match.Any[0].Resources.Kinds = []string{"v1/Pod"}
	podAndMore := podRule()
	podAndMore.Match.Any[0].Resources.Kinds = []string{"Pod", "ConfigMap"}
	jsonPatch := podRule()
	jsonPatch.Mutate = &Mutation{PatchesJSON6902: "- op: add\n  path: /x\n  value: 1"}
	for name, c := range map[string]struct {
		r    Rule
		want bool
	}{
		"pod":            {podRule(), true},
		"selector":       {withSelector, false},
		"v1/Pod only":    {gvkOnly, false},
		"pod and others": {podAndMore, false},
		"json patch":     {jsonPatch, false},
	} {
		assert.Equal(t, c.want, canAutogen(&Spec{Rules: []Rule{c.r}}), name)
	}
}
