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
	assert.Equal(t, Everywhere, got, "a later placer that places the resource wins over one that leaves it out")

	got, err = Place(cm, placers[:1])
	require.NoError(t, err)
	assert.Equal(t, out, got, "none places it: the first decision says why")

	got, err = Place(dep, placers)
	require.NoError(t, err)
	assert.Equal(t, Everywhere, got, "no placer decides: every cluster receives it")
	assert.True(t, got.Placed)

	_, err = Place(cm, []Placer{kindPlacer{kind: "ConfigMap", err: errors.New("no status")}})
	assert.EqualError(t, err, "no status")
}

func TestDecodeCluster(t *testing.T) {
	var own struct {
		Spec struct {
			Region string `yaml:"region"`
		} `yaml:"spec"`
	}
	c, err := DecodeCluster(yaml.MustParse(`apiVersion: x.io/v1
kind: Cluster
metadata: {name: m1, labels: {env: prod}}
spec:
  region: eu
  taints: [{key: k, value: v, effect: NoSchedule}]
status:
  conditions: [{type: Joined, status: "True"}, {type: Ready, status: "False"}]
`), &own)
	require.NoError(t, err)
	assert.Equal(t, Cluster{
		Name: "m1", Labels: map[string]string{"env": "prod"},
		Taints: []Taint{{Key: "k", Value: "v", Effect: "NoSchedule"}}, Ready: "False", Joined: "True",
		Source: Ref{APIVersion: "x.io/v1", Kind: "Cluster", Name: "m1"},
	}, c)
	assert.Equal(t, "eu", own.Spec.Region)

	c, err = DecodeCluster(yaml.MustParse("apiVersion: x.io/v1\nkind: Cluster\nmetadata: {name: m2}\n"), nil)
	require.NoError(t, err)
	assert.Equal(t, "", c.Ready, "no conditions: readiness unknown")
	assert.Nil(t, c.Taints)

	_, err = DecodeCluster(yaml.MustParse("apiVersion: x.io/v1\nkind: Cluster\nmetadata: {labels: {a: b}}\n"), nil)
	assert.EqualError(t, err, "x.io/v1 Cluster : metadata.name: Required value")
	_, err = DecodeCluster(yaml.MustParse("apiVersion: x.io/v1\nkind: Cluster\nmetadata: {name: m}\nspec: {region: [a]}\n"), &own)
	assert.EqualError(t, err, "x.io/v1 Cluster m: yaml: unmarshal errors:\n  line 4: cannot unmarshal !!seq into string")
}

func TestQuantities(t *testing.T) {
	q, errs := Quantities(map[string]yaml.Node{"cpu": scalar8("8"), "memory": scalar8("32Gi")}, field.NewPath("status", "x"))
	require.Empty(t, errs)
	assert.Equal(t, map[string]resource.Quantity{"cpu": resource.MustParse("8"), "memory": resource.MustParse("32Gi")}, q)
	q, errs = Quantities(nil, field.NewPath("status", "x"))
	require.Empty(t, errs)
	assert.Nil(t, q)
	_, errs = Quantities(map[string]yaml.Node{"cpu": scalar8("8"), "memory": scalar8("lots"), "pods": {Kind: yaml.MappingNode}}, field.NewPath("status", "x"))
	assert.EqualError(t, errs.ToAggregate(), `[status.x[memory]: Invalid value: "lots": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': write a Kubernetes quantity, e.g. 8, 500m or 32Gi, status.x[pods]: Invalid value: null: expected a quantity, e.g. 8, 500m or 32Gi]`)
}

func scalar8(v string) yaml.Node {
	return yaml.Node{Kind: yaml.ScalarNode, Value: v, Tag: yaml.NodeTagString}
}

func TestIsScalarResource(t *testing.T) {
	for name, want := range map[string]bool{
		"nvidia.com/gpu": true, "hugepages-2Mi": true, "kubernetes.io/x": true, "attachable-volumes-aws-ebs": true,
		"cpu": false, "pods": false, "requests.a.io/b": false, "example.com/bad name": false,
	} {
		assert.Equal(t, want, IsScalarResource(name), name)
	}
}

// TestTolerates holds ToleratesTaint's rules (k8s.io/api core/v1
// toleration.go), as Karmada's and KubeAdmiral's TaintToleration filters
// call it.
func TestTolerates(t *testing.T) {
	taint := Taint{Key: "dedicated", Value: "gpu", Effect: "NoSchedule"}
	for name, c := range map[string]struct {
		tol  Toleration
		want bool
	}{
		"equal":                {Toleration{Key: "dedicated", Operator: "Equal", Value: "gpu", Effect: "NoSchedule"}, true},
		"no operator is Equal": {Toleration{Key: "dedicated", Value: "gpu"}, true},
		"other value":          {Toleration{Key: "dedicated", Value: "cpu"}, false},
		"exists":               {Toleration{Key: "dedicated", Operator: "Exists"}, true},
		"exists, any key":      {Toleration{Operator: "Exists"}, true},
		"empty key and Equal":  {Toleration{Operator: "Equal", Value: "gpu"}, true},
		"other effect":         {Toleration{Key: "dedicated", Operator: "Exists", Effect: "NoExecute"}, false},
		"Lt never tolerates":   {Toleration{Key: "dedicated", Operator: "Lt", Value: "gpu"}, false},
		"other key":            {Toleration{Key: "team", Operator: "Exists"}, false},
	} {
		assert.Equal(t, c.want, c.tol.Tolerates(taint), name)
	}
	prefer := []Taint{{Key: "soft", Effect: "PreferNoSchedule"}, taint}
	assert.Equal(t, &prefer[1], Untolerated(prefer, nil, "NoSchedule", "NoExecute"), "PreferNoSchedule is ignored")
	assert.Nil(t, Untolerated(prefer, []Toleration{{Operator: "Exists"}}, "NoSchedule", "NoExecute"))
}

func TestReasons(t *testing.T) {
	assert.Equal(t, "", Reasons(nil))
	assert.Equal(t, "a: x; b: y", Reasons(map[string]string{"b": "y", "a": "x"}))
}
