// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package policy

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// kindPlacer decides on one kind only.
type kindPlacer struct {
	kind string
	p    Placement
	err  error
}

func (k kindPlacer) Place(res *Resource) (Placement, bool, error) {
	if res.Kind != k.kind {
		return Placement{}, false, nil
	}
	return k.p, true, k.err
}

func TestPlace(t *testing.T) {
	cm := NewResource(yaml.MustParse("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"))
	dep := NewResource(yaml.MustParse("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\n"))
	by := &Ref{Kind: "PropagationPolicy", Name: "pp"}
	out := Placement{Placed: false, By: by, Reason: "not selected"}
	placers := []Placer{kindPlacer{kind: "ConfigMap", p: out}, kindPlacer{kind: "ConfigMap", p: Everywhere}}

	got, err := Place(cm, placers)
	require.NoError(t, err)
	assert.Equal(t, out, got, "the first placer that decides wins")

	got, err = Place(dep, placers)
	require.NoError(t, err)
	assert.Equal(t, Everywhere, got, "no placer decides: every cluster receives it")
	assert.True(t, got.Placed)

	_, err = Place(cm, []Placer{kindPlacer{kind: "ConfigMap", err: errors.New("no status")}})
	assert.EqualError(t, err, "no status")
}

func TestClusterFields(t *testing.T) {
	assert.Nil(t, Taints(nil))
	assert.Equal(t, []Taint{{Key: "k", Value: "v", Effect: "NoSchedule"}}, Taints([]TaintField{{Key: "k", Value: "v", Effect: "NoSchedule"}}))

	assert.Equal(t, "", ReadyStatus(nil))
	assert.Equal(t, "False", ReadyStatus([]ConditionField{{Type: "Joined", Status: "True"}, {Type: "Ready", Status: "False"}}))

	q, errs := Quantities(map[string]yaml.Node{"cpu": scalar8("8"), "memory": scalar8("32Gi")}, field.NewPath("status", "x"))
	require.Empty(t, errs)
	assert.Equal(t, map[string]resource.Quantity{"cpu": resource.MustParse("8"), "memory": resource.MustParse("32Gi")}, q)
	q, errs = Quantities(nil, field.NewPath("status", "x"))
	require.Empty(t, errs)
	assert.Nil(t, q)
	_, errs = Quantities(map[string]yaml.Node{"cpu": scalar8("8"), "memory": scalar8("lots"), "pods": {Kind: yaml.MappingNode}}, field.NewPath("status", "x"))
	assert.EqualError(t, errs.ToAggregate(), `[status.x[memory]: Invalid value: "lots": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$' (e.g. 8, 500m or 32Gi), status.x[pods]: Invalid value: null: expected a quantity, e.g. 8, 500m or 32Gi]`)
}

func scalar8(v string) yaml.Node {
	return yaml.Node{Kind: yaml.ScalarNode, Value: v, Tag: yaml.NodeTagString}
}
