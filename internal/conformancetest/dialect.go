// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package conformancetest

import (
	"sort"
	"testing"

	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

// Dialect is what a dialect package offers fn (fn.Dialect), restated here
// so that the dialect packages' tests can run cases without importing fn.
type Dialect interface {
	Claims(apiVersion, kind string) (bool, error)
	Compile(objs []*yaml.RNode) (policy.Policies, []error)
}

// RunDialect runs a case through one dialect alone, the way fn drives it:
// the items of ResourceList(c) minus the inventory object are sorted into
// the objects d claims and the resources; the claimed objects compile for
// PolicyCluster(c), and policy.Apply runs the Sets on each resource in
// place. An expectError case must then have an error containing
// ExpectError (a Claims, Compile or Apply error, with the text fn reports);
// an expected case none, and the resources must equal the expected items.
//
// It is for the cases of d's own dialect: fn's own checks (the
// functionConfig, the inventory, the input's shape) and the other
// dialects' Sets do not run.
func RunDialect(t testing.TB, c *Case, d Dialect) {
	t.Helper()
	c.Diverge(t)
	var objs, resources []*yaml.RNode
	var msgs []string
	for _, n := range Items(t, c) {
		apiVersion, kind := n.GetApiVersion(), n.GetKind()
		if apiVersion == "cluster.karmada.io/v1alpha1" && kind == "Cluster" ||
			apiVersion == "core.kubeadmiral.io/v1alpha1" && kind == "FederatedCluster" ||
			apiVersion == "cluster.kubernetes-fleet.io/v1beta1" && kind == "MemberCluster" {
			continue
		}
		claimed, err := d.Claims(apiVersion, kind)
		if err != nil {
			msgs = append(msgs, (&policy.Error{Policy: policy.RefOf(n), Field: "apiVersion", Err: err}).Error())
		}
		if claimed {
			objs = append(objs, n)
			continue
		}
		if o, ok := d.(interface {
			Observes(apiVersion, kind string) bool
		}); ok && o.Observes(apiVersion, kind) {
			objs = append(objs, n) // read by the dialect, and still a resource
		}
		resources = append(resources, n)
	}
	if len(msgs) == 0 {
		b, errs := policy.CompileFor(d, objs, policy.Target{Cluster: PolicyCluster(c), Resources: resources})
		for _, err := range errs {
			if !policy.IsWarning(err) {
				msgs = append(msgs, err.Error())
			}
		}
		if len(msgs) == 0 {
			for _, n := range resources {
				if _, err := policy.Apply(policy.NewResource(n), append(b.Sets, b.Reinvoke...)); err != nil {
					msgs = append(msgs, err.Error())
				}
			}
		}
	}
	if c.ExpectError != "" || len(msgs) > 0 {
		require.NotEmpty(t, msgs, "expected an error containing %q, the run succeeded", c.ExpectError)
		CheckErrors(t, c, msgs)
		return
	}
	nodes := make([]*yaml.Node, 0, len(resources))
	for _, n := range resources {
		nodes = append(nodes, n.YNode())
	}
	CheckItems(t, c, nodes)
}

// clusterDecoder is a dialect that reads its cluster objects.
type clusterDecoder interface {
	ClusterType() (apiVersion, kind string)
	DecodeCluster(obj *yaml.RNode) (policy.Cluster, error)
}

// RunDialectPlacement runs a split placement case (Split) through one
// dialect alone, the way fn drives it: the cluster objects are decoded by
// d, the claimed objects compile once, For binds them to the case's
// cluster with the whole fleet and every resource, and each resource is
// placed (policy.Place, then the placement's revision) and overridden
// (policy.Apply) in place. The resources the cluster receives must equal
// its expected items.
func RunDialectPlacement(t testing.TB, c *Case, d Dialect) {
	t.Helper()
	c.Diverge(t)
	cd, ok := d.(clusterDecoder)
	require.True(t, ok, "the dialect reads no cluster objects")
	var objs, resources []*yaml.RNode
	var fleet []*policy.Cluster
	var target *policy.Cluster
	clusterAPIVersion, clusterKind := cd.ClusterType()
	for _, n := range Items(t, c) {
		if isClusterObject(d, n, clusterAPIVersion, clusterKind) {
			pc, err := cd.DecodeCluster(n)
			require.NoError(t, err)
			fleet = append(fleet, &pc)
			if pc.Name == c.Render {
				target = &pc
			}
			continue
		}
		claimed, err := d.Claims(n.GetApiVersion(), n.GetKind())
		require.NoError(t, err)
		if claimed {
			objs = append(objs, n)
		} else {
			resources = append(resources, n)
		}
	}
	require.NotNil(t, target, "cluster %s is not among the case's clusters", c.Render)
	sort.Slice(fleet, func(i, j int) bool { return fleet[i].Name < fleet[j].Name })
	var received []*yaml.Node
	mode := policy.PlacementAuto
	if c.Placement != "" {
		mode = policy.PlacementMode(c.Placement)
	}
	b, errs := policy.CompileFor(d, objs, policy.Target{Cluster: target, Placement: mode, Fleet: fleet, Resources: resources})
	var msgs []string
	for _, e := range errs {
		if !policy.IsWarning(e) && !policy.IsNote(e) {
			msgs = append(msgs, e.Error())
		}
	}
	for _, n := range resources {
		if len(msgs) > 0 {
			break
		}
		res := policy.NewResource(n)
		pl := policy.Everywhere
		if b.Placer != nil {
			var err error
			if pl, err = policy.Place(res, []policy.Placer{b.Placer}); err != nil {
				msgs = append(msgs, err.Error())
				continue
			}
		}
		if !pl.Placed {
			continue
		}
		if pl.Revise.Filter != nil {
			require.NoError(t, n.PipeE(pl.Revise.Filter))
			res.Refresh()
		}
		if _, err := policy.Apply(res, b.Sets); err != nil {
			msgs = append(msgs, err.Error())
		}
		received = append(received, n.YNode())
	}
	if c.ExpectError != "" || len(msgs) > 0 {
		require.NotEmpty(t, msgs, "expected an error containing %q, the run succeeded", c.ExpectError)
		CheckErrors(t, c, msgs)
		return
	}
	CheckItems(t, c, received)
}

// RunPlacementCases runs every placement case of system under dir
// (testdata/conformance/placement) through d alone, one parallel subtest
// per cluster (RunDialectPlacement).
func RunPlacementCases(t *testing.T, dir, system string, d Dialect) {
	for _, c := range SplitAll(Load(t, dir, "placement")) {
		if c.System != system {
			continue
		}
		t.Run(c.ID, func(t *testing.T) {
			t.Parallel()
			RunDialectPlacement(t, c, d)
		})
	}
}

// isClusterObject reports whether n is one of the dialect's cluster
// objects: its ClusterType, or one of its OtherClusterTypes (a cluster
// object served in more than one version).
func isClusterObject(d Dialect, n *yaml.RNode, apiVersion, kind string) bool {
	if n.GetApiVersion() == apiVersion && n.GetKind() == kind {
		return true
	}
	if o, ok := d.(interface{ OtherClusterTypes() [][2]string }); ok {
		for _, t := range o.OtherClusterTypes() {
			if n.GetApiVersion() == t[0] && n.GetKind() == t[1] {
				return true
			}
		}
	}
	return false
}
