// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyverno

import (
	"github.com/apply-overrides/apply-overrides/kyverno/celkinds"
	"github.com/apply-overrides/apply-overrides/policy"
)

// What the dialect says of Kyverno's CEL MutatingPolicies in every build;
// celmutating.go evaluates them, celmutating_nocel.go is the build
// without CEL (-tags nocel), which fn hands such inputs away from.

// celKey names MutatingPolicies and NamespacedMutatingPolicies for the
// duplicate check.
func celKey(ref policy.Ref) (string, bool) {
	if ref.Kind != celkinds.KindMutatingPolicy && ref.Kind != celkinds.KindNamespacedMutating {
		return "", false
	}
	return ref.Kind + "/" + ref.Namespace + "/" + ref.Name, true
}

// celRuleField is the rule a MutatingPolicy is, for matches and warnings.
const celRuleField = "spec.mutations"

// celNamespaces are the input's Namespace objects by name, as
// namespaceObject holds them (package mpol). They are taken when
// the input is compiled, before any resource renders: the Namespaces are
// themselves admitted, perhaps on another core, and a policy reads them
// as the input had them, as `kyverno apply` reads its values file's
// `namespaces:` and a cluster the stored Namespace.
type celNamespaces map[string]map[string]any

// celUnapplied says why a MutatingPolicy matched no resource.
func celUnapplied(policy.Ref) string {
	return "its matchConstraints and matchConditions matched no resource of the input: check resourceRules (apiGroups, apiVersions, resources as plural names, operations CREATE), the selectors (a namespaceSelector sees the labels of the input's Namespace object, or only kubernetes.io/metadata.name when the input has none) and matchConditions"
}
