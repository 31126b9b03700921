// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package oracle

import (
	"encoding/json"
	"fmt"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	admissionv1alpha1 "k8s.io/api/admissionregistration/v1alpha1"
	admissionv1beta1 "k8s.io/api/admissionregistration/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// Group is the API group of MutatingAdmissionPolicy and its binding.
const Group = "admissionregistration.k8s.io"

// Versions are the versions of the group whose MutatingAdmissionPolicy
// and MutatingAdmissionPolicyBinding Kubernetes 1.36 serves: v1 (GA in
// 1.36, on by default), v1beta1 (since 1.34, deprecated in 1.37) and
// v1alpha1 (since 1.32, deprecated in 1.35), the last two only when enabled
// with --runtime-config (k8s.io/api v0.36.6
// admissionregistration/*/zz_generated.prerelease-lifecycle.go).
var Versions = []string{"v1", "v1beta1", "v1alpha1"}

// IsPolicy reports whether u is a MutatingAdmissionPolicy of a served
// version.
func IsPolicy(u *unstructured.Unstructured) bool {
	return isAdmission(u, "MutatingAdmissionPolicy")
}

// IsBinding reports whether u is a MutatingAdmissionPolicyBinding of a
// served version.
func IsBinding(u *unstructured.Unstructured) bool {
	return isAdmission(u, "MutatingAdmissionPolicyBinding")
}

func isAdmission(u *unstructured.Unstructured, kind string) bool {
	gv := u.GroupVersionKind()
	if gv.Group != Group || gv.Kind != kind {
		return false
	}
	for _, v := range Versions {
		if gv.Version == v {
			return true
		}
	}
	return false
}

// versioned decodes u strictly into the typed object of its own version
// (an unknown field is an error, as the API server's strict decoding
// reports it) and returns its JSON.
func versioned(u *unstructured.Unstructured, v1obj, v1beta1obj, v1alpha1obj runtime.Object) ([]byte, error) {
	var into runtime.Object
	switch u.GroupVersionKind().Version {
	case "v1":
		into = v1obj
	case "v1beta1":
		into = v1beta1obj
	case "v1alpha1":
		into = v1alpha1obj
	default:
		return nil, fmt.Errorf("%s %s: version not served", u.GetKind(), u.GetName())
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(u.Object, into, true); err != nil {
		return nil, fmt.Errorf("%s %s (%s): %w", u.GetKind(), u.GetName(), u.GetAPIVersion(), err)
	}
	return json.Marshal(into)
}

// ToV1Policy converts a MutatingAdmissionPolicy of any served version to
// v1, the version the API server's mutating policy plugin works on
// (mutating/plugin.go:61), and applies the API server's defaults. The
// v1alpha1 and v1beta1 fields of the policy and binding types are a subset
// of v1's with the same names and meaning, so the conversion goes through
// their JSON: what the API server's generated conversions do field by
// field.
func ToV1Policy(u *unstructured.Unstructured) (*admissionv1.MutatingAdmissionPolicy, error) {
	data, err := versioned(u, &admissionv1.MutatingAdmissionPolicy{}, &admissionv1beta1.MutatingAdmissionPolicy{}, &admissionv1alpha1.MutatingAdmissionPolicy{})
	if err != nil {
		return nil, err
	}
	p := &admissionv1.MutatingAdmissionPolicy{}
	if err := json.Unmarshal(data, p); err != nil {
		return nil, err
	}
	p.APIVersion, p.Kind = "", ""
	defaultPolicy(p)
	return p, nil
}

// ToV1Binding converts a MutatingAdmissionPolicyBinding of any served
// version to v1 and applies the API server's defaults (see ToV1Policy).
func ToV1Binding(u *unstructured.Unstructured) (*admissionv1.MutatingAdmissionPolicyBinding, error) {
	data, err := versioned(u, &admissionv1.MutatingAdmissionPolicyBinding{}, &admissionv1beta1.MutatingAdmissionPolicyBinding{}, &admissionv1alpha1.MutatingAdmissionPolicyBinding{})
	if err != nil {
		return nil, err
	}
	b := &admissionv1.MutatingAdmissionPolicyBinding{}
	if err := json.Unmarshal(data, b); err != nil {
		return nil, err
	}
	b.APIVersion, b.Kind = "", ""
	if b.Spec.MatchResources != nil {
		defaultMatchResources(b.Spec.MatchResources)
	}
	return b, nil
}

// defaultPolicy applies what the API server's defaulting does to a stored
// policy (kubernetes v1.36 pkg/apis/admissionregistration/{v1,v1beta1}/
// defaults.go: SetDefaults_MutatingAdmissionPolicySpec,
// SetDefaults_MatchResources, SetDefaults_Rule). The library itself
// assumes them: an unset namespaceSelector would match no namespace.
func defaultPolicy(p *admissionv1.MutatingAdmissionPolicy) {
	if p.Spec.FailurePolicy == nil {
		fail := admissionv1.Fail
		p.Spec.FailurePolicy = &fail
	}
	if p.Spec.MatchConstraints != nil {
		defaultMatchResources(p.Spec.MatchConstraints)
	}
}

func defaultMatchResources(m *admissionv1.MatchResources) {
	if m.MatchPolicy == nil {
		eq := admissionv1.Equivalent
		m.MatchPolicy = &eq
	}
	if m.NamespaceSelector == nil {
		m.NamespaceSelector = &metav1.LabelSelector{}
	}
	if m.ObjectSelector == nil {
		m.ObjectSelector = &metav1.LabelSelector{}
	}
	for _, rules := range [][]admissionv1.NamedRuleWithOperations{m.ResourceRules, m.ExcludeResourceRules} {
		for i := range rules {
			if rules[i].Scope == nil {
				all := admissionv1.AllScopes
				rules[i].Scope = &all
			}
		}
	}
}
