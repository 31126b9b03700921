// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package policy

import (
	"sort"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// The parts of a cluster object that every control plane spells with the
// Kubernetes core types, as the dialects decode them. Each dialect's
// DecodeCluster reads its own object and fills the neutral Cluster with
// these.

// TaintField is a core/v1 Taint as a cluster object's spec.taints holds it.
type TaintField struct {
	Key    string `yaml:"key"`
	Value  string `yaml:"value"`
	Effect string `yaml:"effect"`
}

// ConditionField is a metav1.Condition of a cluster object's status.
type ConditionField struct {
	Type   string `yaml:"type"`
	Status string `yaml:"status"`
}

// Taints converts spec.taints.
func Taints(in []TaintField) []Taint {
	if len(in) == 0 {
		return nil
	}
	out := make([]Taint, len(in))
	for i, t := range in {
		out[i] = Taint(t)
	}
	return out
}

// ReadyStatus is the status of the Ready condition, "" without one.
func ReadyStatus(conds []ConditionField) string {
	for _, c := range conds {
		if c.Type == "Ready" {
			return c.Status
		}
	}
	return ""
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
			errs = append(errs, field.Invalid(path.Key(k), n.Value, err.Error()+" (e.g. 8, 500m or 32Gi)"))
			continue
		}
		out[k] = q
	}
	return out, errs
}
