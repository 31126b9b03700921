// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package policy

import (
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// clusterObject is the part of a cluster object that every control plane
// spells with the Kubernetes core types: metadata, spec.taints (core/v1
// Taint) and status.conditions (metav1.Condition).
type clusterObject struct {
	Metadata struct {
		Name   string            `yaml:"name"`
		Labels map[string]string `yaml:"labels"`
	} `yaml:"metadata"`
	Spec struct {
		Taints []Taint `yaml:"taints"`
	} `yaml:"spec"`
	Status struct {
		Conditions []condition `yaml:"conditions"`
	} `yaml:"status"`
}

// condition is a metav1.Condition, as far as placement reads it.
type condition struct {
	Type   string `yaml:"type"`
	Status string `yaml:"status"`
}

// DecodeCluster reads what every cluster object has in common into a
// Cluster (name, labels, taints, the Ready condition, Source) and decodes
// obj into out, the dialect's own view of its object, whose facts the
// dialect then adds (out may be nil). Errors name the object.
func DecodeCluster(obj *yaml.RNode, out any) (Cluster, error) {
	ref := RefOf(obj)
	var co clusterObject
	err := obj.YNode().Decode(&co)
	if err == nil && out != nil {
		err = obj.YNode().Decode(out)
	}
	if err != nil {
		return Cluster{}, fmt.Errorf("%s: %w", ref.GVKString(), err)
	}
	if co.Metadata.Name == "" {
		return Cluster{}, fmt.Errorf("%s: metadata.name: Required value", ref.GVKString())
	}
	c := Cluster{Name: co.Metadata.Name, Labels: co.Metadata.Labels, Taints: co.Spec.Taints, Source: ref}
	for _, cond := range co.Status.Conditions {
		switch cond.Type {
		case "Ready":
			c.Ready = cond.Status
		case "Joined":
			c.Joined = cond.Status
		}
	}
	return c, nil
}

// Quantities parses a core/v1 ResourceList (e.g. {cpu: 8, memory: 32Gi})
// at path, e.g. status.resourceSummary.allocatable.
func Quantities(in map[string]yaml.Node, path *field.Path) (map[string]resource.Quantity, field.ErrorList) {
	if in == nil {
		return nil, nil
	}
	names := make([]string, 0, len(in))
	for k := range in {
		names = append(names, k)
	}
	sort.Strings(names) // errors in the same order on every run
	out := make(map[string]resource.Quantity, len(in))
	var errs field.ErrorList
	for _, k := range names {
		n := in[k]
		if n.Kind != yaml.ScalarNode || n.Tag == yaml.NodeTagNull {
			errs = append(errs, field.Invalid(path.Key(k), nil, "expected a quantity, e.g. 8, 500m or 32Gi"))
			continue
		}
		q, err := resource.ParseQuantity(n.Value)
		if err != nil {
			errs = append(errs, field.Invalid(path.Key(k), n.Value, err.Error()+": write a Kubernetes quantity, e.g. 8, 500m or 32Gi"))
			continue
		}
		out[k] = q
	}
	return out, errs
}

// IsScalarResource reports whether the control planes' schedulers count a
// resource beyond cpu, memory, ephemeral-storage and pods (Kubernetes'
// IsScalarResourceName, which Karmada and KubeAdmiral both lift):
// extended resources (domain-prefixed names outside kubernetes.io),
// hugepages, names in the kubernetes.io domain, and attachable volumes.
func IsScalarResource(name string) bool {
	switch {
	case strings.HasPrefix(name, "hugepages-"), strings.HasPrefix(name, "attachable-volumes-"),
		strings.Contains(name, "kubernetes.io/"):
		return true
	case !strings.Contains(name, "/"), strings.HasPrefix(name, "requests."):
		return false
	}
	// An extended resource must also be valid as a quota name.
	return len(validation.IsQualifiedName("requests."+name)) == 0
}

// FleetNames lists the fleet's cluster names for a message, e.g.
// "member1, member2".
func FleetNames(fleet []*Cluster) string {
	names := make([]string, len(fleet))
	for i, c := range fleet {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}
