// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubeadmiral

import "sigs.k8s.io/kustomize/kyaml/yaml"

// The types below mirror kubeadmiral pkg/apis/core/v1alpha1
// (types_overridepolicy.go, types_common.go) @19de01c, with `required`
// marking the CRD's required fields.

type object struct {
	APIVersion string     `yaml:"apiVersion,omitempty"`
	Kind       string     `yaml:"kind,omitempty"`
	Metadata   *yaml.Node `yaml:"metadata,omitempty"`
	Spec       spec       `yaml:"spec,omitempty" required:"true"`
	Status     *yaml.Node `yaml:"status,omitempty"`
}

type spec struct {
	OverrideRules []overrideRule `yaml:"overrideRules,omitempty"`
}

type overrideRule struct {
	TargetClusters *targetClusters `yaml:"targetClusters,omitempty"`
	Overriders     *overriderSet   `yaml:"overriders,omitempty"`
}

type targetClusters struct {
	Clusters        []string              `yaml:"clusters,omitempty"`
	ClusterSelector map[string]string     `yaml:"clusterSelector,omitempty"`
	ClusterAffinity []clusterSelectorTerm `yaml:"clusterAffinity,omitempty"`
}

type clusterSelectorTerm struct {
	MatchExpressions []requirement `yaml:"matchExpressions,omitempty"`
	MatchFields      []requirement `yaml:"matchFields,omitempty"`
}

type requirement struct {
	Key      string   `yaml:"key,omitempty" required:"true"`
	Operator string   `yaml:"operator,omitempty" required:"true"`
	Values   []string `yaml:"values,omitempty" required:"true"`
}

type overriderSet struct {
	Image       []imageOverrider      `yaml:"image,omitempty"`
	Command     []entrypointOverrider `yaml:"command,omitempty"`
	Args        []entrypointOverrider `yaml:"args,omitempty"`
	Envs        []envOverrider        `yaml:"envs,omitempty"`
	Annotations []stringMapOverrider  `yaml:"annotations,omitempty"`
	Labels      []stringMapOverrider  `yaml:"labels,omitempty"`
	JSONPatch   []jsonPatchOverrider  `yaml:"jsonpatch,omitempty"`
}

type imageOverrider struct {
	ContainerNames []string    `yaml:"containerNames,omitempty"`
	ImagePath      string      `yaml:"imagePath,omitempty"`
	Operations     []operation `yaml:"operations,omitempty" required:"true"`
}

type operation struct {
	ImageComponent string `yaml:"imageComponent,omitempty" required:"true"`
	Operator       string `yaml:"operator,omitempty"`
	Value          string `yaml:"value,omitempty"`
}

type entrypointOverrider struct {
	ContainerName string   `yaml:"containerName,omitempty" required:"true"`
	Operator      string   `yaml:"operator,omitempty"`
	Value         []string `yaml:"value,omitempty" required:"true"`
}

type envOverrider struct {
	ContainerName string       `yaml:"containerName,omitempty" required:"true"`
	Operator      string       `yaml:"operator,omitempty"`
	Value         []*yaml.Node `yaml:"value,omitempty" required:"true"` // corev1.EnvVar
}

type stringMapOverrider struct {
	Operator string     `yaml:"operator,omitempty"`
	Value    *yaml.Node `yaml:"value,omitempty" required:"true"` // map[string]string
}

type jsonPatchOverrider struct {
	Operator string     `yaml:"operator,omitempty"`
	Path     string     `yaml:"path,omitempty" required:"true"`
	Value    *yaml.Node `yaml:"value,omitempty"`
}
