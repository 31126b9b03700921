// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubefleet

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

// The API groups and kinds this dialect reads, as served by KubeFleet
// v0.3.1 (config/crd/bases @78e6ca7).
const (
	PlacementGroup = "placement.kubernetes-fleet.io"
	ClusterGroup   = "cluster.kubernetes-fleet.io"

	KindClusterResourceOverride  = "ClusterResourceOverride"
	KindResourceOverride         = "ResourceOverride"
	KindClusterResourcePlacement = "ClusterResourcePlacement"
	KindResourcePlacement        = "ResourcePlacement"
	KindMemberCluster            = "MemberCluster"
)

// Upstream is the KubeFleet release this dialect follows.
const Upstream = "kubefleet-dev/kubefleet v0.3.1 (78e6ca76a392731c558791d4321f01d694843c75)"

// served lists the versions each kind is served in.
var served = map[string][]string{
	KindClusterResourceOverride:  {"v1", "v1alpha1", "v1beta1"},
	KindResourceOverride:         {"v1", "v1alpha1", "v1beta1"},
	KindClusterResourcePlacement: {"v1", "v1beta1"},
	KindResourcePlacement:        {"v1", "v1beta1"},
	KindMemberCluster:            {"v1", "v1beta1"},
}

// Dialect is the KubeFleet policy dialect.
type Dialect struct{}

var lookalikes = policy.Lookalikes{
	{System: "KubeFleet", APIVersion: PlacementGroup + "/v1beta1", Kind: KindClusterResourceOverride, Name: "kubefleet"},
	{System: "KubeFleet", APIVersion: PlacementGroup + "/v1beta1", Kind: KindResourceOverride, Name: "kubefleet"},
	{System: "KubeFleet", APIVersion: PlacementGroup + "/v1beta1", Kind: KindClusterResourcePlacement, Name: "kubefleet"},
	{System: "KubeFleet", APIVersion: PlacementGroup + "/v1beta1", Kind: KindResourcePlacement, Name: "kubefleet"},
	{System: "KubeFleet", APIVersion: ClusterGroup + "/v1beta1", Kind: KindMemberCluster, Name: "kubefleet"},
}

// Claims reports whether an object belongs to KubeFleet's hub: anything in
// placement.kubernetes-fleet.io or cluster.kubernetes-fleet.io. A known
// kind in a version KubeFleet does not serve is an error, and so is an
// object that looks like one with its apiVersion or kind misspelt.
func (Dialect) Claims(apiVersion, kind string) (bool, error) {
	group, version, _ := strings.Cut(apiVersion, "/")
	if group != PlacementGroup && group != ClusterGroup {
		if err := lookalikes.Misspelt(apiVersion, kind, nil); err != nil {
			return true, err
		}
		return false, nil
	}
	if versions, ok := served[kind]; ok {
		if !slices.Contains(versions, version) {
			return true, fmt.Errorf("%s %s is not served by KubeFleet: the served versions are %s", apiVersion, kind, strings.Join(versions, ", "))
		}
		return true, nil
	}
	if err := lookalikes.Misspelt(apiVersion, kind, nil); err != nil {
		return true, err
	}
	return true, nil
}

// policies is the input's valid KubeFleet objects.
type policies struct {
	overrides  *policy.Index[*override]
	placements *policy.Index[*placement]
	plan       struct {
		once     sync.Once
		p        *plan
		err      error
		reported sync.Once
	}
	unbound sync.Once
}

// Compile decodes and validates the overrides and placements, once per
// input, with the checks of KubeFleet's admission webhooks across the
// whole input (one override per resource selector).
func (Dialect) Compile(objs []*yaml.RNode) (policy.Policies, []error) {
	ox, errs := policy.Decode(objs, overrideKey, decodeOverride)
	px, perrs := policy.Decode(objs, placementKey, decodePlacement)
	errs = append(errs, perrs...)
	errs = append(errs, checkSelectorLimit(ox)...)
	if len(errs) > 0 {
		return nil, errs
	}
	return &policies{overrides: ox, placements: px}, nil
}

func overrideKey(ref policy.Ref) (string, bool) {
	if !isGroup(ref.APIVersion, PlacementGroup) {
		return "", false
	}
	switch ref.Kind {
	case KindClusterResourceOverride:
		return ref.Kind + "/" + ref.Name, true
	case KindResourceOverride:
		return ref.Kind + "/" + ref.Namespace + "/" + ref.Name, true
	}
	return "", false
}

func placementKey(ref policy.Ref) (string, bool) {
	if !isGroup(ref.APIVersion, PlacementGroup) {
		return "", false
	}
	switch ref.Kind {
	case KindClusterResourcePlacement:
		return ref.Name, true
	case KindResourcePlacement:
		return ref.Namespace + "/" + ref.Name, true
	}
	return "", false
}

func isGroup(apiVersion, group string) bool {
	g, _, _ := strings.Cut(apiVersion, "/")
	return g == group
}

// For binds the overrides to the target's cluster and, when the target
// places, decides once per input which resources every placement selects
// and which clusters it picks. A placement's decision depends on every
// resource of the input (a Namespace carries its contents), so the Placer
// reads them all first (PlacesWhole).
func (ps *policies) For(t policy.Target) (policy.Binding, []error) {
	if t.Cluster == nil {
		return policy.Binding{}, nil
	}
	places := len(ps.placements.List) > 0 && t.Placement != policy.PlacementOff ||
		t.Placement == policy.PlacementEnforce && fleetOf(t.Fleet)
	ps.plan.once.Do(func() {
		ps.plan.p, ps.plan.err = newPlan(ps, t, places)
	})
	if ps.plan.err != nil {
		// The plan is the fleet's, not the cluster's: its error is
		// reported once, by the first cluster's binding, and fails the run.
		var errs []error
		ps.plan.reported.Do(func() { errs = []error{ps.plan.err} })
		return policy.Binding{}, errs
	}
	var warnings []error
	ps.unbound.Do(func() {
		warnings = append(ps.unboundOverrides(places), ps.unmatchedSelectors(t.Fleet)...)
	})
	b := bindCluster(ps, ps.plan.p, t.Cluster)
	if len(ps.overrides.List) == 0 && !places {
		return policy.Binding{Overrides: b.Overrides}, warnings
	}
	out := policy.Binding{Sets: []policy.Set{b}, Placer: b, PlacesWhole: places, Overrides: b.Overrides, Rules: b.boundRules()}
	if places {
		out.Placements = ps.plan.p.placementRefs()
		warnings = append(warnings, ps.plan.p.notes...)
	}
	return out, warnings
}

// unboundOverrides warns about overrides bound to a placement the input
// does not hold: KubeFleet applies them only to that placement's
// resources, so here they apply to nothing.
func (ps *policies) unboundOverrides(places bool) []error {
	var warnings []error
	for _, d := range ps.overrides.List {
		pr := d.Policy.placement
		if pr == nil {
			continue
		}
		if _, ok := ps.placements.Get(pr.key(d.Ref.Namespace)); ok && places {
			continue
		}
		why := "the input holds no such placement"
		if !places {
			why = "placement is off"
		}
		warnings = append(warnings, &policy.Error{Policy: d.Ref, Field: "spec.placement.name", Err: &policy.Warning{
			Err: fmt.Errorf("the override is bound to %s %q and %s, so it applies to no resource: add the placement to the input or remove spec.placement", pr.kind(), pr.Name, why)}})
	}
	return warnings
}

// fleetOf reports whether any cluster of the fleet was read from a
// MemberCluster: under spec.placement enforce a dialect places the fleets
// it describes, and leaves others to their own control plane.
func fleetOf(fleet []*policy.Cluster) bool {
	for _, c := range fleet {
		if c.Source.Kind == KindMemberCluster && isGroup(c.Source.APIVersion, ClusterGroup) {
			return true
		}
	}
	return false
}

// Unapplied says why an override with rules for the rendered clusters
// changed no resource.
func (Dialect) Unapplied(ref policy.Ref) string {
	if ref.Kind == KindResourceOverride {
		return fmt.Sprintf("its resourceSelectors name no resource of namespace %s that a placement sends to the cluster", ref.Namespace)
	}
	return "its clusterResourceSelectors name no cluster-scoped resource or Namespace (whose contents it then selects) that a placement sends to the cluster"
}

// onField is an error on a policy's field, which the message names too.
func onField(ref policy.Ref, path string, err error) *policy.Error {
	return &policy.Error{Policy: ref, Field: path, Err: fmt.Errorf("%s: %w", path, err)}
}
