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
		Provider       string   `yaml:"provider"`
		Region         string   `yaml:"region"`
		Zone           string   `yaml:"zone"`
		Zones          []string `yaml:"zones"`
		ResourceModels []struct {
			Grade  uint `yaml:"grade"`
			Ranges []struct {
				Name string    `yaml:"name"`
				Min  yaml.Node `yaml:"min"`
				Max  yaml.Node `yaml:"max"`
			} `yaml:"ranges"`
		} `yaml:"resourceModels"`
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
			// AllocatableModelings counts the nodes of each grade.
			AllocatableModelings []struct {
				Grade uint  `yaml:"grade"`
				Count int64 `yaml:"count"`
			} `yaml:"allocatableModelings"`
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
	if kc.Status.APIEnablements != nil {
		c.APIs = []string{} // reported, even if empty: the cluster serves nothing listed
	}
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
		for _, m := range rs.AllocatableModelings {
			c.Resources.Modelings = append(c.Resources.Modelings, policy.Modeling{Grade: m.Grade, Count: m.Count})
		}
		if len(errs) > 0 {
			return policy.Cluster{}, fmt.Errorf("%s: %w", c.Source.GVKString(), errs.ToAggregate())
		}
	}
	models, errs := resourceModels(&kc)
	if len(errs) > 0 {
		return policy.Cluster{}, fmt.Errorf("%s: %w", c.Source.GVKString(), errs.ToAggregate())
	}
	if len(models) > 0 {
		if c.Resources == nil {
			c.Resources = &policy.Resources{}
		}
		c.Resources.Models = models
	}
	return c, nil
}

// resourceModels reads spec.resourceModels.
func resourceModels(kc *clusterObject) ([]policy.ResourceModel, field.ErrorList) {
	var out []policy.ResourceModel
	var errs field.ErrorList
	for i, m := range kc.Spec.ResourceModels {
		model := policy.ResourceModel{Grade: m.Grade, Ranges: map[string]policy.ResourceRange{}}
		for j, r := range m.Ranges {
			p := field.NewPath("spec", "resourceModels").Index(i).Child("ranges").Index(j)
			q, qerrs := policy.Quantities(map[string]yaml.Node{"min": r.Min, "max": r.Max}, p)
			errs = append(errs, qerrs...)
			model.Ranges[r.Name] = policy.ResourceRange{Min: q["min"], Max: q["max"]}
		}
		out = append(out, model)
	}
	return out, errs
}
