// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package kubeadmiral decodes KubeAdmiral's OverridePolicy and
// ClusterOverridePolicy (core.kubeadmiral.io/v1alpha1) into the neutral rule
// model of package policy, exactly as KubeAdmiral's override controller and
// sync controller apply them (kubewharf/kubeadmiral pkg/controllers/override
// and pkg/controllers/sync @19de01c; the per-field reference is README.md's
// "KubeAdmiral support"):
//
//   - a resource names its policies with the labels
//     kubeadmiral.io/cluster-override-policy-name and
//     kubeadmiral.io/override-policy-name (a cluster-scoped resource only the
//     former); nothing is selected implicitly, and a named policy that is
//     missing fails the resource;
//   - a bound resource is first turned into KubeAdmiral's template: the
//     policy-name labels, KubeAdmiral's control annotations, status and
//     server-set metadata go, labels and annotations exist (possibly empty)
//     and finalizers start empty;
//   - the ClusterOverridePolicy's matching rules run, then the
//     OverridePolicy's, in declaration order; each rule computes its patches
//     for every overrider type against the resource as it is before the rule
//     (image, command, args, envs, annotations, labels, jsonpatch) and
//     applies them together with the JSON-patch semantics of the library
//     KubeAdmiral uses (evanphx/json-patch v4 API);
//   - finally empty labels, annotations and finalizers are dropped, as the
//     apiserver would.
//
// The patch builders of the overrider types are in the subpackage
// kubeadmiral/overriders; this package decodes, validates and matches the
// policies, and applies each rule's patch.
package kubeadmiral
