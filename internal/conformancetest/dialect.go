// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package conformancetest

import (
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
			apiVersion == "core.kubeadmiral.io/v1alpha1" && kind == "FederatedCluster" {
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
		b, errs := policy.CompileFor(d, objs, policy.Target{Cluster: PolicyCluster(c)})
		for _, err := range errs {
			if !policy.IsWarning(err) {
				msgs = append(msgs, err.Error())
			}
		}
		if len(msgs) == 0 {
			for _, n := range resources {
				if _, err := policy.Apply(policy.NewResource(n), b.Sets); err != nil {
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
