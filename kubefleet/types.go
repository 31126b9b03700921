// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubefleet

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// The types below mirror kubefleet apis/placement/v1beta1
// (override_types.go, clusterresourceplacement_types.go) @78e6ca7, which
// v1alpha1 and v1 repeat field for field; `required` marks the CRD's
// required fields.

type overrideObject struct {
	APIVersion string       `yaml:"apiVersion,omitempty"`
	Kind       string       `yaml:"kind,omitempty"`
	Metadata   *yaml.Node   `yaml:"metadata,omitempty"`
	Spec       overrideSpec `yaml:"spec,omitempty" required:"true"`
	Status     *yaml.Node   `yaml:"status,omitempty"`
}

// overrideSpec is ClusterResourceOverrideSpec and ResourceOverrideSpec in
// one: a ClusterResourceOverride has clusterResourceSelectors, a
// ResourceOverride resourceSelectors (decodePolicy rejects the other).
type overrideSpec struct {
	Placement                *placementRef      `yaml:"placement,omitempty"`
	ClusterResourceSelectors []resourceSelector `yaml:"clusterResourceSelectors,omitempty"`
	ResourceSelectors        []resourceSelector `yaml:"resourceSelectors,omitempty"`
	Policy                   *overridePolicy    `yaml:"policy,omitempty" required:"true"`
}

type placementRef struct {
	Name  string `yaml:"name,omitempty" required:"true"`
	Scope string `yaml:"scope,omitempty"`
}

type overridePolicy struct {
	OverrideRules []overrideRule `yaml:"overrideRules,omitempty" required:"true"`
}

type overrideRule struct {
	ClusterSelector    *clusterSelector    `yaml:"clusterSelector,omitempty"`
	OverrideType       string              `yaml:"overrideType,omitempty"`
	JSONPatchOverrides []jsonPatchOverride `yaml:"jsonPatchOverrides,omitempty"`
}

type jsonPatchOverride struct {
	Op    string     `yaml:"op,omitempty" required:"true"`
	Path  string     `yaml:"path,omitempty" required:"true"`
	Value *yaml.Node `yaml:"value,omitempty"`
}

// resourceSelector is ResourceSelectorTerm (a ClusterResourceOverride's
// and a placement's selectors) and ResourceSelector (a ResourceOverride's,
// which has no labelSelector or selectionScope).
type resourceSelector struct {
	Group          string         `yaml:"group,omitempty" required:"true"`
	Version        string         `yaml:"version,omitempty" required:"true"`
	Kind           string         `yaml:"kind,omitempty" required:"true"`
	Name           string         `yaml:"name,omitempty"`
	LabelSelector  *labelSelector `yaml:"labelSelector,omitempty"`
	SelectionScope string         `yaml:"selectionScope,omitempty"`
}

type clusterSelector struct {
	ClusterSelectorTerms []clusterSelectorTerm `yaml:"clusterSelectorTerms,omitempty" required:"true"`
}

type clusterSelectorTerm struct {
	LabelSelector    *labelSelector    `yaml:"labelSelector,omitempty"`
	PropertySelector *propertySelector `yaml:"propertySelector,omitempty"`
	PropertySorter   *propertySorter   `yaml:"propertySorter,omitempty"`
}

type propertySelector struct {
	MatchExpressions []propertyRequirement `yaml:"matchExpressions,omitempty" required:"true"`
}

type propertyRequirement struct {
	Name     string   `yaml:"name,omitempty" required:"true"`
	Operator string   `yaml:"operator,omitempty" required:"true"`
	Values   []string `yaml:"values,omitempty" required:"true"`
}

type propertySorter struct {
	Name      string `yaml:"name,omitempty" required:"true"`
	SortOrder string `yaml:"sortOrder,omitempty" required:"true"`
}

// labelSelector is metav1.LabelSelector as a manifest spells it.
type labelSelector struct {
	MatchLabels      map[string]string `yaml:"matchLabels,omitempty"`
	MatchExpressions []struct {
		Key      string   `yaml:"key,omitempty" required:"true"`
		Operator string   `yaml:"operator,omitempty" required:"true"`
		Values   []string `yaml:"values,omitempty"`
	} `yaml:"matchExpressions,omitempty"`
}

// metav1 is the selector as apimachinery's type, for
// metav1.LabelSelectorAsSelector.
func (ls *labelSelector) metav1() *metav1.LabelSelector {
	out := &metav1.LabelSelector{MatchLabels: ls.MatchLabels}
	for _, r := range ls.MatchExpressions {
		out.MatchExpressions = append(out.MatchExpressions, metav1.LabelSelectorRequirement{
			Key: r.Key, Operator: metav1.LabelSelectorOperator(r.Operator), Values: r.Values,
		})
	}
	return out
}

type placementObject struct {
	APIVersion string        `yaml:"apiVersion,omitempty"`
	Kind       string        `yaml:"kind,omitempty"`
	Metadata   *yaml.Node    `yaml:"metadata,omitempty"`
	Spec       placementSpec `yaml:"spec,omitempty" required:"true"`
	Status     *yaml.Node    `yaml:"status,omitempty"`
}

type placementSpec struct {
	ResourceSelectors    []resourceSelector `yaml:"resourceSelectors,omitempty" required:"true"`
	Policy               *placementPolicy   `yaml:"policy,omitempty"`
	Strategy             *yaml.Node         `yaml:"strategy,omitempty"`
	RevisionHistoryLimit *int32             `yaml:"revisionHistoryLimit,omitempty"`
	StatusReportingScope string             `yaml:"statusReportingScope,omitempty"`
}

type placementPolicy struct {
	PlacementType             string             `yaml:"placementType,omitempty"`
	ClusterNames              []string           `yaml:"clusterNames,omitempty"`
	NumberOfClusters          *int32             `yaml:"numberOfClusters,omitempty"`
	Affinity                  *affinity          `yaml:"affinity,omitempty"`
	TopologySpreadConstraints []spreadConstraint `yaml:"topologySpreadConstraints,omitempty"`
	Tolerations               []toleration       `yaml:"tolerations,omitempty"`
}

type affinity struct {
	ClusterAffinity *clusterAffinity `yaml:"clusterAffinity,omitempty"`
}

type clusterAffinity struct {
	Required  *clusterSelector    `yaml:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
	Preferred []preferredSelector `yaml:"preferredDuringSchedulingIgnoredDuringExecution,omitempty"`
}

type preferredSelector struct {
	Weight     int32               `yaml:"weight,omitempty" required:"true"`
	Preference clusterSelectorTerm `yaml:"preference,omitempty" required:"true"`
}

// toleration is KubeFleet's Toleration: core/v1's without
// tolerationSeconds.
type toleration struct {
	Key      string `yaml:"key,omitempty"`
	Operator string `yaml:"operator,omitempty"`
	Value    string `yaml:"value,omitempty"`
	Effect   string `yaml:"effect,omitempty"`
}

type spreadConstraint struct {
	MaxSkew           *int32 `yaml:"maxSkew,omitempty"`
	TopologyKey       string `yaml:"topologyKey,omitempty" required:"true"`
	WhenUnsatisfiable string `yaml:"whenUnsatisfiable,omitempty"`
}
