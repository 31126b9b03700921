// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubefleet

import (
	"fmt"
	"sort"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
	"github.com/apply-overrides/apply-overrides/policy"
)

// binding is the KubeFleet objects bound to one cluster: its Set (the
// overrides, in the work generator's order) and its Placer (the
// placements' decisions, and the Delete overrides).
type binding struct {
	plan    *plan
	cluster *policy.Cluster
	// cros and ros are the overrides with a rule for the cluster:
	// ClusterResourceOverrides by name, then ResourceOverrides by
	// namespace and name (pkg/utils/overrider
	// PickFromResourceMatchedOverridesForTargetCluster @78e6ca7), which the
	// work generator applies in that order, so a ResourceOverride wins.
	cros, ros []*bound
	// Overrides are the policies with rules for the cluster.
	Overrides []policy.Ref
}

// bound is an override with the rules that select the cluster.
type bound struct {
	ref   policy.Ref
	o     *override
	rules []boundRule
}

// boundRule is a rule that selects the cluster: Delete, or a JSON patch
// whose values carry the cluster's variables (err: a variable the cluster
// cannot fill, reported when the rule applies to a resource).
type boundRule struct {
	index  int
	delete bool
	patch  yamlpatch.Patch
	err    error
}

func bindCluster(ps *policies, pl *plan, c *policy.Cluster) *binding {
	b := &binding{plan: pl, cluster: c}
	for _, d := range ps.overrides.List {
		bo := &bound{ref: d.Ref, o: d.Policy}
		for i, r := range d.Policy.rules {
			if !clusterMatches(c, r.ClusterSelector) {
				continue
			}
			br := boundRule{index: i, delete: r.OverrideType == typeDelete}
			if !br.delete {
				br.patch, br.err = patchFor(r.JSONPatchOverrides, c)
			}
			bo.rules = append(bo.rules, br)
		}
		if len(bo.rules) == 0 {
			continue
		}
		// A Delete rule changes no resource but matches those it keeps
		// away (policy.Placement.Rule), so it counts too.
		b.Overrides = append(b.Overrides, d.Ref)
		if d.Ref.Kind == KindClusterResourceOverride {
			b.cros = append(b.cros, bo)
		} else {
			b.ros = append(b.ros, bo)
		}
	}
	sort.SliceStable(b.cros, func(i, j int) bool { return b.cros[i].ref.Name < b.cros[j].ref.Name })
	sort.SliceStable(b.ros, func(i, j int) bool {
		if b.ros[i].ref.Namespace == b.ros[j].ref.Namespace {
			return b.ros[i].ref.Name < b.ros[j].ref.Name
		}
		return b.ros[i].ref.Namespace < b.ros[j].ref.Namespace
	})
	return b
}

// clusterMatches is pkg/utils/overrider IsClusterMatched @78e6ca7: a nil
// clusterSelector selects no cluster, one without terms every cluster,
// and the terms' label selectors are ORed (the webhook admits nothing
// else, and validates them).
func clusterMatches(c *policy.Cluster, cs *clusterSelector) bool {
	if cs == nil {
		return false
	}
	if len(cs.ClusterSelectorTerms) == 0 {
		return true
	}
	for _, t := range cs.ClusterSelectorTerms {
		s, err := metav1.LabelSelectorAsSelector(t.LabelSelector.metav1())
		if err == nil && s.Matches(labels.Set(c.Labels)) {
			return true
		}
	}
	return false
}

// selects reports whether the override names res: a
// ClusterResourceOverride names a cluster-scoped resource by group,
// version, kind and name, and a namespaced one through its Namespace; a
// ResourceOverride names a resource of its own namespace.
func (bo *bound) selects(res *policy.Resource) bool {
	group, version := splitAPIVersion(res.APIVersion)
	kind, name := res.Kind, res.Name
	if bo.ref.Kind == KindResourceOverride {
		if res.Namespace == "" || res.Namespace != bo.ref.Namespace {
			return false
		}
	} else if res.Namespace != "" {
		group, version, kind, name = "", "v1", "Namespace", res.Namespace
	}
	for _, s := range bo.o.selectors {
		if s.Group == group && s.Version == version && s.Kind == kind && s.Name == name {
			return true
		}
	}
	return false
}

// boundTo reports whether the override applies to a resource that the
// placements in via send to the cluster: an override bound to a placement
// only to that placement's resources.
func (bo *bound) boundTo(via []string) bool {
	if bo.o.placement == nil {
		return true
	}
	k := bo.o.placement.key(bo.ref.Namespace)
	for _, v := range via {
		if v == k {
			return true
		}
	}
	return false
}

// walk calls fn on each rule that applies to res on the cluster, in
// order, until fn returns false.
func (b *binding) walk(res *policy.Resource, fn func(bo *bound, r boundRule) bool) {
	via := b.plan.via(res, b.cluster.Name)
	if len(via) == 0 && b.plan.places && (b.plan.enforce || b.plan.firstSelecting(resourceKey(res)) != nil) {
		// The cluster does not receive res: upstream's work generator
		// overrides only what a binding delivers, so no rule applies (and
		// none can fail).
		return
	}
	for _, list := range [][]*bound{b.cros, b.ros} {
		for _, bo := range list {
			if !bo.selects(res) || !bo.boundTo(via) {
				continue
			}
			for _, r := range bo.rules {
				if !fn(bo, r) {
					return
				}
			}
		}
	}
}

// Rules is the Set: the JSON patch rules that apply to res, in order. A
// Delete rule the Placer has already acted on ends the list.
func (b *binding) Rules(res *policy.Resource) ([]*policy.Rule, error) {
	var rules []*policy.Rule
	b.walk(res, func(bo *bound, r boundRule) bool {
		if r.delete {
			return false
		}
		rules = append(rules, b.rule(bo, r))
		return true
	})
	return rules, nil
}

func (b *binding) rule(bo *bound, r boundRule) *policy.Rule {
	f := fmt.Sprintf("spec.policy.overrideRules[%d]", r.index)
	return &policy.Rule{Policy: &bo.ref, Field: f, Steps: []policy.Step{{
		Field: f + ".jsonPatchOverrides", Filter: patchFilter{patch: r.patch, err: r.err},
	}}}
}

// patchFilter applies one rule's JSON patch, as evanphx/json-patch v5's
// DecodePatch and Apply do in the work generator (applyJSONPatchOverride).
type patchFilter struct {
	patch yamlpatch.Patch
	err   error
}

var _ yaml.Filter = patchFilter{}

func (f patchFilter) Filter(n *yaml.RNode) (*yaml.RNode, error) {
	if f.err != nil {
		return nil, f.err
	}
	return n, f.patch.Apply(n.YNode())
}

// deleted returns the Delete rule that keeps res from the cluster, if any,
// after running on a copy what the work generator (applyOverrides,
// applyOverrideRules @78e6ca7) still runs: the JSON patches before the
// Delete, so one that fails fails the resource; and, after it, the rules
// of every later override (a Delete ends only its own override's rules),
// which patch the emptied content: evanphx/json-patch leaves empty content
// as it is, but the variables are still substituted and the patch still
// decoded first, so a rule that cannot be (a missing cluster label) fails
// the resource too.
func (b *binding) deleted(res *policy.Resource) (*policy.Rule, error) {
	var run []*policy.Rule
	var del *policy.Rule
	var delBy *bound
	b.walk(res, func(bo *bound, r boundRule) bool {
		switch {
		case del == nil && r.delete:
			del, delBy = &policy.Rule{Policy: &bo.ref, Field: fmt.Sprintf("spec.policy.overrideRules[%d]", r.index)}, bo
		case del == nil:
			run = append(run, b.rule(bo, r))
		case bo != delBy && !r.delete && r.err != nil:
			run = append(run, b.rule(bo, r))
			return false // the first failure is the resource's
		}
		return true
	})
	if del == nil || len(run) == 0 {
		return del, nil
	}
	cp := policy.NewResource(yaml.NewRNode(yaml.CopyYNode(res.Node.YNode())))
	if _, err := policy.Apply(cp, []policy.Set{fixedRules(run)}); err != nil {
		return nil, err
	}
	return del, nil
}

type fixedRules []*policy.Rule

func (f fixedRules) Rules(*policy.Resource) ([]*policy.Rule, error) { return f, nil }

func splitAPIVersion(apiVersion string) (group, version string) {
	for i := 0; i < len(apiVersion); i++ {
		if apiVersion[i] == '/' {
			return apiVersion[:i], apiVersion[i+1:]
		}
	}
	return "", apiVersion
}
