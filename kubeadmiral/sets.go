// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubeadmiral

import (
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
	"github.com/apply-overrides/apply-overrides/kubeadmiral/overriders"
	"github.com/apply-overrides/apply-overrides/policy"
)

// set binds resources to policies by their labels
// (override/util.go lookForMatchedPolicies).
type set struct {
	cops map[string]*compiled // by name
	ops  map[string]*compiled // by namespace/name
}

// Rules returns, for a resource bound to KubeAdmiral, the template step, the
// ClusterOverridePolicy's rules, the OverridePolicy's rules and the final
// clean-up; nothing for a resource KubeAdmiral does not manage.
func (s *set) Rules(res *policy.Resource) ([]*policy.Rule, error) {
	if !isFederated(res.Labels) {
		return nil, nil
	}
	var bound []*compiled
	if name, ok := res.Labels[ClusterOverridePolicyLabel]; ok {
		p, err := s.lookup(s.cops, name, ClusterOverridePolicyLabel, "ClusterOverridePolicy "+name)
		if err != nil {
			return nil, err
		}
		bound = append(bound, p)
	}
	if name, ok := res.Labels[OverridePolicyLabel]; ok && res.Namespace != "" {
		p, err := s.lookup(s.ops, res.Namespace+"/"+name, OverridePolicyLabel, "OverridePolicy "+res.Namespace+"/"+name)
		if err != nil {
			return nil, err
		}
		bound = append(bound, p)
	}
	owner := &policy.Ref{Kind: "FederatedObject", Namespace: res.Namespace, Name: res.Name}
	if len(bound) > 0 {
		owner = &bound[0].ref
	}
	// The rules of one resource share its original kind (upstream pins it
	// from the template) and the finalizer operations they defer.
	r := &render{gvk: overriders.GVK(res.Node.YNode())}
	rules := []*policy.Rule{{Policy: owner, Field: "metadata", Internal: true, Steps: []policy.Step{{Field: "metadata", Filter: toTemplate{}}}}}
	for _, p := range bound {
		if p.err != nil {
			return nil, &policy.Error{Policy: p.err.Policy, Field: p.err.Field, Err: p.err.Err}
		}
		for _, ru := range p.rules {
			field := fmt.Sprintf("spec.overrideRules[%d]", ru.index)
			rules = append(rules, &policy.Rule{Policy: &p.ref, Field: field, Steps: []policy.Step{{
				Field:  field + ".overriders",
				Filter: ruleFilter{render: r, policy: p.ref.Name, index: ru.index, overriders: ru.overriders},
			}}})
		}
	}
	rules = append(rules, &policy.Rule{Policy: owner, Field: "metadata", Internal: true, Steps: []policy.Step{{Field: "metadata", Filter: finish{render: r}}}})
	return rules, nil
}

func (s *set) lookup(index map[string]*compiled, key, label, what string) (*compiled, error) {
	name := key[strings.LastIndex(key, "/")+1:]
	if name == "" {
		return nil, fmt.Errorf("label %s: policy name cannot be empty", label)
	}
	p := index[key]
	if p == nil {
		return nil, fmt.Errorf("label %s names a policy that is not in the input: %s not found", label, what)
	}
	return p, nil
}

// render is the state KubeAdmiral keeps while it renders one resource.
type render struct {
	gvk schema.GroupVersionKind
	// finalizers are the operations on /metadata/finalizers, which upstream
	// applies only to the member object, after everything else.
	finalizers yamlpatch.Patch
}

// ruleFilter computes the patches of every overrider type of one rule
// against the resource as it is before the rule, then applies them together
// (override/util.go parseOverrides, minus the finalizer operations).
type ruleFilter struct {
	render     *render
	policy     string
	index      int
	overriders overriders.Rule
}

var _ yaml.Filter = ruleFilter{}

// forbiddenPaths are rejected by the sync controller (sync/resource.go).
var forbiddenPaths = map[string]bool{"/metadata/namespace": true, "/metadata/name": true, "/metadata/generateName": true, "/kind": true}

func (f ruleFilter) Filter(rn *yaml.RNode) (*yaml.RNode, error) {
	obj := rn.YNode()
	var patch yamlpatch.Patch
	for _, p := range f.overriders.Patchers() {
		ops, err := overriders.WithGVK{GVK: f.render.gvk, Patcher: p}.Patches(obj)
		if err != nil {
			if errors.As(err, new(*overriders.ApplyError)) {
				return nil, err
			}
			return nil, fmt.Errorf("failed to parse patches from policy %q's overrideRules[%d], error: %w", f.policy, f.index, err)
		}
		patch = append(patch, ops...)
	}
	var bad []string
	for _, op := range patch {
		if forbiddenPaths[op.Path] {
			bad = append(bad, op.Path)
		}
	}
	if len(bad) > 0 {
		return nil, fmt.Errorf("invalid override path(s): %v", bad)
	}
	for _, op := range patch {
		if strings.HasPrefix(op.Path, "/metadata/finalizers") {
			f.render.finalizers = append(f.render.finalizers, op)
		}
	}
	if err := applyPatch(overriders.WithoutFinalizers(patch), obj); err != nil {
		return nil, err
	}
	return rn, nil
}

// finish applies the deferred finalizer operations to the finalizers the
// sync controller starts from ([]) and drops empty labels, annotations and
// finalizers, as the apiserver would.
type finish struct{ render *render }

var _ yaml.Filter = finish{}

func (f finish) Filter(rn *yaml.RNode) (*yaml.RNode, error) {
	if err := applyPatch(f.render.finalizers, rn.YNode()); err != nil {
		return nil, err
	}
	return dropEmpty{}.Filter(rn)
}
