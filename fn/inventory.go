// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"fmt"
	"sort"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

// Inventory object kinds read from the input.
const (
	KarmadaClusterAPIVersion        = "cluster.karmada.io/v1alpha1"
	KarmadaClusterKind              = "Cluster"
	KubeAdmiralClusterAPIVersion    = "core.kubeadmiral.io/v1alpha1"
	KubeAdmiralFederatedClusterKind = "FederatedCluster"
)

// isInventory reports whether an item describes a member cluster: a Karmada
// Cluster or a KubeAdmiral FederatedCluster.
func isInventory(apiVersion, kind string) bool {
	return apiVersion == KarmadaClusterAPIVersion && kind == KarmadaClusterKind ||
		apiVersion == KubeAdmiralClusterAPIVersion && kind == KubeAdmiralFederatedClusterKind
}

// clusterObject is the part of a Karmada Cluster or a KubeAdmiral
// FederatedCluster the dialects use (a FederatedCluster has no such spec
// fields; KubeAdmiral matches on name and labels only).
type clusterObject struct {
	Metadata struct {
		Name   string            `yaml:"name"`
		Labels map[string]string `yaml:"labels"`
	} `yaml:"metadata"`
	Spec struct {
		Provider string   `yaml:"provider"`
		Region   string   `yaml:"region"`
		Zone     string   `yaml:"zone"`
		Zones    []string `yaml:"zones"`
	} `yaml:"spec"`
}

// Inventory is every cluster the input and the functionConfig describe.
type Inventory map[string]*policy.Cluster

// BuildInventory reads Cluster and FederatedCluster objects, then lets the
// inline inventory replace or add entries.
func BuildInventory(objs []*yaml.RNode, inline []InlineCluster) (Inventory, error) {
	inv := Inventory{}
	for _, o := range objs {
		var kc clusterObject
		if err := o.YNode().Decode(&kc); err != nil {
			return nil, fmt.Errorf("%s: %w", policy.RefOf(o).GVKString(), err)
		}
		if kc.Metadata.Name == "" {
			return nil, fmt.Errorf("%s: metadata.name: Required value", policy.RefOf(o).GVKString())
		}
		inv[kc.Metadata.Name] = &policy.Cluster{
			Name: kc.Metadata.Name, Labels: kc.Metadata.Labels,
			Provider: kc.Spec.Provider, Region: kc.Spec.Region, Zone: kc.Spec.Zone, Zones: kc.Spec.Zones,
		}
	}
	for _, c := range inline {
		inv[c.Name] = &policy.Cluster{
			Name: c.Name, Labels: c.Labels, Provider: c.Provider, Region: c.Region, Zone: c.Zone, Zones: c.Zones,
		}
	}
	return inv, nil
}

// Names lists the known clusters, sorted.
func (inv Inventory) Names() []string {
	names := make([]string, 0, len(inv))
	for n := range inv {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Resolve picks the cluster to render: the named one, or the only one known.
// needed says whether any policy needs a cluster at all.
func (inv Inventory) Resolve(name string, needed bool) (*policy.Cluster, error) {
	known := "no clusters are known: add cluster.karmada.io/v1alpha1 Cluster or core.kubeadmiral.io/v1alpha1 FederatedCluster objects to the input or list them in the functionConfig's spec.clusters"
	if len(inv) > 0 {
		known = "known clusters: " + strings.Join(inv.Names(), ", ")
	}
	if name == "" {
		switch {
		case len(inv) == 1:
			return inv[inv.Names()[0]], nil
		case !needed:
			return nil, nil
		}
		return nil, fmt.Errorf("the functionConfig names no cluster to render (spec.cluster, or data.cluster of a ConfigMap); %s", known)
	}
	c, ok := inv[name]
	if !ok {
		return nil, fmt.Errorf("cluster %q is not in the inventory; %s", name, known)
	}
	return c, nil
}
