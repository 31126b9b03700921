// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubeadmiral

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Labels that bind a resource to KubeAdmiral policies. The federate
// controller moves them to the FederatedObject, so they never reach a member
// cluster (federate/util.go classifyLabel).
const (
	OverridePolicyLabel           = "kubeadmiral.io/override-policy-name"
	ClusterOverridePolicyLabel    = "kubeadmiral.io/cluster-override-policy-name"
	PropagationPolicyLabel        = "kubeadmiral.io/propagation-policy-name"
	ClusterPropagationPolicyLabel = "kubeadmiral.io/cluster-propagation-policy-name"
)

var federatedLabels = []string{PropagationPolicyLabel, ClusterPropagationPolicyLabel, OverridePolicyLabel, ClusterOverridePolicyLabel}

// federatedAnnotations are moved to the FederatedObject or dropped by the
// federate controller (classifyAnnotation).
var federatedAnnotations = func() []string {
	var out []string
	for _, a := range []string{"retain-replicas", "scheduling-mode", "sticky-cluster", "no-auto-propagation", "orphan",
		"conflict-resolution", "clusters-to-adopt", "tolerations", "placements", "clusterSelector", "affinity",
		"maxClusters", "no-scheduling", "follows-object", "followers", "disable-following", "migration-configuration",
		"dry-run", "latest-replicaset-digests", "applied-migration-configuration", "scheduling"} {
		out = append(out, "kubeadmiral.io/"+a)
	}
	return out
}()

// serverMetadata is what TemplateForSourceObject removes from metadata.
var serverMetadata = []string{"selfLink", "uid", "resourceVersion", "creationTimestamp", "deletionTimestamp",
	"ownerReferences", "finalizers", "managedFields"}

// isFederated reports whether a resource is bound to KubeAdmiral policies.
func isFederated(labels map[string]string) bool {
	for _, l := range federatedLabels {
		if _, ok := labels[l]; ok {
			return true
		}
	}
	return false
}

// toTemplate turns a resource into what KubeAdmiral propagates before any
// override: the federated labels and annotations, status and server-set
// metadata go; labels and annotations exist, and finalizers start empty as
// the sync controller creates them.
type toTemplate struct{}

var _ yaml.Filter = toTemplate{}

func (toTemplate) Filter(rn *yaml.RNode) (*yaml.RNode, error) {
	if err := rn.PipeE(yaml.Clear("status")); err != nil {
		return nil, err
	}
	meta, err := rn.Pipe(yaml.LookupCreate(yaml.MappingNode, yaml.MetadataField))
	if err != nil {
		return nil, err
	}
	for _, f := range serverMetadata {
		if err := meta.PipeE(yaml.Clear(f)); err != nil {
			return nil, err
		}
	}
	for _, f := range []struct {
		field string
		drop  []string
	}{{yaml.LabelsField, federatedLabels}, {yaml.AnnotationsField, federatedAnnotations}} {
		m, err := meta.Pipe(yaml.LookupCreate(yaml.MappingNode, f.field))
		if err != nil {
			return nil, err
		}
		if m.YNode().Kind != yaml.MappingNode {
			*m.YNode() = yaml.Node{Kind: yaml.MappingNode}
		}
		for _, k := range f.drop {
			if err := m.PipeE(yaml.Clear(k)); err != nil {
				return nil, err
			}
		}
	}
	seq := &yaml.Node{Kind: yaml.SequenceNode}
	meta.YNode().Content = append(meta.YNode().Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "finalizers"}, seq)
	return rn, nil
}

// dropEmpty removes empty labels, annotations and finalizers, which the
// apiserver would not keep either.
type dropEmpty struct{}

var _ yaml.Filter = dropEmpty{}

func (dropEmpty) Filter(rn *yaml.RNode) (*yaml.RNode, error) {
	meta := rn.Field(yaml.MetadataField)
	if meta == nil {
		return rn, nil
	}
	for _, f := range []string{yaml.LabelsField, yaml.AnnotationsField, "finalizers"} {
		v := meta.Value.Field(f)
		if v == nil {
			continue
		}
		n := v.Value.YNode()
		if (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) && len(n.Content) == 0 || n.ShortTag() == yaml.NodeTagNull {
			if err := meta.Value.PipeE(yaml.Clear(f)); err != nil {
				return nil, err
			}
		}
	}
	return rn, nil
}
