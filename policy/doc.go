// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package policy is the neutral rule model every policy dialect compiles into.
//
// A dialect (Karmada, KubeAdmiral, ...) decodes and validates its API objects
// once per run, drops the rules that do not target the cluster being
// rendered, and returns an ordered list of Sets. For each resource the
// function walks the Sets in order; a Set picks the Rules that apply to the
// resource as it is at that moment (after the previous Sets changed it) and
// returns them in the order the upstream controller applies them. A Rule is
// a list of Steps; a Step is a kyaml yaml.Filter that edits the resource in
// place.
//
// Karmada, for example, contributes two Sets: its ClusterOverridePolicies and
// then its OverridePolicies, because Karmada selects and applies the
// namespaced policies only after the cluster-wide ones have run.
package policy
