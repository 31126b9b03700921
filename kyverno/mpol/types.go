// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package mpol

import (
	"encoding/json"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	admissionregistrationv1alpha1 "k8s.io/api/admissionregistration/v1alpha1"

	"github.com/apply-overrides/apply-overrides/kyverno/celkinds"
)

// The kinds and versions `kyverno apply` v1.19.1 loads (package celkinds).
const (
	Group                  = celkinds.Group
	KindMutatingPolicy     = celkinds.KindMutatingPolicy
	KindNamespacedMutating = celkinds.KindNamespacedMutating
	KindPolicyException    = celkinds.KindPolicyException
	patchTypeApply         = admissionregistrationv1alpha1.PatchTypeApplyConfiguration
	patchTypeJSONPatch     = admissionregistrationv1alpha1.PatchTypeJSONPatch
)

// Versions reports the versions kind is loaded in; nil for another kind.
func Versions(kind string) []string { return celkinds.Versions(kind) }

// object is a MutatingPolicy or NamespacedMutatingPolicy as written; the
// CLI converts every version to v1beta1, whose spec is v1alpha1's
// (github.com/kyverno/api api/policies.kyverno.io/v1alpha1/mutating_policy.go:47).
type object struct {
	APIVersion string          `json:"apiVersion"`
	Kind       string          `json:"kind"`
	Metadata   json.RawMessage `json:"metadata"`
	Spec       spec            `json:"spec"`
	Status     json.RawMessage `json:"status,omitempty"`
}

type spec struct {
	MatchConstraints       *admissionregistrationv1.MatchResources        `json:"matchConstraints,omitempty"`
	FailurePolicy          *admissionregistrationv1.FailurePolicyType     `json:"failurePolicy,omitempty"`
	MatchConditions        []admissionregistrationv1.MatchCondition       `json:"matchConditions,omitempty"`
	Variables              []admissionregistrationv1.Variable             `json:"variables,omitempty"`
	Autogen                *autogenConfig                                 `json:"autogen,omitempty"`
	TargetMatchConstraints json.RawMessage                                `json:"targetMatchConstraints,omitempty"`
	TargetMatchConditions  []admissionregistrationv1.MatchCondition       `json:"targetMatchConditions,omitempty"`
	Mutations              []admissionregistrationv1alpha1.Mutation       `json:"mutations,omitempty"`
	AuditAnnotations       []admissionregistrationv1.AuditAnnotation      `json:"auditAnnotations,omitempty"`
	WebhookConfiguration   json.RawMessage                                `json:"webhookConfiguration,omitempty"`
	Evaluation             *evaluation                                    `json:"evaluation,omitempty"`
	ReinvocationPolicy     admissionregistrationv1.ReinvocationPolicyType `json:"reinvocationPolicy,omitempty"`
}

type autogenConfig struct {
	PodControllers *struct {
		Controllers []string `json:"controllers"`
	} `json:"podControllers,omitempty"`
	MutatingAdmissionPolicy *struct {
		Enabled *bool `json:"enabled,omitempty"`
	} `json:"mutatingAdmissionPolicy,omitempty"`
}

type evaluation struct {
	Mode           string          `json:"mode,omitempty"`
	Admission      json.RawMessage `json:"admission,omitempty"`
	Background     json.RawMessage `json:"background,omitempty"`
	MutateExisting *struct {
		Enabled *bool `json:"enabled,omitempty"`
	} `json:"mutateExisting,omitempty"`
	SkipBackgroundRequests *bool `json:"skipBackgroundRequests,omitempty"`
	UseServerSideApply     bool  `json:"useServerSideApply,omitempty"`
}
