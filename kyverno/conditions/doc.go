// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package conditions evaluates and validates Kyverno preconditions exactly as
// the Kyverno CLI v1.19.1 does offline.
//
// A rule's `preconditions` is either the deprecated plain list of conditions
// (all must hold) or an object with `any` and `all` blocks. Each condition has
// a key, an operator, a value and an optional message. The key and the value
// are substituted separately by a caller-supplied [Substituter], then compared
// by [Operate], which reproduces the type coercions of upstream's operator
// handlers (pkg/engine/variables/operator): wildcard matching with `*` and
// `?`, Go durations, resource quantities, numbers, semantic versions and
// Kyverno's range strings such as "1-10".
//
// [Validate] and [ValidateForEach] report the policy-validation errors of
// upstream's pkg/validation/policy/validate.go for a preconditions value.
//
// Upstream panics in one place (In/NotIn with a list key holding a
// non-string item); this package returns an error there instead. Every other
// behaviour, including upstream's quirks, is reproduced on purpose and is
// described next to the code that implements it.
package conditions
