// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package kyverno is the Kyverno dialect: kyverno.io/v1 and v2beta1
// ClusterPolicy and Policy mutate rules, the member cluster's own
// admission, applied after the federation overrides exactly as `kyverno
// apply` (Kyverno CLI v1.19.1) applies them offline. A v2beta1 policy is
// checked against what its schema drops from v1's (v2beta1.go) and then
// read as a v1 policy, as the CLI converts it.
//
// Compile decodes each policy strictly, runs the policy validation Kyverno
// runs before applying (with its messages), expands autogen rules for pod
// controllers and rejects what cannot work without a cluster (mutate
// targets, cluster-reading context entries, admission user info,
// namespaceSelector without the Namespace in the input). The Set then runs
// each policy in input order on each resource: every rule is matched on the
// resource as the previous rule left it, its context entries and
// preconditions are evaluated (kyverno/vars, kyverno/conditions), and its
// patch applied in place (kyverno/smp for patchStrategicMerge,
// kyverno/jsonpatch for patchesJson6902), foreach entries element by
// element.
package kyverno
