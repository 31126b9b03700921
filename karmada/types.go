// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

import "sigs.k8s.io/kustomize/kyaml/yaml"

// The types below mirror karmada pkg/apis/policy/v1alpha1 (override_types.go,
// propagation_types.go) @f8fdd02, with `required` marking the CRD's required
// fields. Free-form JSON values are kept as YAML nodes.

// object is the part of an OverridePolicy or ClusterOverridePolicy we read.
type object struct {
	APIVersion string       `yaml:"apiVersion,omitempty"`
	Kind       string       `yaml:"kind,omitempty"`
	Metadata   *yaml.Node   `yaml:"metadata,omitempty"`
	Spec       overrideSpec `yaml:"spec,omitempty" required:"true"`
	Status     *yaml.Node   `yaml:"status,omitempty"`
}

type overrideSpec struct {
	ResourceSelectors []resourceSelector `yaml:"resourceSelectors,omitempty"`
	OverrideRules     []ruleWithCluster  `yaml:"overrideRules,omitempty"`
	TargetCluster     *clusterAffinity   `yaml:"targetCluster,omitempty"` // deprecated
	Overriders        overriderSet       `yaml:"overriders,omitempty"`    // deprecated
}

type resourceSelector struct {
	APIVersion    string         `yaml:"apiVersion,omitempty" required:"true"`
	Kind          string         `yaml:"kind,omitempty" required:"true"`
	Namespace     string         `yaml:"namespace,omitempty"`
	Name          string         `yaml:"name,omitempty"`
	LabelSelector *labelSelector `yaml:"labelSelector,omitempty"`
}

type labelSelector struct {
	MatchLabels      map[string]string `yaml:"matchLabels,omitempty"`
	MatchExpressions []requirement     `yaml:"matchExpressions,omitempty"`
}

// requirement is both metav1.LabelSelectorRequirement and
// corev1.NodeSelectorRequirement: they share their fields.
type requirement struct {
	Key      string   `yaml:"key,omitempty" required:"true"`
	Operator string   `yaml:"operator,omitempty" required:"true"`
	Values   []string `yaml:"values,omitempty"`
}

type ruleWithCluster struct {
	TargetCluster *clusterAffinity `yaml:"targetCluster,omitempty"`
	Overriders    overriderSet     `yaml:"overriders,omitempty" required:"true"`
}

type clusterAffinity struct {
	LabelSelector *labelSelector `yaml:"labelSelector,omitempty"`
	FieldSelector *fieldSelector `yaml:"fieldSelector,omitempty"`
	ClusterNames  []string       `yaml:"clusterNames,omitempty"`
	Exclude       []string       `yaml:"exclude,omitempty"`
	// ExcludeClusters is ACK One's spelling of Exclude; decode rejects it in
	// the policy.karmada.io group.
	ExcludeClusters []string `yaml:"excludeClusters,omitempty"`
}

type fieldSelector struct {
	MatchExpressions []requirement `yaml:"matchExpressions,omitempty"`
}

type overriderSet struct {
	Plaintext            []plaintextOverrider       `yaml:"plaintext,omitempty"`
	ImageOverrider       []imageOverrider           `yaml:"imageOverrider,omitempty"`
	CommandOverrider     []commandArgsOverrider     `yaml:"commandOverrider,omitempty"`
	ArgsOverrider        []commandArgsOverrider     `yaml:"argsOverrider,omitempty"`
	LabelsOverrider      []labelAnnotationOverrider `yaml:"labelsOverrider,omitempty"`
	AnnotationsOverrider []labelAnnotationOverrider `yaml:"annotationsOverrider,omitempty"`
	FieldOverrider       []fieldOverrider           `yaml:"fieldOverrider,omitempty"`
}

type imageOverrider struct {
	Predicate *imagePredicate `yaml:"predicate,omitempty"`
	Component string          `yaml:"component,omitempty" required:"true"`
	Operator  string          `yaml:"operator,omitempty" required:"true"`
	Value     string          `yaml:"value,omitempty"`
}

type imagePredicate struct {
	Path string `yaml:"path,omitempty" required:"true"`
}

type commandArgsOverrider struct {
	ContainerName string   `yaml:"containerName,omitempty" required:"true"`
	Operator      string   `yaml:"operator,omitempty" required:"true"`
	Value         []string `yaml:"value,omitempty"`
}

type labelAnnotationOverrider struct {
	Operator string     `yaml:"operator,omitempty" required:"true"`
	Value    *yaml.Node `yaml:"value,omitempty" required:"true"` // map[string]string, kept in order
}

type plaintextOverrider struct {
	Path     string     `yaml:"path,omitempty" required:"true"`
	Operator string     `yaml:"operator,omitempty" required:"true"`
	Value    *yaml.Node `yaml:"value,omitempty"`
}

type fieldOverrider struct {
	FieldPath string           `yaml:"fieldPath,omitempty" required:"true"`
	JSON      []patchOperation `yaml:"json,omitempty"`
	YAML      []patchOperation `yaml:"yaml,omitempty"`
}

type patchOperation struct {
	SubPath  string     `yaml:"subPath,omitempty" required:"true"`
	Operator string     `yaml:"operator,omitempty" required:"true"`
	Value    *yaml.Node `yaml:"value,omitempty"`
}
