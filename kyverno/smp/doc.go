// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package smp applies a Kyverno mutate rule's patchStrategicMerge to a
// resource the way Kyverno v1.19.1 does (pkg/engine/mutate/patch), but on
// the resource's kyaml RNode, so that comments, key order and styles of
// everything the patch leaves alone survive.
//
// # Pipeline
//
// Apply mirrors upstream's two steps:
//
//  1. Anchor preprocessing (strategicPreprocessing.go) rewrites the patch
//     against the resource's JSON view: add-if-not-present +(k) keys are
//     dropped or un-anchored, global <(k) and conditional (k) anchors are
//     checked with Kyverno's validate-pattern engine (validate.MatchPattern,
//     reimplemented here), anchored list elements become one element per
//     matching resource element (named after it), and a final pass removes
//     anchors and empty maps. A failed condition outside a list element
//     turns the whole patch into {}.
//  2. kyaml merge2 with ListIncreaseDirection=Prepend and kyaml's built-in
//     Kubernetes v1.21.2 OpenAPI schema, as kustomize's
//     patchstrategicmerge.Filter runs it.
//
// Upstream runs step 2 on a YAML node parsed from the resource's JSON and
// converts the result back to JSON. Apply runs the same merge twice: once
// exactly that way, which defines the result, and once on a copy of the
// real node with a visitor that keeps comments (and reproduces the JSON
// round trip's quirks, e.g. a string field patched with a number stays a
// string). If the JSON views of the two agree, the copy becomes the
// resource; otherwise (exotic YAML such as merge keys, or numbers written
// as 0x10 used as merge keys) the resource is reconciled to the exact
// result, keeping what comments it can. The JSON view is kyaml's
// RNode.MarshalJSON.
//
// # Fast path
//
// TryFast applies the shapes Kyverno policies use most (plain keys and
// +() anchors with string, boolean and map values; one element merged by
// name into a list such as containers, the shape of a foreach) in one walk
// of the real node, with Apply's exact result, and declines everything
// else before touching the resource (fast.go lists what it takes). The
// caller then runs Apply. TestFastMatchesGeneral and FuzzFast compare the
// two paths.
//
// # What is rejected
//
// Check reports patches the offline render refuses instead of reproducing
// upstream bugs: equality =(k), negation X(k) and existence ^(k) anchors
// (upstream merges them as literal keys, issue #2109), lists in which two
// or more elements are removed by the anchor post-pass (upstream deletes
// by stale index, issue #16862, and can crash), and anchored keys with
// surrounding white space (upstream dereferences a missing field). Apply
// itself reproduces upstream for everything it can and returns an error
// where upstream would crash.
package smp
