// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

// The object that describes a member cluster to Karmada (and ACK One).
const (
	ClusterAPIVersion = "cluster.karmada.io/v1alpha1"
	ClusterKind       = "Cluster"
)

// clusterObject is the part of a Karmada Cluster the dialect reads. Mirrors
// karmada-io/karmada pkg/apis/cluster/v1alpha1/types.go ClusterSpec
// @f8fdd02 (provider, region, zone, zones).
type clusterObject struct {
	Spec struct {
		Provider string   `yaml:"provider"`
		Region   string   `yaml:"region"`
		Zone     string   `yaml:"zone"`
		Zones    []string `yaml:"zones"`
	} `yaml:"spec"`
	Status struct {
		APIEnablements []struct {
			GroupVersion string `yaml:"groupVersion"`
			Resources    []struct {
				Kind string `yaml:"kind"`
			} `yaml:"resources"`
		} `yaml:"apiEnablements"`
		ResourceSummary *struct {
			Allocatable map[string]yaml.Node `yaml:"allocatable"`
			Allocating  map[string]yaml.Node `yaml:"allocating"`
			Allocated   map[string]yaml.Node `yaml:"allocated"`
		} `yaml:"resourceSummary"`
	} `yaml:"status"`
}

// ClusterType is the apiVersion and kind of Karmada's cluster objects.
func (Dialect) ClusterType() (apiVersion, kind string) { return ClusterAPIVersion, ClusterKind }

// DecodeCluster reads a Karmada Cluster into the neutral cluster model.
func (Dialect) DecodeCluster(obj *yaml.RNode) (policy.Cluster, error) {
	var kc clusterObject
	c, err := policy.DecodeCluster(obj, &kc)
	if err != nil {
		return policy.Cluster{}, err
	}
	c.Provider, c.Region, c.Zone, c.Zones = kc.Spec.Provider, kc.Spec.Region, kc.Spec.Zone, kc.Spec.Zones
	for _, e := range kc.Status.APIEnablements {
		for _, r := range e.Resources {
			c.APIs = append(c.APIs, e.GroupVersion+"/"+r.Kind)
		}
	}
	if rs := kc.Status.ResourceSummary; rs != nil {
		c.Resources = &policy.Resources{}
		summary := field.NewPath("status", "resourceSummary")
		var errs field.ErrorList
		for _, q := range []struct {
			in   map[string]yaml.Node
			out  *map[string]resource.Quantity
			name string
		}{{rs.Allocatable, &c.Resources.Allocatable, "allocatable"}, {rs.Allocating, &c.Resources.Allocating, "allocating"}, {rs.Allocated, &c.Resources.Allocated, "allocated"}} {
			var qerrs field.ErrorList
			*q.out, qerrs = policy.Quantities(q.in, summary.Child(q.name))
			errs = append(errs, qerrs...)
		}
		if len(errs) > 0 {
			return policy.Cluster{}, fmt.Errorf("%s: %w", c.Source.GVKString(), errs.ToAggregate())
		}
	}
	return c, nil
}
