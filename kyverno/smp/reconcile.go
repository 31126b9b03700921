// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package smp

import "sigs.k8s.io/kustomize/kyaml/yaml"

// ReconcileTo turns the resource into the JSON value want (as
// yamlnode.MarshalJSON writes it: keys sorted), keeping the comments,
// styles and key order of what want keeps. The CEL MutatingPolicies
// (kyverno/mpol) write their results back with it.
func ReconcileTo(resource *yaml.RNode, want []byte) error { return reconcileTo(resource, want) }
