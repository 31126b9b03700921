// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package admissionpolicy

import (
	"fmt"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/policy"
)

// decodeInto decodes obj strictly into out, as the API server reads a
// request with strict field validation: an unknown or duplicate field is
// an error naming it.
func decodeInto(obj *yaml.RNode, out any) []error {
	raw, err := yamlnode.MarshalJSON(obj.YNode())
	if err != nil {
		return []error{err}
	}
	strict, err := sigsjson.UnmarshalStrict(raw, out)
	if err != nil {
		return []error{fmt.Errorf("not a valid object: %w", err)}
	}
	var errs []error
	for _, e := range strict {
		errs = append(errs, fmt.Errorf("%w: remove the field or fix its spelling", e))
	}
	return errs
}

// decodePolicy decodes, validates and compiles one policy.
func decodePolicy(obj *yaml.RNode, ref policy.Ref) (*compiled, []error) {
	p := &admissionv1.MutatingAdmissionPolicy{}
	if errs := decodeInto(obj, p); len(errs) > 0 {
		return nil, errs
	}
	if errs := validatePolicy(p); len(errs) > 0 {
		return nil, policy.FieldErrors(errs)
	}
	eval, errs := compilePolicy(p)
	if len(errs) > 0 {
		return nil, policy.FieldErrors(errs)
	}
	return &compiled{ref: ref, spec: p, eval: eval}, nil
}

// decodeBinding decodes and validates one binding.
func decodeBinding(obj *yaml.RNode, ref policy.Ref) (*binding, []error) {
	b := &admissionv1.MutatingAdmissionPolicyBinding{}
	if errs := decodeInto(obj, b); len(errs) > 0 {
		return nil, errs
	}
	if errs := validateBinding(b); len(errs) > 0 {
		return nil, policy.FieldErrors(errs)
	}
	return &binding{ref: ref, spec: b}, nil
}

// validatePolicy checks what the API server's validation of a
// MutatingAdmissionPolicy checks before any request is admitted (and
// applies its defaults: failurePolicy Fail, matchPolicy Equivalent,
// reinvocationPolicy Never, empty selectors).
func validatePolicy(p *admissionv1.MutatingAdmissionPolicy) field.ErrorList {
	var errs field.ErrorList
	spec := field.NewPath("spec")
	s := &p.Spec
	if s.FailurePolicy == nil {
		fail := admissionv1.Fail
		s.FailurePolicy = &fail
	} else if *s.FailurePolicy != admissionv1.Fail && *s.FailurePolicy != admissionv1.Ignore {
		errs = append(errs, field.NotSupported(spec.Child("failurePolicy"), *s.FailurePolicy, []string{string(admissionv1.Fail), string(admissionv1.Ignore)}))
	}
	switch s.ReinvocationPolicy {
	case "":
		s.ReinvocationPolicy = admissionv1.NeverReinvocationPolicy
	case admissionv1.NeverReinvocationPolicy, admissionv1.IfNeededReinvocationPolicy:
	default:
		errs = append(errs, field.NotSupported(spec.Child("reinvocationPolicy"), s.ReinvocationPolicy, []string{string(admissionv1.NeverReinvocationPolicy), string(admissionv1.IfNeededReinvocationPolicy)}))
	}
	if s.ParamKind != nil {
		pk := spec.Child("paramKind")
		if s.ParamKind.Kind == "" {
			errs = append(errs, field.Required(pk.Child("kind"), "the kind of the param objects, e.g. ConfigMap"))
		}
		if s.ParamKind.APIVersion == "" {
			errs = append(errs, field.Required(pk.Child("apiVersion"), "the apiVersion of the param objects, e.g. v1"))
		}
	}
	if s.MatchConstraints == nil {
		errs = append(errs, field.Required(spec.Child("matchConstraints"), "say which resources the policy mutates with matchConstraints.resourceRules"))
	} else {
		mc := spec.Child("matchConstraints")
		if len(s.MatchConstraints.ResourceRules) == 0 {
			errs = append(errs, field.Required(mc.Child("resourceRules"), "a policy's matchConstraints must name the resources it mutates"))
		}
		errs = append(errs, validateMatch(s.MatchConstraints, mc)...)
	}
	if len(s.Mutations) == 0 {
		errs = append(errs, field.Required(spec.Child("mutations"), "a MutatingAdmissionPolicy needs at least one mutation"))
	}
	for i, m := range s.Mutations {
		mp := spec.Child("mutations").Index(i)
		switch m.PatchType {
		case admissionv1.PatchTypeApplyConfiguration:
			if m.ApplyConfiguration == nil || m.ApplyConfiguration.Expression == "" {
				errs = append(errs, field.Required(mp.Child("applyConfiguration", "expression"), "patchType ApplyConfiguration needs applyConfiguration.expression"))
			}
			if m.JSONPatch != nil {
				errs = append(errs, field.Forbidden(mp.Child("jsonPatch"), "must not be set when patchType is ApplyConfiguration"))
			}
		case admissionv1.PatchTypeJSONPatch:
			if m.JSONPatch == nil || m.JSONPatch.Expression == "" {
				errs = append(errs, field.Required(mp.Child("jsonPatch", "expression"), "patchType JSONPatch needs jsonPatch.expression"))
			}
			if m.ApplyConfiguration != nil {
				errs = append(errs, field.Forbidden(mp.Child("applyConfiguration"), "must not be set when patchType is JSONPatch"))
			}
		default:
			errs = append(errs, field.NotSupported(mp.Child("patchType"), m.PatchType, []string{string(admissionv1.PatchTypeApplyConfiguration), string(admissionv1.PatchTypeJSONPatch)}))
		}
	}
	vars := make([][2]string, len(s.Variables))
	for i, v := range s.Variables {
		vars[i] = [2]string{v.Name, v.Expression}
	}
	errs = append(errs, validateNamed(vars, spec.Child("variables"), "variable")...)
	conds := make([][2]string, len(s.MatchConditions))
	for i, c := range s.MatchConditions {
		conds[i] = [2]string{c.Name, c.Expression}
	}
	errs = append(errs, validateNamed(conds, spec.Child("matchConditions"), "match condition")...)
	return errs
}

// validateNamed checks a list of named expressions (variables,
// matchConditions): each has a name, unique in the list, and an
// expression.
func validateNamed(list [][2]string, path *field.Path, what string) field.ErrorList {
	var errs field.ErrorList
	seen := map[string]bool{}
	for i, ne := range list {
		name, expr, p := ne[0], ne[1], path.Index(i)
		if name == "" {
			errs = append(errs, field.Required(p.Child("name"), "a "+what+" needs a name"))
		} else if seen[name] {
			errs = append(errs, field.Duplicate(p.Child("name"), name))
		}
		seen[name] = true
		if expr == "" {
			errs = append(errs, field.Required(p.Child("expression"), "a "+what+" needs an expression"))
		}
	}
	return errs
}

// validateMatch checks and defaults a MatchResources.
func validateMatch(m *admissionv1.MatchResources, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if m.MatchPolicy == nil {
		eq := admissionv1.Equivalent
		m.MatchPolicy = &eq
	} else if *m.MatchPolicy != admissionv1.Exact && *m.MatchPolicy != admissionv1.Equivalent {
		errs = append(errs, field.NotSupported(path.Child("matchPolicy"), *m.MatchPolicy, []string{string(admissionv1.Exact), string(admissionv1.Equivalent)}))
	}
	for _, sel := range []struct {
		name string
		sel  **metav1.LabelSelector
	}{{"namespaceSelector", &m.NamespaceSelector}, {"objectSelector", &m.ObjectSelector}} {
		if *sel.sel == nil {
			*sel.sel = &metav1.LabelSelector{}
		}
		if _, err := metav1.LabelSelectorAsSelector(*sel.sel); err != nil {
			errs = append(errs, field.Invalid(path.Child(sel.name), *sel.sel, err.Error()))
		}
	}
	for _, rl := range []struct {
		list  string
		rules []admissionv1.NamedRuleWithOperations
	}{{"resourceRules", m.ResourceRules}, {"excludeResourceRules", m.ExcludeResourceRules}} {
		list := rl.list
		for i, r := range rl.rules {
			rp := path.Child(list).Index(i)
			if len(r.Operations) == 0 {
				errs = append(errs, field.Required(rp.Child("operations"), "e.g. [CREATE, UPDATE]; a render admits every resource as CREATE"))
			}
			if len(r.APIGroups) == 0 {
				errs = append(errs, field.Required(rp.Child("apiGroups"), `e.g. ["apps"] ("" is the core group, "*" every group)`))
			}
			if len(r.APIVersions) == 0 {
				errs = append(errs, field.Required(rp.Child("apiVersions"), `e.g. ["v1"] ("*" every version)`))
			}
			if len(r.Resources) == 0 {
				errs = append(errs, field.Required(rp.Child("resources"), `e.g. ["deployments"] (the plural resource name, "*" every resource)`))
			}
		}
	}
	return errs
}

// validateBinding checks and defaults a binding.
func validateBinding(b *admissionv1.MutatingAdmissionPolicyBinding) field.ErrorList {
	var errs field.ErrorList
	spec := field.NewPath("spec")
	if b.Spec.PolicyName == "" {
		errs = append(errs, field.Required(spec.Child("policyName"), "the name of the MutatingAdmissionPolicy this binding applies"))
	}
	if r := b.Spec.ParamRef; r != nil {
		rp := spec.Child("paramRef")
		switch {
		case r.Name != "" && r.Selector != nil:
			errs = append(errs, field.Forbidden(rp.Child("name"), "name and selector are mutually exclusive: set one"))
		case r.Name == "" && r.Selector == nil:
			errs = append(errs, field.Required(rp, "set name or selector"))
		}
		if r.Selector != nil {
			if _, err := metav1.LabelSelectorAsSelector(r.Selector); err != nil {
				errs = append(errs, field.Invalid(rp.Child("selector"), r.Selector, err.Error()))
			}
		}
		if r.ParameterNotFoundAction == nil {
			errs = append(errs, field.Required(rp.Child("parameterNotFoundAction"), "Allow or Deny: what to do when no param object is found"))
		} else if a := *r.ParameterNotFoundAction; a != admissionv1.AllowAction && a != admissionv1.DenyAction {
			errs = append(errs, field.NotSupported(rp.Child("parameterNotFoundAction"), a, []string{string(admissionv1.AllowAction), string(admissionv1.DenyAction)}))
		}
	}
	if b.Spec.MatchResources != nil {
		errs = append(errs, validateMatch(b.Spec.MatchResources, spec.Child("matchResources"))...)
	}
	return errs
}
