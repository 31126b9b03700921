// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build !nocel

package fn

import "github.com/apply-overrides/apply-overrides/admissionpolicy"

// The build with the CEL dialects (apply-overrides-cel, and every go
// build or go test without -tags nocel): Kubernetes MutatingAdmissionPolicies
// run between the federation overrides and Kyverno, and Kyverno evaluates
// its CEL MutatingPolicies (kyverno/celmutating.go). See handover.go.
const celLinked = true

// admissionDialects are the member-admission dialects before Kyverno.
var admissionDialects = []Dialect{admissionpolicy.Dialect{}}
