// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package policy

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func TestRefOf(t *testing.T) {
	testCases := map[string]struct {
		obj  string
		want Ref
	}{
		"namespaced, kpt's annotations": {
			obj: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
  annotations:
    config.kubernetes.io/path: old.yaml
    config.kubernetes.io/index: '7'
    internal.config.kubernetes.io/path: resources.yaml
    internal.config.kubernetes.io/index: '3'
`,
			want: Ref{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop", Name: "web", File: "resources.yaml", Index: 3},
		},
		"legacy annotations only": {
			obj:  "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, annotations: {config.kubernetes.io/path: a.yaml, config.kubernetes.io/index: '2'}}\n",
			want: Ref{APIVersion: "v1", Kind: "ConfigMap", Name: "c", File: "a.yaml", Index: 2},
		},
		"an index that is not a number falls back to the legacy one": {
			obj:  "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, annotations: {internal.config.kubernetes.io/index: x, config.kubernetes.io/index: '4'}}\n",
			want: Ref{APIVersion: "v1", Kind: "ConfigMap", Name: "c", Index: 4},
		},
		"null and non-scalar identity fields read as empty": {
			obj:  "apiVersion: ~\nkind: [Deployment]\nmetadata: {name: {a: b}, namespace: null}\n",
			want: Ref{},
		},
		"metadata not a mapping": {
			obj:  "apiVersion: v1\nkind: ConfigMap\nmetadata: c\n",
			want: Ref{APIVersion: "v1", Kind: "ConfigMap"},
		},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, tc.want, RefOf(yaml.MustParse(tc.obj)))
		})
	}
}

func TestRefString(t *testing.T) {
	ns := Ref{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: "web"}
	assert.Equal(t, "Deployment default/web", ns.String())
	assert.Equal(t, "apps/v1 Deployment default/web", ns.GVKString())
	cluster := Ref{APIVersion: "policy.karmada.io/v1alpha1", Kind: "ClusterOverridePolicy", Name: "all"}
	assert.Equal(t, "ClusterOverridePolicy all", cluster.String())
	assert.Equal(t, "policy.karmada.io/v1alpha1 ClusterOverridePolicy all", cluster.GVKString())
}

func TestResourceRefresh(t *testing.T) {
	res := NewResource(yaml.MustParse("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels: {app: web, tier: '1'}\n"))
	assert.Equal(t, map[string]string{"app": "web", "tier": "1"}, res.Labels)
	assert.Equal(t, "v1 ConfigMap c", res.GVKString())
	require.NoError(t, res.Node.PipeE(yaml.SetLabel("app", "api")))
	require.NoError(t, res.Node.PipeE(yaml.Lookup("metadata"), yaml.SetField("namespace", yaml.NewStringRNode("prod"))))
	assert.Equal(t, "web", res.Labels["app"], "the identity is read once, until Refresh")
	res.Refresh()
	assert.Equal(t, map[string]string{"app": "api", "tier": "1"}, res.Labels)
	assert.Equal(t, "prod", res.Namespace)

	res = NewResource(yaml.MustParse("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, labels: [a]}\n"))
	assert.Nil(t, res.Labels, "labels that are not a mapping are no labels")
}

// setFunc is a Set from a function.
type setFunc func(res *Resource) ([]*Rule, error)

func (f setFunc) Rules(res *Resource) ([]*Rule, error) { return f(res) }

// rules is a Set that always returns the same rules.
func rules(rs ...*Rule) Set {
	return setFunc(func(*Resource) ([]*Rule, error) { return rs, nil })
}

// counting is a CountingFilter that applies n rules, setting a label.
type counting struct {
	n   int
	err error
}

func (c counting) Filter(n *yaml.RNode) (*yaml.RNode, error) {
	_, _, err := c.FilterCount(n)
	return n, err
}

func (c counting) FilterCount(n *yaml.RNode) (int, bool, error) {
	if c.err != nil {
		return 0, false, c.err
	}
	if c.n > 0 {
		if err := n.PipeE(yaml.SetLabel("counted", fmt.Sprint(c.n))); err != nil {
			return 0, false, err
		}
	}
	return c.n, c.n > 0, nil
}

// fieldError is a step error that names its own place in the policy.
type fieldError struct{ field string }

func (e fieldError) Error() string       { return "bad value" }
func (e fieldError) PolicyField() string { return e.field }

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # the workload
  namespace: shop
  labels: {app: web}
spec:
  replicas: 1
`

func TestApply(t *testing.T) {
	op := &Ref{APIVersion: "policy.karmada.io/v1alpha1", Kind: "OverridePolicy", Namespace: "shop", Name: "op", File: "policies.yaml"}
	cop := &Ref{APIVersion: "policy.karmada.io/v1alpha1", Kind: "ClusterOverridePolicy", Name: "cop"}
	setLabel := func(k, v string) Step {
		return Step{Field: "spec.overriders.labelsOverrider[0]", Filter: yaml.SetLabel(k, v)}
	}
	failing := func(err error) Step {
		return Step{Field: "spec.overrideRules[1].overriders.plaintext", Filter: yaml.FilterFunc(func(*yaml.RNode) (*yaml.RNode, error) { return nil, err })}
	}

	t.Run("sets in order, rules in order, the later one wins", func(t *testing.T) {
		res := NewResource(yaml.MustParse(deployment))
		n, err := Apply(res, []Set{
			rules(&Rule{Policy: cop, Steps: []Step{setLabel("env", "prod"), setLabel("team", "a")}}),
			rules(&Rule{Policy: op, Steps: []Step{setLabel("team", "b")}}, &Rule{Policy: op, Steps: []Step{setLabel("team", "c")}}),
		})
		require.NoError(t, err)
		assert.Equal(t, 3, n, "one per rule that ran")
		assert.Equal(t, map[string]string{"app": "web", "env": "prod", "team": "c"}, res.Node.GetLabels())
		assert.Contains(t, res.Node.MustString(), "name: web # the workload")
	})

	t.Run("a later set sees the resource as the earlier ones left it", func(t *testing.T) {
		res := NewResource(yaml.MustParse(deployment))
		var seen map[string]string
		_, err := Apply(res, []Set{
			rules(&Rule{Policy: cop, Steps: []Step{setLabel("app", "api")}}),
			setFunc(func(r *Resource) ([]*Rule, error) { seen = r.Labels; return nil, nil }),
		})
		require.NoError(t, err)
		assert.Equal(t, map[string]string{"app": "api"}, seen)
	})

	t.Run("no rules", func(t *testing.T) {
		res := NewResource(yaml.MustParse(deployment))
		n, err := Apply(res, []Set{rules(), rules()})
		require.NoError(t, err)
		assert.Zero(t, n)
		assert.False(t, res.Touched)
		assert.Equal(t, deployment, res.Node.MustString())
	})

	t.Run("counting steps count the rules they applied", func(t *testing.T) {
		res := NewResource(yaml.MustParse(deployment))
		n, err := Apply(res, []Set{rules(&Rule{Policy: cop, Steps: []Step{{Filter: counting{n: 2}}}})})
		require.NoError(t, err)
		assert.Equal(t, 2, n)
		assert.True(t, res.Touched)
		assert.Equal(t, "2", res.Node.GetLabels()["counted"])

		res = NewResource(yaml.MustParse(deployment))
		n, err = Apply(res, []Set{rules(&Rule{Policy: cop, Steps: []Step{{Filter: counting{n: 0}}}})})
		require.NoError(t, err)
		assert.Zero(t, n, "a counting step that applied nothing is no applied rule")
		assert.False(t, res.Touched)
	})

	t.Run("an internal rule is not counted", func(t *testing.T) {
		res := NewResource(yaml.MustParse(deployment))
		n, err := Apply(res, []Set{rules(&Rule{Policy: cop, Internal: true, Steps: []Step{setLabel("x", "y")}})})
		require.NoError(t, err)
		assert.Zero(t, n)
		assert.True(t, res.Touched)
	})

	t.Run("a set that fails fails the resource", func(t *testing.T) {
		res := NewResource(yaml.MustParse(deployment))
		_, err := Apply(res, []Set{setFunc(func(*Resource) ([]*Rule, error) {
			return nil, errors.New(`OverridePolicy shop/missing named by label kubeadmiral.io/override-policy is not in the input`)
		})})
		var pe *Error
		require.ErrorAs(t, err, &pe)
		assert.Empty(t, pe.Policy.Kind)
		assert.Equal(t, "apps/v1 Deployment shop/web: OverridePolicy shop/missing named by label kubeadmiral.io/override-policy is not in the input", err.Error())
	})

	t.Run("a failing step stops the rules and names policy, step and resource", func(t *testing.T) {
		res := NewResource(yaml.MustParse(deployment))
		cause := errors.New("/spec/x: replace: path not found")
		n, err := Apply(res, []Set{rules(
			&Rule{Policy: op, Steps: []Step{setLabel("a", "1")}},
			&Rule{Policy: op, Steps: []Step{failing(cause), setLabel("b", "2")}},
		)})
		assert.Equal(t, 1, n)
		require.ErrorIs(t, err, cause)
		assert.Equal(t, "OverridePolicy shop/op spec.overrideRules[1].overriders.plaintext: apps/v1 Deployment shop/web: /spec/x: replace: path not found", err.Error())
		var pe *Error
		require.ErrorAs(t, err, &pe)
		assert.Equal(t, "policies.yaml", pe.Policy.File)
		assert.Equal(t, "web", pe.Resource.Name)
		assert.NotContains(t, res.Node.GetLabels(), "b")
	})

	t.Run("a step error may name a finer field", func(t *testing.T) {
		res := NewResource(yaml.MustParse(deployment))
		_, err := Apply(res, []Set{rules(&Rule{Policy: op, Steps: []Step{failing(fmt.Errorf("wrapped: %w", fieldError{"spec.overrideRules[1].overriders.plaintext[2].value"}))}})})
		var pe *Error
		require.ErrorAs(t, err, &pe)
		assert.Equal(t, "spec.overrideRules[1].overriders.plaintext[2].value", pe.Field)
	})

	t.Run("a counting step's error", func(t *testing.T) {
		res := NewResource(yaml.MustParse(deployment))
		_, err := Apply(res, []Set{rules(&Rule{Policy: cop, Steps: []Step{{Field: "spec.rules[0]", Filter: counting{err: errors.New("mutate failed")}}}})})
		assert.EqualError(t, err, "ClusterOverridePolicy cop spec.rules[0]: apps/v1 Deployment shop/web: mutate failed")
	})

	for _, field := range []string{"apiVersion", "kind"} {
		t.Run("a rule that removes "+field, func(t *testing.T) {
			res := NewResource(yaml.MustParse(deployment))
			_, err := Apply(res, []Set{rules(&Rule{Policy: op, Field: "spec.overrideRules[0]", Steps: []Step{{Field: "spec.overrideRules[0].overriders.plaintext", Filter: yaml.Clear(field)}}})})
			require.Error(t, err)
			assert.Equal(t, "OverridePolicy shop/op spec.overrideRules[0].overriders.plaintext: apps/v1 Deployment shop/web: the override leaves the resource without "+field+
				": the control plane fails such an object when it decodes it, so no cluster would receive it; change the rule so that it keeps "+field, err.Error())
		})
	}
	t.Run("a rule that removes metadata.name", func(t *testing.T) {
		res := NewResource(yaml.MustParse(deployment))
		_, err := Apply(res, []Set{rules(&Rule{Policy: op, Field: "spec.overrideRules[0]", Steps: []Step{{Filter: yaml.FilterFunc(func(n *yaml.RNode) (*yaml.RNode, error) {
			return n.Pipe(yaml.Lookup("metadata"), yaml.Clear("name"))
		})}}})})
		assert.ErrorContains(t, err, "the override leaves the resource without metadata.name")
	})
}

func TestErrorText(t *testing.T) {
	p := Ref{Kind: "OverridePolicy", Namespace: "default", Name: "op"}
	r := &Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "default", Name: "c"}
	cause := errors.New("cause")
	testCases := map[string]struct {
		err  *Error
		want string
	}{
		"invalid policy":            {&Error{Policy: p, Field: "spec.overriders", Err: cause}, "OverridePolicy default/op: cause"},
		"on a resource":             {&Error{Policy: p, Field: "spec.overriders", Resource: r, Err: cause}, "OverridePolicy default/op spec.overriders: v1 ConfigMap default/c: cause"},
		"on a resource, no field":   {&Error{Policy: p, Resource: r, Err: cause}, "OverridePolicy default/op: v1 ConfigMap default/c: cause"},
		"resource without a policy": {&Error{Resource: r, Err: cause}, "v1 ConfigMap default/c: cause"},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.err.Error())
			assert.ErrorIs(t, tc.err, cause)
		})
	}
}

func TestWarning(t *testing.T) {
	cause := errors.New("the result depends on the time the policy runs")
	w := &Warning{Err: cause}
	assert.Equal(t, cause.Error(), w.Error())
	assert.ErrorIs(t, w, cause)
	assert.True(t, IsWarning(w))
	assert.True(t, IsWarning(&Error{Policy: Ref{Kind: "ClusterPolicy", Name: "p"}, Err: w}), "wrapped")
	assert.False(t, IsWarning(cause))
	assert.False(t, IsWarning(nil))
}

// matching is a MatchingFilter: the rules of its policy that matched, of
// which it changes none.
type matching struct{ matched []string }

func (m matching) Filter(n *yaml.RNode) (*yaml.RNode, error) { return n, nil }
func (m matching) FilterCount(*yaml.RNode) (int, bool, error) {
	return 0, false, nil
}
func (m matching) FilterMatch(*yaml.RNode) (int, bool, []string, error) {
	return 0, false, m.matched, nil
}

// TestTraceMatched: a rule a Set returns matched, once, whatever its steps
// did; a MatchingFilter's step names the rules that matched instead (none
// is none); a bookkeeping rule is not listed.
func TestTraceMatched(t *testing.T) {
	op := &Ref{Kind: "OverridePolicy", Namespace: "shop", Name: "op"}
	cp := &Ref{Kind: "ClusterPolicy", Name: "cp"}
	noop := Step{Field: "spec.overrideRules[0].overriders.plaintext", Filter: counting{}}
	set := rules(
		&Rule{Policy: op, Field: "spec.overrideRules[0]", Steps: []Step{noop, noop}},
		&Rule{Policy: op, Field: "spec.overrideRules[1]"},
		&Rule{Policy: op, Field: "metadata", Internal: true, Steps: []Step{noop}},
		&Rule{Policy: cp, Field: "spec.rules", Steps: []Step{{Field: "spec.rules", Filter: matching{matched: []string{"spec.rules[0]", "spec.rules[2]"}}}}},
		&Rule{Policy: cp, Field: "spec.rules", Steps: []Step{{Field: "spec.rules", Filter: matching{}}}},
	)
	rn, err := yaml.Parse(deployment)
	require.NoError(t, err)
	tr := &Trace{}
	_, err = ApplyTrace(NewResource(rn), []Set{set}, tr)
	require.NoError(t, err)
	assert.Equal(t, []Match{
		{Policy: op, Rule: "spec.overrideRules[0]"},
		{Policy: op, Rule: "spec.overrideRules[1]"},
		{Policy: cp, Rule: "spec.rules[0]"},
		{Policy: cp, Rule: "spec.rules[2]"},
	}, tr.Matched)
}

func TestNear(t *testing.T) {
	kinds := []string{"ConfigMap", "Deployment", "StatefulSet", "deployment"}
	assert.Equal(t, []string{"Deployment", "deployment"}, Near("Deploymnet", kinds))
	assert.Equal(t, []string{"Deployment"}, Near("deployment", kinds), "equal ignoring case")
	assert.Empty(t, Near("Job", []string{"Jobs"}), "too short to guess")
	assert.Empty(t, Near("Secret", kinds))
}
