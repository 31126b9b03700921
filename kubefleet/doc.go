// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package kubefleet is the KubeFleet dialect (kubefleet-dev/kubefleet
// v0.3.1, commit 78e6ca76a392731c558791d4321f01d694843c75): MemberCluster
// objects join the inventory; ClusterResourcePlacement and
// ResourcePlacement decide which clusters receive which resources (PickAll,
// PickFixed, PickN as the scheduler framework decides); ClusterResourceOverride
// and ResourceOverride patch them per cluster (JSONPatch with the
// ${MEMBER-CLUSTER-NAME} and ${MEMBER-CLUSTER-LABEL-KEY-<key>} variables) or
// keep them from a cluster (Delete), in the work generator's order.
package kubefleet
