// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package celkinds names Kyverno's CEL policy kinds and the versions
// `kyverno apply` v1.19.1 loads them in
// (cmd/cli/kubectl-kyverno/policy/load.go:70-77, 414-425), without the
// CEL engine (package mpol): the kyverno dialect recognises the kinds in
// every build, including the one without CEL (see fn's hand-over).
package celkinds

// The kinds and their group.
const (
	Group                  = "policies.kyverno.io"
	KindMutatingPolicy     = "MutatingPolicy"
	KindNamespacedMutating = "NamespacedMutatingPolicy"
	KindPolicyException    = "PolicyException"
)

// Versions reports the versions kind is loaded in; nil for another kind.
func Versions(kind string) []string {
	switch kind {
	case KindMutatingPolicy:
		return []string{"v1alpha1", "v1beta1", "v1"}
	case KindNamespacedMutating:
		return []string{"v1beta1", "v1"}
	}
	return nil
}
