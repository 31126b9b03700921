// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubeadmiral

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

// The object that describes a member cluster to KubeAdmiral.
const (
	ClusterAPIVersion = "core.kubeadmiral.io/v1alpha1"
	ClusterKind       = "FederatedCluster"
)

// ClusterType is the apiVersion and kind of KubeAdmiral's cluster objects.
func (Dialect) ClusterType() (apiVersion, kind string) { return ClusterAPIVersion, ClusterKind }

// DecodeCluster reads a FederatedCluster into the neutral cluster model: a
// name and labels, which is all KubeAdmiral's override matching reads
// (kubewharf/kubeadmiral pkg/controllers/override @19de01c).
func (Dialect) DecodeCluster(obj *yaml.RNode) (policy.Cluster, error) {
	ref := policy.RefOf(obj)
	var fc struct {
		Metadata struct {
			Name   string            `yaml:"name"`
			Labels map[string]string `yaml:"labels"`
		} `yaml:"metadata"`
	}
	if err := obj.YNode().Decode(&fc); err != nil {
		return policy.Cluster{}, fmt.Errorf("%s: %w", ref.GVKString(), err)
	}
	if fc.Metadata.Name == "" {
		return policy.Cluster{}, fmt.Errorf("%s: metadata.name: Required value", ref.GVKString())
	}
	return policy.Cluster{Name: fc.Metadata.Name, Labels: fc.Metadata.Labels, Source: ref}, nil
}
