// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package conformancetest

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

// recorder is a testing.TB that records failures instead of failing the
// test, so that the checks can be shown to fail when they should.
type recorder struct {
	testing.TB
	mu     sync.Mutex
	errors []string
}

func (r *recorder) Helper()             {}
func (r *recorder) Logf(string, ...any) {}
func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) FailNow() { runtime.Goexit() } // as t.FailNow ends a test

// check runs f with a recorder in its own goroutine (FailNow ends it) and
// returns the recorded failures, joined.
func check(t *testing.T, f func(tb testing.TB)) string {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return strings.Join(r.errors, "\n")
}

var kubeadmiralCase = &Case{
	ID: "kubeadmiral/x", Name: "x", System: "kubeadmiral",
	Cluster: &Cluster{Name: "member1", Labels: map[string]string{"env": "prod"}, Region: "ignored"},
	Resources: []map[string]any{
		{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c", "annotations": map[string]any{"keep": "me"}}},
	},
	Policies: []map[string]any{
		{"apiVersion": "core.kubeadmiral.io/v1alpha1", "kind": "OverridePolicy", "metadata": map[string]any{"name": "p", "namespace": "default"}},
	},
}

func TestResourceList(t *testing.T) {
	rl := yaml.MustParse(string(ResourceList(t, kubeadmiralCase)))
	assert.Equal(t, "config.kubernetes.io/v1", rl.GetApiVersion())
	assert.Equal(t, "ResourceList", rl.GetKind())
	items, err := rl.Pipe(yaml.Lookup("items"))
	require.NoError(t, err)
	nodes, err := items.Elements()
	require.NoError(t, err)
	require.Len(t, nodes, 3)
	for i, want := range []struct{ kind, path string }{{"ConfigMap", "resources.yaml"}, {"OverridePolicy", "policies.yaml"}, {"FederatedCluster", "clusters.yaml"}} {
		assert.Equal(t, want.kind, nodes[i].GetKind())
		annos := nodes[i].GetAnnotations()
		assert.Equal(t, want.path, annos["config.kubernetes.io/path"])
		assert.Equal(t, want.path, annos["internal.config.kubernetes.io/path"])
		assert.Equal(t, "0", annos["config.kubernetes.io/index"])
		assert.Equal(t, "0", annos["internal.config.kubernetes.io/index"])
	}
	assert.Equal(t, "me", nodes[0].GetAnnotations()["keep"], "the case's own annotations stay")
	assert.NotContains(t, kubeadmiralCase.Resources[0]["metadata"].(map[string]any)["annotations"], "config.kubernetes.io/path", "the case is not modified")
	assert.Equal(t, map[string]string{"env": "prod"}, nodes[2].GetLabels())
	assert.Nil(t, nodes[2].Field("spec"), "a FederatedCluster has no spec")
	fc := rl.Field("functionConfig").Value
	assert.Equal(t, "ApplyOverrides", fc.GetKind())
	assert.Equal(t, "true", fc.GetAnnotations()["config.kubernetes.io/local-config"])
	assert.Equal(t, "member1", yaml.GetValue(fc.Field("spec").Value.Field("cluster").Value))
	assert.Equal(t, &policy.Cluster{Name: "member1", Labels: map[string]string{"env": "prod"}}, PolicyCluster(kubeadmiralCase))

	karmada := &Case{System: "karmada", Cluster: &Cluster{Name: "m", Provider: "aws", Zone: "z1", Zones: []string{"z1", "z2"}, APIEndpoint: "https://m"}}
	assert.Equal(t, map[string]any{"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster", "metadata": map[string]any{"name": "m"},
		"spec": map[string]any{"provider": "aws", "zone": "z1", "zones": []string{"z1", "z2"}, "apiEndpoint": "https://m"}}, ClusterObject(karmada))
	assert.Equal(t, &policy.Cluster{Name: "m", Provider: "aws", Zone: "z1", Zones: []string{"z1", "z2"}}, PolicyCluster(karmada))

	noCluster := yaml.MustParse(string(ResourceList(t, &Case{System: "kyverno"})))
	spec := noCluster.Field("functionConfig").Value.Field("spec").Value
	assert.Empty(t, spec.YNode().Content, "no spec.cluster without a cluster")
	assert.Nil(t, PolicyCluster(&Case{System: "kyverno"}))
	assert.Empty(t, Items(t, &Case{System: "kyverno"}))
}

const okOutput = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: c
    annotations:
      config.kubernetes.io/index: '0'
      internal.config.kubernetes.io/path: resources.yaml
      apply-overrides.dev/cluster: member1
  data: {a: "1"}
- apiVersion: policy.karmada.io/v1alpha1
  kind: OverridePolicy
  metadata: {name: kept}
`

const errOutput = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items: []
results:
- message: 'OverridePolicy default/p: spec.overriders: Required value'
  severity: error
- message: cluster member1
  severity: info
`

func TestCheckOutput(t *testing.T) {
	expected := &Case{Expected: []map[string]any{{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c"}, "data": map[string]any{"a": "1"}}}}
	assert.Empty(t, check(t, func(tb testing.TB) { CheckOutput(tb, expected, []byte(okOutput), nil, 0) }), "wire annotations and policies are left out")

	wrong := &Case{Note: "the note", Expected: []map[string]any{{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c"}, "data": map[string]any{"a": 1}}}}
	msg := check(t, func(tb testing.TB) { CheckOutput(tb, wrong, []byte(okOutput), nil, 0) })
	assert.Contains(t, msg, "Not equal", "1 and \"1\" differ")
	assert.Contains(t, msg, "the note")

	assert.Contains(t, check(t, func(tb testing.TB) { CheckOutput(tb, expected, []byte(okOutput), []byte("boom"), 1) }), "boom", "a failed run")

	failing := &Case{ExpectError: "spec.overriders: Required value"}
	assert.Empty(t, check(t, func(tb testing.TB) { CheckOutput(tb, failing, []byte(errOutput), nil, 1) }))
	assert.Contains(t, check(t, func(tb testing.TB) { CheckOutput(tb, failing, []byte(errOutput), nil, 0) }), "expected a failure")
	assert.Contains(t, check(t, func(tb testing.TB) { CheckOutput(tb, &Case{ExpectError: "cluster member1"}, []byte(errOutput), nil, 1) }),
		"does not contain", "info results do not count")
	assert.Contains(t, check(t, func(tb testing.TB) { CheckOutput(tb, failing, []byte(okOutput), nil, 1) }), "no results")
	assert.Contains(t, check(t, func(tb testing.TB) { CheckOutput(tb, failing, []byte("{"), nil, 1) }), "output is not YAML")
}

func TestDiverge(t *testing.T) {
	c := &Case{System: "kyverno", Name: "smp-equality-anchor-is-literal-key", Expected: []map[string]any{{"kind": "X"}}}
	c.Diverge(t)
	assert.Nil(t, c.Expected)
	assert.Equal(t, Divergences["kyverno/smp-equality-anchor-is-literal-key"].ExpectError, c.ExpectError)

	c = &Case{System: "karmada", Name: "smp-equality-anchor-is-literal-key", ExpectError: "x"}
	c.Diverge(t)
	assert.Equal(t, "x", c.ExpectError, "keyed by system and name")
}

func TestLoad(t *testing.T) {
	cases := Load(t, "../../testdata/conformance", "ack-one")
	require.NotEmpty(t, cases)
	for _, c := range cases {
		assert.True(t, strings.HasPrefix(c.ID, "ack-one/"), c.ID)
		assert.Equal(t, strings.TrimPrefix(c.ID, "ack-one/"), c.Name, "the name equals the file name")
	}
	all := Load(t, "../../testdata/conformance")
	assert.Greater(t, len(all), len(cases))
	for i := 1; i < len(all); i++ {
		assert.Less(t, all[i-1].ID, all[i].ID)
	}
	golden := LoadGolden(t, "../../testdata/golden")
	byName := map[string]Golden{}
	for _, g := range golden {
		byName[g.Name] = g
		assert.NotEmpty(t, g.Input, g.Name)
	}
	assert.Equal(t, 0, byName["comments"].WantCode)
	assert.Equal(t, 1, byName["invalid-policy"].WantCode)
}

// labelSet is a Set that labels every resource env=<value>.
type labelSet string

func (s labelSet) Rules(*policy.Resource) ([]*policy.Rule, error) {
	return []*policy.Rule{{Policy: &policy.Ref{Kind: "P", Name: "p"}, Steps: []policy.Step{{Field: "spec", Filter: yaml.SetLabel("env", string(s))}}}}, nil
}

// fakeDialect claims x.io objects; a P without spec.value is invalid.
type fakeDialect struct{}

func (fakeDialect) Claims(apiVersion, kind string) (bool, error) {
	if apiVersion == "x.io/v2" {
		return true, errors.New("x.io/v2 is not supported")
	}
	return strings.HasPrefix(apiVersion, "x.io/"), nil
}

func (fakeDialect) Compile(objs []*yaml.RNode) (policy.Policies, []error) {
	var values fakePolicies
	for _, o := range objs {
		v, err := o.Pipe(yaml.Lookup("spec", "value"))
		if err != nil || v == nil {
			return nil, []error{&policy.Error{Policy: policy.RefOf(o), Field: "spec.value", Err: errors.New("Required value")}}
		}
		values = append(values, yaml.GetValue(v))
	}
	return values, nil
}

// fakePolicies label resources with each value and the cluster's name.
type fakePolicies []string

func (f fakePolicies) For(t policy.Target) (policy.Binding, []error) {
	var b policy.Binding
	for _, v := range f {
		b.Sets = append(b.Sets, labelSet(v+"-"+t.Cluster.Name))
	}
	return b, nil
}

func TestRunDialect(t *testing.T) {
	base := func(p map[string]any) *Case {
		return &Case{
			System:    "x",
			Cluster:   &Cluster{Name: "m1"},
			Resources: []map[string]any{{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c"}}},
			Policies:  []map[string]any{p},
		}
	}
	good := map[string]any{"apiVersion": "x.io/v1", "kind": "P", "metadata": map[string]any{"name": "p"}, "spec": map[string]any{"value": "prod"}}
	want := []map[string]any{{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c", "labels": map[string]any{"env": "prod-m1"}}}}

	c := base(good)
	c.Expected = want
	assert.Empty(t, check(t, func(tb testing.TB) { RunDialect(tb, c, fakeDialect{}) }))

	c = base(good)
	c.Expected = []map[string]any{{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c"}}}
	assert.Contains(t, check(t, func(tb testing.TB) { RunDialect(tb, c, fakeDialect{}) }), "Not equal")

	c = base(map[string]any{"apiVersion": "x.io/v1", "kind": "P", "metadata": map[string]any{"name": "p"}})
	c.ExpectError = "P p: Required value"
	assert.Empty(t, check(t, func(tb testing.TB) { RunDialect(tb, c, fakeDialect{}) }), "a compile error")
	c.ExpectError = ""
	c.Expected = want
	assert.Contains(t, check(t, func(tb testing.TB) { RunDialect(tb, c, fakeDialect{}) }), "the case expects no error")

	c = base(map[string]any{"apiVersion": "x.io/v2", "kind": "P", "metadata": map[string]any{"name": "p"}})
	c.ExpectError = "P p: x.io/v2 is not supported"
	assert.Empty(t, check(t, func(tb testing.TB) { RunDialect(tb, c, fakeDialect{}) }), "a Claims error, as fn reports it")

	c = base(good)
	c.ExpectError = "something"
	assert.Contains(t, check(t, func(tb testing.TB) { RunDialect(tb, c, fakeDialect{}) }), "the run succeeded", "an expected error that does not come")
}
