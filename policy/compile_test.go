// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package policy

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func objects(t *testing.T, docs ...string) []*yaml.RNode {
	t.Helper()
	var out []*yaml.RNode
	for _, d := range docs {
		out = append(out, yaml.MustParse(d))
	}
	return out
}

// pKey keys P objects by namespace/name and skips every other kind.
func pKey(ref Ref) (string, bool) {
	return "P/" + ref.Namespace + "/" + ref.Name, ref.Kind == "P"
}

// decodeP reads spec.value; a missing value is a field error, "bad" an
// *Error on another field, "plain" an error of no particular field.
func decodeP(obj *yaml.RNode, ref Ref) (string, []error) {
	v, err := obj.Pipe(yaml.Lookup("spec", "value"))
	if err != nil || v == nil {
		return "", FieldErrors(field.ErrorList{field.Required(field.NewPath("spec", "value"), "")})
	}
	switch yaml.GetValue(v) {
	case "bad":
		return "", []error{&Error{Policy: ref, Field: "spec.other", Err: errors.New("other field")}}
	case "plain":
		return "", []error{errors.New("plain")}
	}
	return yaml.GetValue(v), nil
}

func TestDecode(t *testing.T) {
	ix, errs := Decode(objects(t,
		"kind: P\nmetadata: {name: a, namespace: ns}\nspec: {value: one}",
		"kind: Q\nmetadata: {name: a, namespace: ns}\nspec: {value: ignored}",
		"kind: P\nmetadata: {name: b}\nspec: {value: two}",
	), pKey, decodeP)
	require.Empty(t, errs)
	require.Len(t, ix.List, 2)
	assert.Equal(t, "one", ix.List[0].Policy)
	assert.Equal(t, "P/ns/a", ix.List[0].Key)
	assert.Equal(t, "b", ix.List[1].Ref.Name)
	d, ok := ix.Get("P//b")
	require.True(t, ok)
	assert.Equal(t, "two", d.Policy)
	_, ok = ix.Get("P/ns/b")
	assert.False(t, ok)
}

func TestDecodeErrors(t *testing.T) {
	ix, errs := Decode(objects(t,
		"kind: P\nmetadata: {name: a, namespace: ns}\nspec: {value: one}",
		"kind: P\nmetadata: {name: a, namespace: ns, annotations: {config.kubernetes.io/path: two.yaml}}\nspec: {value: again}",
		"kind: P\nmetadata: {name: missing}\nspec: {}",
		"kind: P\nmetadata: {name: bad}\nspec: {value: bad}",
		"kind: P\nmetadata: {name: plain}\nspec: {value: plain}",
	), pKey, decodeP)
	require.Len(t, ix.List, 1, "only the valid first copy is indexed")
	msgs := make([]string, len(errs))
	fields := make([]string, len(errs))
	for i, e := range errs {
		var pe *Error
		require.ErrorAs(t, e, &pe)
		msgs[i], fields[i] = e.Error(), pe.Field
	}
	assert.Equal(t, []string{"metadata.name", "spec.value", "spec.other", ""}, fields)
	assert.Equal(t, []string{
		"P ns/a: duplicate P ns/a: a policy of that name was already given earlier in the input; remove one copy or rename it",
		"P missing: spec.value: Required value",
		"P bad: other field",
		"P plain: plain",
	}, msgs)
}

func TestFieldErrors(t *testing.T) {
	assert.Nil(t, FieldErrors(nil))
	errs := FieldErrors(field.ErrorList{field.Invalid(field.NewPath("spec"), 1, "no")})
	require.Len(t, errs, 1)
	assert.EqualError(t, errs[0], "spec: Invalid value: 1: no")
}

// valuePolicies binds to a Set that labels with the cluster's name.
type valuePolicies struct{ errs []error }

func (v valuePolicies) Compile(objs []*yaml.RNode) (Policies, []error) {
	if len(v.errs) > 0 {
		return nil, v.errs
	}
	return v, nil
}

func (v valuePolicies) For(t Target) (Binding, []error) {
	return Binding{Sets: []Set{staticSet{{Policy: &Ref{Kind: "P"}, Steps: []Step{{Filter: yaml.SetLabel("cluster", t.Cluster.Name)}}}}}}, nil
}

type staticSet []*Rule

func (s staticSet) Rules(*Resource) ([]*Rule, error) { return s, nil }

func TestCompileFor(t *testing.T) {
	b, errs := CompileFor(valuePolicies{}, nil, Target{Cluster: &Cluster{Name: "member1"}})
	require.Empty(t, errs)
	res := NewResource(yaml.MustParse("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"))
	n, err := Apply(res, b.Sets)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.Equal(t, "member1", res.Node.GetLabels()["cluster"])

	_, errs = CompileFor(valuePolicies{errs: []error{errors.New("broken")}}, nil, Target{})
	assert.Equal(t, []error{errors.New("broken")}, errs)
}
