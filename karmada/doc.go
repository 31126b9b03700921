// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package karmada decodes Karmada's OverridePolicy and ClusterOverridePolicy
// (policy.karmada.io/v1alpha1, and ACK One's compatible
// policy.one.alibabacloud.com/v1alpha1) into the neutral rule model of
// package policy, exactly as Karmada's override manager applies them
// (karmada-io/karmada pkg/util/overridemanager @f8fdd02; the per-field
// reference is README.md's "Karmada support"):
//
//   - policies are validated as Karmada's admission webhooks and CRD schema
//     would (after the OverridePolicy mutating webhook's namespace defaulting);
//   - a policy's rules are spec.overrideRules, or one rule built from the
//     deprecated spec.targetCluster/spec.overriders when overrideRules is
//     empty; rules whose targetCluster does not match the cluster are dropped
//     once, at compile time;
//   - ClusterOverridePolicies form the first Set and OverridePolicies of the
//     resource's namespace the second; within a Set the resource-matching
//     policies are ordered by implicit priority (match-all < label selector <
//     name) and then by name, byte-wise, and the later one wins;
//   - inside a rule the overriders run in Karmada's fixed order: image,
//     command, args, labels, annotations, field, plaintext (all plaintext
//     entries as one patch).
package karmada
