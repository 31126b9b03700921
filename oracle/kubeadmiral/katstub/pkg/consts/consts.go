// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package consts stands in for github.com/kubewharf/katalyst-api/pkg/consts,
// which is not in the offline module cache. KubeAdmiral's scheduler framework
// only needs these three resource names from it (katalyst support is off in
// the default profile, so they never reach a decision here).
package consts

import v1 "k8s.io/api/core/v1"

// Resource names the framework refers to.
const (
	ReclaimedResourceMilliCPU v1.ResourceName = "resource.katalyst.kubewharf.io/reclaimed_millicpu"
	ReclaimedResourceMemory   v1.ResourceName = "resource.katalyst.kubewharf.io/reclaimed_memory"
	ResourceNetBandwidth      v1.ResourceName = "resource.katalyst.kubewharf.io/net_bandwidth"
)
