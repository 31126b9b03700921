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

// clusterSource is a Dialect that owns the objects describing its control
// plane's member clusters (Karmada Cluster, KubeAdmiral FederatedCluster,
// KubeFleet MemberCluster):
// it reads them into the neutral cluster model.
type clusterSource interface {
	ClusterType() (apiVersion, kind string)
	DecodeCluster(obj *yaml.RNode) (policy.Cluster, error)
}

// otherClusterTypes is a clusterSource whose cluster object is served in
// more than one version (KubeFleet's MemberCluster v1beta1 and v1).
type otherClusterTypes interface {
	OtherClusterTypes() [][2]string
}

// clusterDialect returns the dialect whose cluster objects have this
// apiVersion and kind, if any.
func clusterDialect(apiVersion, kind string) (clusterSource, bool) {
	for _, d := range Dialects {
		cs, ok := d.(clusterSource)
		if !ok {
			continue
		}
		if v, k := cs.ClusterType(); v == apiVersion && k == kind {
			return cs, true
		}
		if o, ok := d.(otherClusterTypes); ok {
			for _, t := range o.OtherClusterTypes() {
				if t[0] == apiVersion && t[1] == kind {
					return cs, true
				}
			}
		}
	}
	return nil, false
}

// isInventory reports whether an item describes a member cluster.
func isInventory(apiVersion, kind string) bool {
	_, ok := clusterDialect(apiVersion, kind)
	return ok
}

// clusterTypes names the cluster objects the dialects read, for messages.
func clusterTypes() string {
	var types []string
	for _, d := range Dialects {
		if cs, ok := d.(clusterSource); ok {
			v, k := cs.ClusterType()
			types = append(types, v+" "+k)
		}
	}
	return strings.Join(types, " or ")
}

// Inventory is every cluster the input and the functionConfig describe.
type Inventory map[string]*policy.Cluster

// BuildInventory reads the dialects' cluster objects, then lets the inline
// inventory replace or add entries.
func BuildInventory(objs []*yaml.RNode, inline []InlineCluster) (Inventory, error) {
	inv := Inventory{}
	for _, o := range objs {
		cs, ok := clusterDialect(o.GetApiVersion(), o.GetKind())
		if !ok {
			return nil, fmt.Errorf("%s: not a cluster object", policy.RefOf(o).GVKString())
		}
		c, err := cs.DecodeCluster(o)
		if err != nil {
			return nil, err
		}
		inv[c.Name] = &c
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
	known := "no clusters are known: add " + clusterTypes() + " objects to the input or list them in the functionConfig's spec.clusters"
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
