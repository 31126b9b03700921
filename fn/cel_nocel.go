// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build nocel

package fn

// The build without CEL (bin/apply-overrides, -tags nocel): it links
// neither the MutatingAdmissionPolicy dialect nor Kyverno's CEL engine,
// and hands any input that may hold their policies to apply-overrides-cel
// (handover.go).
const celLinked = false

// admissionDialects are the member-admission dialects before Kyverno:
// none without CEL.
var admissionDialects []Dialect
