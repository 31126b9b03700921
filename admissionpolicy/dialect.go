// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package admissionpolicy

import (
	"fmt"
	"sort"
	"strings"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/wildcard"
	"github.com/apply-overrides/apply-overrides/policy"
)

// The API this dialect reads.
const (
	Group         = "admissionregistration.k8s.io"
	KindPolicy    = "MutatingAdmissionPolicy"
	KindBinding   = "MutatingAdmissionPolicyBinding"
	versionsNames = "v1, v1beta1, v1alpha1"
)

// versions are the versions kube-apiserver v1.36 serves the two kinds in
// (v1 by default; v1beta1 and v1alpha1 when enabled): their fields are the
// same, so all three decode into the v1 types.
var versions = map[string]bool{"v1": true, "v1beta1": true, "v1alpha1": true}

// Dialect is the MutatingAdmissionPolicy dialect.
type Dialect struct{}

// Claims reports whether an object is a MutatingAdmissionPolicy or a
// binding of one; another version of those kinds is an error.
func (Dialect) Claims(apiVersion, kind string) (bool, error) {
	group, version, _ := strings.Cut(apiVersion, "/")
	if group != Group || (kind != KindPolicy && kind != KindBinding) {
		return false, nil
	}
	if !versions[version] {
		return true, fmt.Errorf("%s %s is not supported: Kubernetes v1.36 serves %s in %s (%s/v1 is the stable one)", apiVersion, kind, kind, versionsNames, Group)
	}
	return true, nil
}

// Observes reports the workload objects the dialect reads besides its own:
// Namespaces, for namespaceSelector and namespaceObject.
func (Dialect) Observes(apiVersion, kind string) bool {
	return apiVersion == "v1" && kind == "Namespace"
}

// Clusterless reports that the dialect needs no cluster: admission
// policies apply to whatever cluster is rendered.
func (Dialect) Clusterless() bool { return true }

// Compile decodes, validates and compiles every policy and binding once.
func (Dialect) Compile(objs []*yaml.RNode) (policy.Policies, []error) {
	namespaces := map[string]*yaml.RNode{}
	for _, obj := range objs {
		if obj.GetApiVersion() == "v1" && obj.GetKind() == "Namespace" {
			namespaces[obj.GetName()] = obj.Copy() // as read: the Namespace itself may be admitted on another core
		}
	}
	bix, errs := policy.Decode(objs, keyOf(KindBinding), decodeBinding)
	pix, perrs := policy.Decode(objs, keyOf(KindPolicy), decodePolicy)
	errs = append(errs, perrs...)
	if len(errs) > 0 {
		return nil, errs
	}
	ps := &policies{namespaces: namespaces}
	byName := map[string]*compiled{}
	for _, d := range pix.List {
		ps.list = append(ps.list, d.Policy)
		byName[d.Ref.Name] = d.Policy
	}
	for _, d := range bix.List {
		b := d.Policy
		if p := byName[b.spec.Spec.PolicyName]; p != nil {
			p.bindings = append(p.bindings, b)
			continue
		}
		ps.orphans = append(ps.orphans, b)
	}
	// kube-apiserver lists policies from a map (generic/policy_source.go
	// calculatePolicyData), so their order is not defined there; a render
	// must not vary, so policies and their bindings run by name.
	sort.SliceStable(ps.list, func(i, j int) bool { return ps.list[i].ref.Name < ps.list[j].ref.Name })
	for _, p := range ps.list {
		sort.SliceStable(p.bindings, func(i, j int) bool { return p.bindings[i].ref.Name < p.bindings[j].ref.Name })
	}
	return ps, nil
}

// keyOf names objects of kind for the duplicate check.
func keyOf(kind string) func(policy.Ref) (string, bool) {
	return func(ref policy.Ref) (string, bool) {
		if ref.Kind != kind {
			return "", false
		}
		return ref.Kind + "/" + ref.Name, true
	}
}

// policies is the input's compiled policies, their bindings and the
// Namespaces.
type policies struct {
	list       []*compiled
	orphans    []*binding // bindings whose policy is not in the input
	namespaces map[string]*yaml.RNode
}

// For returns the Set of the policies the target's admission selection
// runs, with a warning for each binding whose policy is missing.
func (ps *policies) For(t policy.Target) (policy.Binding, []error) {
	var warnings []error
	for _, b := range ps.orphans {
		warnings = append(warnings, &policy.Error{Policy: b.ref, Field: "spec.policyName", Err: &policy.Warning{
			Err: fmt.Errorf("names MutatingAdmissionPolicy %q, which is not in the input: the API server skips such a binding; add the policy or fix the name", b.spec.Spec.PolicyName)}})
	}
	set := &Set{namespaces: ps.namespaces}
	var out policy.Binding
	paramKinds := map[string]bool{} // apiVersion + " " + kind
	for _, p := range ps.list {
		if !selected(t.Admission, p.ref) {
			continue
		}
		if len(p.bindings) == 0 {
			warnings = append(warnings, &policy.Error{Policy: p.ref, Err: &policy.Warning{
				Err: fmt.Errorf("no MutatingAdmissionPolicyBinding names it (spec.policyName), so the API server never applies it: add a binding")}})
			continue
		}
		out.Overrides = append(out.Overrides, p.ref)
		for _, b := range p.bindings {
			out.Rules = append(out.Rules, policy.BoundRule{Policy: p.ref, Rule: bindingRule(b), Name: b.ref.Name,
				Hint: func(policy.Seen) string {
					return "binding " + b.ref.Name + " matched no resource of the input: check the policy's matchConstraints, the binding's matchResources and the policy's matchConditions"
				}})
		}
		set.policies = append(set.policies, p)
		if k := p.spec.Spec.ParamKind; k != nil {
			paramKinds[k.APIVersion+" "+k.Kind] = true
		}
	}
	if len(paramKinds) > 0 {
		// The params are resources of the input as read: copies taken
		// before any resource is rendered, so that the admission of a
		// param object itself (on another core) neither races with nor
		// changes what a policy reads as its params.
		for _, n := range t.Resources {
			if paramKinds[n.GetApiVersion()+" "+n.GetKind()] {
				set.params = append(set.params, n.Copy())
			}
		}
		out.PlacesWhole = true
	}
	if len(set.policies) > 0 {
		out.Sets = []policy.Set{set}
		out.Reinvoke = []policy.Set{Reinvocation{set}}
	}
	return out, warnings
}

// bindingRule is how a binding's invocations of its policy are named in
// the trace: the binding, as a field of the policy's run.
func bindingRule(b *binding) string { return "binding " + b.ref.Name }

// selected reports whether the cluster runs the policy, as sel says
// (spec.admissionPolicies names MutatingAdmissionPolicies by name).
func selected(sel *policy.Selection, ref policy.Ref) bool {
	if sel == nil {
		return true
	}
	matches := func(patterns []string) bool {
		for _, p := range patterns {
			if wildcard.Match(p, ref.Name) {
				return true
			}
		}
		return false
	}
	return !matches(sel.Scoped) || matches(sel.Selected)
}

// Unapplied says why a policy matched no resource.
func (Dialect) Unapplied(ref policy.Ref) string {
	return "none of its bindings matched a resource of the input: check its matchConstraints and matchConditions and its bindings' matchResources"
}

// compiled is a policy decoded, validated and compiled.
type compiled struct {
	ref      policy.Ref
	spec     *admissionv1.MutatingAdmissionPolicy
	eval     *evaluator
	bindings []*binding
}

// binding is a decoded and validated binding.
type binding struct {
	ref  policy.Ref
	spec *admissionv1.MutatingAdmissionPolicyBinding
}
