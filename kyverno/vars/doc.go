// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package vars is the JSON context, JMESPath and variable substitution of
// Kyverno mutate rules, applied offline as `kyverno apply` (v1.19.1) does.
//
// Sources mirrored (behaviour, not code): pkg/engine/context (Context,
// checkpoints, deferred loaders), pkg/engine/context/loaders/variable.go,
// pkg/engine/variables/vars.go and regex/, pkg/engine/jsonutils/traverse.go,
// pkg/utils/jsonpointer, pkg/utils/api/image.go and
// pkg/validation/policy/validate.go (ValidateVariables, hasInvalidVariables,
// validateElementInForEach). Kyverno's JMESPath functions live in the
// functions sub-package, image parsing in image.
//
// Values. Callers pass JSON values (what encoding/json decodes into any).
// Inside the context, request.object keeps integers as int64, like the
// unstructured objects of the CLI: JMESPath comparisons and arithmetic on
// such integers behave as upstream (request.object.spec.replicas > `1` is
// null). Query and Substitute return JSON values again (float64 numbers,
// []any lists).
//
// Determinism. Upstream walks Go maps in random order; here map keys are
// visited in sorted order, so when a document holds several errors the
// first in key order is reported.
package vars
