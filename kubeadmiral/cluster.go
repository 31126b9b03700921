// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubeadmiral

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"
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
	var fc struct {
		Status struct {
			APIResourceTypes []struct {
				Group   string `yaml:"group"`
				Version string `yaml:"version"`
				Kind    string `yaml:"kind"`
			} `yaml:"apiResourceTypes"`
			Resources *struct {
				SchedulableNodes *int64               `yaml:"schedulableNodes"`
				Allocatable      map[string]yaml.Node `yaml:"allocatable"`
				Available        map[string]yaml.Node `yaml:"available"`
			} `yaml:"resources"`
		} `yaml:"status"`
	}
	c, err := policy.DecodeCluster(obj, &fc)
	if err != nil {
		return policy.Cluster{}, err
	}
	if fc.Status.APIResourceTypes != nil {
		c.APIs = []string{} // reported, even if empty
	}
	for _, t := range fc.Status.APIResourceTypes {
		gv := t.Version
		if t.Group != "" {
			gv = t.Group + "/" + t.Version
		}
		c.APIs = append(c.APIs, gv+"/"+t.Kind)
	}
	if rs := fc.Status.Resources; rs != nil {
		c.Resources = &policy.Resources{SchedulableNodes: rs.SchedulableNodes}
		resources := field.NewPath("status", "resources")
		var errs, more field.ErrorList
		c.Resources.Allocatable, errs = policy.Quantities(rs.Allocatable, resources.Child("allocatable"))
		c.Resources.Available, more = policy.Quantities(rs.Available, resources.Child("available"))
		if errs = append(errs, more...); len(errs) > 0 {
			return policy.Cluster{}, fmt.Errorf("%s: %w", c.Source.GVKString(), errs.ToAggregate())
		}
	}
	return c, nil
}
