// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubeadmiral

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/decode"
	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/kubeadmiral/overriders"
	"github.com/apply-overrides/apply-overrides/policy"
)

// The API group and kinds this dialect reads.
const (
	Group   = "core.kubeadmiral.io"
	Version = "v1alpha1"

	KindOverridePolicy        = "OverridePolicy"
	KindClusterOverridePolicy = "ClusterOverridePolicy"
	KindFederatedCluster      = "FederatedCluster"
)

// Dialect is the KubeAdmiral policy dialect.
type Dialect struct{}

// lookalikes are the kinds whose misspellings Claims reports: the policy
// kinds and the inventory's FederatedCluster (read by fn, which takes a
// FederatedCluster of the right apiVersion before any dialect sees it).
var lookalikes = policy.Lookalikes{
	{System: "KubeAdmiral", APIVersion: Group + "/" + Version, Kind: KindOverridePolicy, Name: "kubeadmiral"},
	{System: "KubeAdmiral", APIVersion: Group + "/" + Version, Kind: KindClusterOverridePolicy, Name: "kubeadmiral"},
	{System: "KubeAdmiral", APIVersion: Group + "/" + Version, Kind: KindFederatedCluster, Name: "kubeadmiral"},
}

// Claims reports whether an object belongs to KubeAdmiral's control plane:
// anything in core.kubeadmiral.io. An override policy of another version is
// an error, and so is an object that looks like a policy or a
// FederatedCluster with its apiVersion or kind misspelt
// (policy.Lookalike.Misspelt).
func (Dialect) Claims(apiVersion, kind string) (bool, error) {
	group, version, _ := strings.Cut(apiVersion, "/")
	if group != Group {
		if err := lookalikes.Misspelt(apiVersion, kind, nil); err != nil {
			return true, err
		}
		return false, nil
	}
	if (kind == KindOverridePolicy || kind == KindClusterOverridePolicy) && version != Version {
		return true, fmt.Errorf("%s %s is not supported: the supported version is %s/%s", apiVersion, kind, Group, Version)
	}
	if err := lookalikes.Misspelt(apiVersion, kind, nil); err != nil {
		return true, err // a kind spelt in another case, a FederatedCluster of another version
	}
	return true, nil
}

// compiled is a valid policy with the rules that target the cluster, or the
// error matching the cluster raised; it fails the resources bound to it.
type compiled struct {
	ref   policy.Ref
	rules []kaRule
	err   *policy.Error
}

// kaRule is one overrideRule that targets the cluster.
type kaRule struct {
	index      int
	overriders overriders.Rule
}

// Compile decodes and validates the policies, once per input. It runs
// even without policies: a resource naming a missing policy is an error.
func (Dialect) Compile(objs []*yaml.RNode) (policy.Policies, []error) {
	ix, errs := policy.Decode(objs, policyKey, decodePolicy)
	pix, perrs := policy.Decode(objs, propagationKey, decodePropagation)
	if errs = append(errs, perrs...); len(errs) > 0 {
		return nil, errs
	}
	ps := &policies{ix: ix, placements: &placements{pps: map[string]*propagationPolicy{}}}
	for _, d := range pix.List {
		ps.placements.pps[d.Key] = d.Policy
		ps.placements.ordered = append(ps.placements.ordered, d.Policy)
	}
	return ps, nil
}

// policyKey names the policies as resources name them in their labels:
// a ClusterOverridePolicy by name, an OverridePolicy by namespace/name.
func policyKey(ref policy.Ref) (string, bool) {
	switch ref.Kind {
	case KindClusterOverridePolicy:
		return ref.Kind + "/" + ref.Name, true
	case KindOverridePolicy:
		return ref.Kind + "/" + ref.Namespace + "/" + ref.Name, true
	}
	return "", false
}

// policies is the input's valid KubeAdmiral policies.
type policies struct {
	ix         *policy.Index[*decodedPolicy]
	placements *placements
	plan       planOnce
	// unmatched reports the rules that target no cluster, once per input.
	unmatched sync.Once
}

// decodedPolicy is a valid policy's rules, whichever cluster they target.
type decodedPolicy struct {
	rules []overrideRule
	// overriders holds each rule's patch builders; nil for a rule without
	// overriders.
	overriders []*overriders.Rule
}

// For returns the one Set that applies the policies to the resources bound
// to them by label, with the rules that target the target's cluster; and,
// when the target places (spec.placement enforce, or auto with propagation
// policies in the input), the Placer that says what the cluster receives.
// KubeAdmiral's followers go where the workloads naming them go, so the
// placement reads every resource first (PlacesWhole).
func (ps *policies) For(t policy.Target) (policy.Binding, []error) {
	b, errs := ps.overridesFor(t)
	if len(errs) > 0 {
		return b, errs
	}
	ps.unmatched.Do(func() { errs = ps.unmatchedTargets(t.Fleet) })
	places := len(ps.placements.pps) > 0 && t.Placement != policy.PlacementOff ||
		t.Placement == policy.PlacementEnforce && fleetOf(t.Fleet, ClusterAPIVersion, ClusterKind)
	if !places {
		return b, errs
	}
	ps.plan.once.Do(func() {
		ps.placements.fleet = t.Fleet
		ps.plan.err = ps.placements.planFollowers(t.Resources)
	})
	if ps.plan.err != nil {
		return policy.Binding{}, []error{ps.plan.err}
	}
	b.Placer, b.PlacesWhole = placer{ps: ps.placements, cluster: t.Cluster}, true
	for _, p := range ps.placements.ordered {
		b.Placements = append(b.Placements, p.ref)
	}
	return b, append(errs, placementNotes(t.Fleet)...)
}

// unmatchedTargets warns about the override rules whose targetClusters
// match no cluster of the inventory: most often a misspelt cluster name
// or label, which would otherwise render silently. Without an inventory
// there is nothing to check against.
func (ps *policies) unmatchedTargets(fleet []*policy.Cluster) []error {
	if len(fleet) == 0 {
		return nil
	}
	names := make([]string, len(fleet))
	for i, c := range fleet {
		names[i] = c.Name
	}
	var warnings []error
	rules := field.NewPath("spec", "overrideRules")
	for _, d := range ps.ix.List {
		for i, r := range d.Policy.rules {
			if r.TargetClusters == nil || slices.ContainsFunc(fleet, func(c *policy.Cluster) bool {
				ok, err := clusterMatches(c, r.TargetClusters)
				return ok || err != nil
			}) {
				continue
			}
			p := rules.Index(i).Child("targetClusters")
			warnings = append(warnings, &policy.Error{Policy: d.Ref, Field: p.String(), Err: &policy.Warning{
				Err: fmt.Errorf("%s matches no cluster of the inventory (%s), so the rule applies nowhere: check its cluster names and labels", p, strings.Join(names, ", "))}})
		}
	}
	return warnings
}

// overridesFor binds the override policies to the target's cluster.
func (ps *policies) overridesFor(t policy.Target) (policy.Binding, []error) {
	s := &set{cops: map[string]*compiled{}, ops: map[string]*compiled{}}
	var overrides []policy.Ref // the policies with rules for the cluster
	var rules []policy.BoundRule
	for _, d := range ps.ix.List {
		p := d.Policy.forCluster(d.Ref, t.Cluster)
		if len(p.rules) > 0 && p.err == nil {
			overrides = append(overrides, d.Ref)
			for _, r := range p.rules {
				rules = append(rules, policy.BoundRule{Policy: d.Ref, Rule: fmt.Sprintf("spec.overrideRules[%d]", r.index), Hint: unplacedHint(d.Policy.rules[r.index].TargetClusters)})
			}
		}
		if d.Ref.Kind == KindClusterOverridePolicy {
			s.cops[d.Ref.Name] = p
		} else {
			s.ops[d.Ref.Namespace+"/"+d.Ref.Name] = p
		}
	}
	return policy.Binding{Sets: []policy.Set{s}, Overrides: overrides, Rules: rules}, nil
}

// unplacedHint says why a rule may match nothing while its policy matches
// resources: every rule applies to the resources that name the policy,
// in the clusters its targetClusters select, so placement sent none of
// them there.
func unplacedHint(t *targetClusters) func(policy.Seen) string {
	where := "every cluster (no targetClusters)"
	if t != nil {
		var parts []string
		if len(t.Clusters) > 0 {
			parts = append(parts, "clusters "+strings.Join(t.Clusters, ", "))
		}
		if len(t.ClusterSelector) > 0 {
			parts = append(parts, "a clusterSelector")
		}
		if len(t.ClusterAffinity) > 0 {
			parts = append(parts, "a clusterAffinity")
		}
		where = "the clusters its targetClusters select (" + strings.Join(parts, "; ") + ")"
	}
	return func(policy.Seen) string {
		return "resources name its policy in their labels, but placement sends none of them to " + where + ": check the rule's targetClusters against the propagation policies"
	}
}

// forCluster keeps the rules that target c, in order.
func (d *decodedPolicy) forCluster(ref policy.Ref, c *policy.Cluster) *compiled {
	p := &compiled{ref: ref}
	if c == nil {
		return p
	}
	rules := field.NewPath("spec", "overrideRules")
	for i := range d.rules {
		ok, err := clusterMatches(c, d.rules[i].TargetClusters)
		if err != nil {
			// Upstream fails every resource bound to the policy.
			p.err = &policy.Error{Policy: ref, Field: rules.Index(i).Child("targetClusters").String(),
				Err: fmt.Errorf("failed to match cluster %q to policy %q's overrideRules[%d]: %w", c.Name, ref.Name, i, err)}
			break
		}
		if !ok || d.overriders[i] == nil {
			continue
		}
		p.rules = append(p.rules, kaRule{index: i, overriders: *d.overriders[i]})
	}
	return p
}

func decodePolicy(obj *yaml.RNode, ref policy.Ref) (*decodedPolicy, []error) {
	var o object
	errs := decode.Options{CRD: true}.Decode(obj.YNode(), nil, &o)
	errs = append(errs, policy.ValidateMetadata(obj, ref.Kind == KindOverridePolicy)...)
	if ref.Name == "" {
		errs = append(errs, field.Required(field.NewPath("metadata", "name"), ""))
	}
	if ref.Kind == KindOverridePolicy && ref.Namespace == "" {
		errs = append(errs, field.Required(field.NewPath("metadata", "namespace"),
			"an OverridePolicy applies only to resources of its own namespace"))
	}
	rules := field.NewPath("spec", "overrideRules")
	for i := range o.Spec.OverrideRules {
		errs = append(errs, validateRule(&o.Spec.OverrideRules[i], rules.Index(i))...)
	}
	if len(errs) > 0 {
		return nil, policy.FieldErrors(errs)
	}
	d := &decodedPolicy{rules: o.Spec.OverrideRules, overriders: make([]*overriders.Rule, len(o.Spec.OverrideRules))}
	for i, r := range o.Spec.OverrideRules {
		if r.Overriders != nil {
			ov := toOverriders(r.Overriders)
			d.overriders[i] = &ov
		}
	}
	return d, nil
}

// toOverriders turns a rule's overriders into KubeAdmiral's patch builders.
func toOverriders(o *overriderSet) overriders.Rule {
	var out overriders.Rule
	for _, io := range o.Image {
		img := overriders.Image{ContainerNames: io.ContainerNames, ImagePath: io.ImagePath}
		for _, op := range io.Operations {
			img.Operations = append(img.Operations, overriders.ImageOperation{Component: op.ImageComponent, Operator: op.Operator, Value: op.Value})
		}
		out.Image = append(out.Image, img)
	}
	for _, x := range o.Command {
		out.Command = append(out.Command, overriders.Entrypoint{ContainerName: x.ContainerName, Operator: x.Operator, Value: x.Value})
	}
	for _, x := range o.Args {
		out.Args = append(out.Args, overriders.Entrypoint{ContainerName: x.ContainerName, Operator: x.Operator, Value: x.Value})
	}
	for _, x := range o.Envs {
		out.Envs = append(out.Envs, overriders.Env{ContainerName: x.ContainerName, Operator: x.Operator, Value: x.Value})
	}
	for _, x := range o.Annotations {
		out.Annotations = append(out.Annotations, overriders.StringMap{Operator: x.Operator, Value: keyValues(x.Value)})
	}
	for _, x := range o.Labels {
		out.Labels = append(out.Labels, overriders.StringMap{Operator: x.Operator, Value: keyValues(x.Value)})
	}
	for _, x := range o.JSONPatch {
		v := x.Value
		if yamlnode.IsNull(v) {
			v = nil
		}
		out.JSONPatch = append(out.JSONPatch, overriders.JSONPatch{Operator: x.Operator, Path: x.Path, Value: v})
	}
	return out
}

// keyValues reads a validated map[string]string node in order.
func keyValues(n *yaml.Node) []overriders.KeyValue {
	var kvs []overriders.KeyValue
	if yamlnode.IsNull(n) {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if yamlnode.IsNull(n.Content[i+1]) {
			continue // pruned, as the apiserver does
		}
		kvs = append(kvs, overriders.KeyValue{Key: n.Content[i].Value, Value: n.Content[i+1].Value})
	}
	return kvs
}

// fleetOf reports whether any cluster of the fleet was read from an object
// of this apiVersion and kind: under spec.placement enforce a dialect places
// the fleets it describes, and leaves others to their own control plane.
func fleetOf(fleet []*policy.Cluster, apiVersion, kind string) bool {
	for _, c := range fleet {
		if c.Source.APIVersion == apiVersion && c.Source.Kind == kind {
			return true
		}
	}
	return false
}

// Unclaimed says why a propagation policy no resource of the input names
// claims none.
func (Dialect) Unclaimed(ref policy.Ref) string {
	if ref.Kind == KindPropagationPolicy {
		return fmt.Sprintf("no resource of the input in namespace %s names it in its %s label", ref.Namespace, PropagationPolicyLabel)
	}
	return fmt.Sprintf("no resource of the input names it in its %s label", ClusterPropagationPolicyLabel)
}

// Unapplied says why a policy with rules for the rendered clusters changed
// no resource: KubeAdmiral binds a federated resource to the policies its
// labels name.
func (Dialect) Unapplied(ref policy.Ref) string {
	if ref.Kind == KindOverridePolicy {
		return fmt.Sprintf("no federated resource of the input in namespace %s names it in its %s label", ref.Namespace, OverridePolicyLabel)
	}
	return fmt.Sprintf("no federated resource of the input names it in its %s label", ClusterOverridePolicyLabel)
}
