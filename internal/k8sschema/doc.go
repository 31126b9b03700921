// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package k8sschema is the one source of the structured-merge-diff schema
// of the built-in Kubernetes types that both CEL admission dialects merge
// an ApplyConfiguration with: Kubernetes MutatingAdmissionPolicy
// (admissionpolicy) and Kyverno MutatingPolicy (kyverno/mpol).
//
// The schema is client-go v0.36.6's copy of the API server's OpenAPI for
// the types of k8s.io/api v0.36.6 (applyconfigurations.NewTypeConverter
// over client-go's scheme): list types and map keys (containers merge by
// name), atomic structs, scalar types. It is parsed on the first
// ApplyConfiguration mutation that reaches a resource, never at start-up.
//
// What each dialect's upstream reads, and how close this is:
//
//   - MutatingAdmissionPolicy: the API server's static type converter holds
//     the schema of the server's own built-in types; for a v1.36 server that
//     is the schema here, exactly (oracle/kubeadmission drives
//     k8s.io/apiserver v0.36.6's plugin with the same converter).
//   - Kyverno MutatingPolicy: `kyverno apply` v1.19.1 builds one converter
//     per group-version from the Kubernetes 1.32 OpenAPI v3 documents that
//     sigs.k8s.io/kubectl-validate embeds (policy_processor.go openAPI:
//     openapiclient.NewHardcodedBuiltins("1.32"); type_converter.go in
//     pkg/cel/policies/mpol/compiler). Those documents cannot be linked
//     here: the package embeds every Kubernetes release from 1.23 to 1.35
//     (111 MB). Against them, the schema here types 91 of the 92 kinds both
//     know identically or with fields added since 1.32 (resource.k8s.io
//     v1beta1 ResourceClaim differs in one path); it lacks the kinds
//     client-go's scheme does not register (CustomResourceDefinition,
//     APIService, Binding, the review kinds, resource.k8s.io v1alpha3,
//     storagemigration.k8s.io v1alpha1). kyaml's Kubernetes 1.21 schema,
//     which kyverno/mpol read before, differed from 1.32 in 120 of 122.
package k8sschema
