// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package admissionpolicy is the Kubernetes MutatingAdmissionPolicy
// dialect: admissionregistration.k8s.io MutatingAdmissionPolicy and
// MutatingAdmissionPolicyBinding (v1, v1beta1, v1alpha1), applied to what
// a member cluster receives in its API server's admission, after the
// federation overrides and before the cluster's mutating webhooks
// (Kyverno), as kube-apiserver v1.36 orders its admission plugins
// (pkg/kubeapiserver/options/plugins.go AllOrderedPlugins:
// MutatingAdmissionPolicy, then MutatingAdmissionWebhook).
//
// The API server's own library does the work where it runs offline
// (k8s.io/apiserver v0.36.6): the CEL compiler and environment
// (admission/plugin/cel, cel/environment), matchConditions
// (webhook/matchconditions), resource rules (webhook/predicates/rules),
// object selectors (webhook/predicates/object) and the mutations
// themselves (policy/mutating/patch: JSONPatch and ApplyConfiguration,
// merged with structured-merge-diff). The dispatch that ties them
// together (binding matching, params, failure policy) follows
// policy/generic/policy_dispatcher.go and policy/mutating/dispatcher.go:
// those packages also start informers and metrics, which a function
// started once per package must not pay for.
//
// CEL is compiled once per policy, when the input holds one; nothing is
// built at package initialisation.
package admissionpolicy
