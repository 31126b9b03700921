// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package yamlnode holds the small helpers on *yaml.Node that the patch
// engine, the overriders, the policy decoder and the Kyverno packages all
// need: alias and document resolution with one hop limit, the null tests,
// a mapping's value by key (MapGet), the alias expansion cap
// (MaxExpandedNodes) and a node's JSON text (MarshalJSON).
//
// Package fn expands every alias when it reads its input, so no node that
// reaches a dialect holds one; these helpers still follow aliases, within
// MaxAliasHops, for other callers (tests, fuzz targets, nodes built by
// hand).
package yamlnode
