// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

// The types below mirror karmada pkg/apis/policy/v1alpha1
// propagation_types.go at v1.16.0 (b1ff495), the Karmada whose placement
// the function reproduces (docs/placement.md says why that version).
// `required` marks the CRD's required fields; fields the placement does not
// read offline are kept as nodes, so that they are accepted and validated
// for shape only.

// propagationObject is a PropagationPolicy or ClusterPropagationPolicy.
type propagationObject struct {
	APIVersion string          `yaml:"apiVersion,omitempty"`
	Kind       string          `yaml:"kind,omitempty"`
	Metadata   *yaml.Node      `yaml:"metadata,omitempty"`
	Spec       propagationSpec `yaml:"spec,omitempty" required:"true"`
	Status     *yaml.Node      `yaml:"status,omitempty"`
}

type propagationSpec struct {
	ResourceSelectors           []resourceSelector `yaml:"resourceSelectors,omitempty" required:"true"`
	Association                 bool               `yaml:"association,omitempty"`
	PropagateDeps               bool               `yaml:"propagateDeps,omitempty"`
	Placement                   placement          `yaml:"placement,omitempty"`
	Priority                    *int32             `yaml:"priority,omitempty"`
	Preemption                  string             `yaml:"preemption,omitempty"`
	DependentOverrides          []string           `yaml:"dependentOverrides,omitempty"`
	SchedulerName               string             `yaml:"schedulerName,omitempty"`
	Failover                    *failoverBehavior  `yaml:"failover,omitempty"`
	ConflictResolution          string             `yaml:"conflictResolution,omitempty"`
	ActivationPreference        string             `yaml:"activationPreference,omitempty"`
	Suspension                  *suspension        `yaml:"suspension,omitempty"`
	PreserveResourcesOnDeletion *bool              `yaml:"preserveResourcesOnDeletion,omitempty"`
	SchedulePriority            *yaml.Node         `yaml:"schedulePriority,omitempty"`
}

type placement struct {
	ClusterAffinity    *clusterAffinity      `yaml:"clusterAffinity,omitempty"`
	ClusterAffinities  []clusterAffinityTerm `yaml:"clusterAffinities,omitempty"`
	ClusterTolerations []policy.Toleration   `yaml:"clusterTolerations,omitempty"`
	SpreadConstraints  []spreadConstraint    `yaml:"spreadConstraints,omitempty"`
	ReplicaScheduling  *replicaScheduling    `yaml:"replicaScheduling,omitempty"`
	WorkloadAffinity   *yaml.Node            `yaml:"workloadAffinity,omitempty"`
}

// clusterAffinityTerm is a named clusterAffinity (Go's inline embedding,
// spelt out because the decoder reads no inline fields).
type clusterAffinityTerm struct {
	AffinityName    string         `yaml:"affinityName,omitempty" required:"true"`
	LabelSelector   *labelSelector `yaml:"labelSelector,omitempty"`
	FieldSelector   *fieldSelector `yaml:"fieldSelector,omitempty"`
	ClusterNames    []string       `yaml:"clusterNames,omitempty"`
	Exclude         []string       `yaml:"exclude,omitempty"`
	ExcludeClusters []string       `yaml:"excludeClusters,omitempty"`
}

func (t *clusterAffinityTerm) affinity() *clusterAffinity {
	return &clusterAffinity{LabelSelector: t.LabelSelector, FieldSelector: t.FieldSelector,
		ClusterNames: t.ClusterNames, Exclude: t.Exclude, ExcludeClusters: t.ExcludeClusters}
}

type spreadConstraint struct {
	SpreadByField string `yaml:"spreadByField,omitempty"`
	SpreadByLabel string `yaml:"spreadByLabel,omitempty"`
	MaxGroups     int    `yaml:"maxGroups,omitempty"`
	MinGroups     int    `yaml:"minGroups,omitempty"`
}

type replicaScheduling struct {
	ReplicaSchedulingType     string              `yaml:"replicaSchedulingType,omitempty"`
	ReplicaDivisionPreference string              `yaml:"replicaDivisionPreference,omitempty"`
	WeightPreference          *clusterPreferences `yaml:"weightPreference,omitempty"`
	// CustomSchedulingType is ACK One's (Gang scheduling of jobs).
	CustomSchedulingType string `yaml:"customSchedulingType,omitempty"`
}

type clusterPreferences struct {
	StaticWeightList []staticClusterWeight `yaml:"staticWeightList,omitempty"`
	DynamicWeight    string                `yaml:"dynamicWeight,omitempty"`
}

type staticClusterWeight struct {
	TargetCluster clusterAffinity `yaml:"targetCluster,omitempty" required:"true"`
	Weight        int64           `yaml:"weight,omitempty" required:"true"`
}

type failoverBehavior struct {
	Application *applicationFailover `yaml:"application,omitempty"`
	Cluster     *yaml.Node           `yaml:"cluster,omitempty"`
}

type applicationFailover struct {
	DecisionConditions struct {
		TolerationSeconds *int32 `yaml:"tolerationSeconds,omitempty"`
	} `yaml:"decisionConditions,omitempty" required:"true"`
	PurgeMode          string     `yaml:"purgeMode,omitempty"`
	GracePeriodSeconds *int32     `yaml:"gracePeriodSeconds,omitempty"`
	StatePreservation  *yaml.Node `yaml:"statePreservation,omitempty"`
}

type suspension struct {
	Dispatching           *bool `yaml:"dispatching,omitempty"`
	DispatchingOnClusters *struct {
		ClusterNames []string `yaml:"clusterNames,omitempty"`
	} `yaml:"dispatchingOnClusters,omitempty"`
}
