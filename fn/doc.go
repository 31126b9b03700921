// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package fn is the KRM plumbing of apply-overrides: it reads the
// functionConfig and the cluster inventory, hands the policy objects of the
// ResourceList to their dialects (compiled once, bound to each cluster),
// places and overrides every other item for the cluster and reports
// problems as KRM results. Reading, checking and writing
// the ResourceList itself is internal/resourcelist's; fn runs the two paths
// that use it, streaming (stream.go) and the whole list (main.go).
package fn
