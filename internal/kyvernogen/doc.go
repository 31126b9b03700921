// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package kyvernogen generates deterministic Kyverno differential scenarios:
// a few realistic workload resources and one to three kyverno.io/v1 or
// kyverno.io/v2beta1 policies with mutate rules, or validate rules only
// (in Audit mode), as YAML text. The differential test
// (test/kyverno_differential_test.go) runs each scenario through the
// Kyverno CLI and through apply-overrides and compares the results.
//
// The policies only use what an offline render supports: matching by
// kinds, names, namespaces, selector and annotations, request.object and
// element variables, variable context entries, preconditions,
// patchStrategicMerge with conditional, global and add-if-not-present
// anchors, patchesJson6902 and foreach. Scenario i of a seed is the same
// whatever the number of scenarios asked for.
package kyvernogen
