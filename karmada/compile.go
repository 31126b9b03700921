// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/decode"
	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
	"github.com/apply-overrides/apply-overrides/overriders"
	"github.com/apply-overrides/apply-overrides/policy"
)

// API groups whose OverridePolicy and ClusterOverridePolicy this dialect reads.
const (
	Group       = "policy.karmada.io"
	GroupACKOne = "policy.one.alibabacloud.com"
	Version     = "v1alpha1"

	KindOverridePolicy        = "OverridePolicy"
	KindClusterOverridePolicy = "ClusterOverridePolicy"
)

// Dialect is the Karmada (and ACK One) policy dialect.
type Dialect struct{}

// lookalikes are the kinds whose misspellings Claims reports: the policy
// kinds of both groups and the inventory's Cluster (read by fn, which
// takes a Cluster of the right apiVersion before any dialect sees it).
var lookalikes = policy.Lookalikes{
	{System: "Karmada", APIVersion: Group + "/" + Version, Kind: KindOverridePolicy, Name: "karmada"},
	{System: "Karmada", APIVersion: Group + "/" + Version, Kind: KindClusterOverridePolicy, Name: "karmada"},
	{System: "ACK One", APIVersion: GroupACKOne + "/" + Version, Kind: KindOverridePolicy, Name: "alibabacloud"},
	{System: "ACK One", APIVersion: GroupACKOne + "/" + Version, Kind: KindClusterOverridePolicy, Name: "alibabacloud"},
	{System: "Karmada", APIVersion: ClusterAPIVersion, Kind: ClusterKind, Name: "karmada"},
}

// Claims reports whether an object is one of this dialect's control-plane
// objects: anything in its API groups (PropagationPolicies included), which
// a member cluster never receives. An override policy of an unknown version
// is an error, and so is an object that looks like a policy or a Cluster
// with its apiVersion or kind misspelt (policy.Lookalike.Misspelt).
func (Dialect) Claims(apiVersion, kind string) (bool, error) {
	group, version, _ := strings.Cut(apiVersion, "/")
	if group != Group && group != GroupACKOne {
		if err := lookalikes.Misspelt(apiVersion, kind, nil); err != nil {
			return true, err
		}
		return false, nil
	}
	if err := lookalikes.Misspelt(apiVersion, kind, func(l policy.Lookalike) bool {
		return kind == l.Kind || !strings.HasPrefix(l.APIVersion, group+"/")
	}); err != nil {
		return true, err
	}
	if (kind == KindOverridePolicy || kind == KindClusterOverridePolicy) && version != Version {
		return true, fmt.Errorf("%s %s is not supported: supported versions are %s/%s and %s/%s",
			apiVersion, kind, Group, Version, GroupACKOne, Version)
	}
	return true, nil
}

// Compile decodes and validates the claimed OverridePolicies and
// ClusterOverridePolicies, once per input. Every invalid policy yields one
// *policy.Error per field error.
func (Dialect) Compile(objs []*yaml.RNode) (policy.Policies, []error) {
	ix, errs := policy.Decode(objs, policyKey, decodePolicy)
	pix, perrs := policy.Decode(objs, propagationKey, decodePropagation)
	if errs = append(errs, perrs...); len(errs) > 0 {
		return nil, errs
	}
	overrides := map[string]bool{}
	for _, d := range ix.List {
		overrides[d.Ref.Namespace+"/"+d.Ref.Name] = true
	}
	ps := &policies{ix: ix, overrides: overrides}
	for _, d := range pix.List {
		ps.propagation = append(ps.propagation, d.Policy)
	}
	return ps, nil
}

// propagationKey names the propagation policies for the duplicate check.
func propagationKey(ref policy.Ref) (string, bool) {
	if ref.Kind != KindPropagationPolicy && ref.Kind != KindClusterPropagationPolicy {
		return "", false
	}
	return ref.Kind + "/" + ref.Namespace + "/" + ref.Name, true
}

// policyKey names the dialect's policies for the duplicate check.
func policyKey(ref policy.Ref) (string, bool) {
	if ref.Kind != KindOverridePolicy && ref.Kind != KindClusterOverridePolicy {
		return "", false
	}
	return ref.Kind + "/" + ref.Namespace + "/" + ref.Name, true
}

// policies is the input's valid Karmada policies.
type policies struct {
	ix          *policy.Index[*decodedPolicy]
	propagation []*propagationPolicy
	// overrides names the OverridePolicies ("namespace/name") and
	// ClusterOverridePolicies ("/name"), for dependentOverrides.
	overrides map[string]bool
	plan      planOnce
	// unmatched reports the rules that target no cluster, once per input.
	unmatched sync.Once
}

// unmatchedTargets warns about the override rules whose targetCluster
// matches no cluster of the inventory: most often a misspelt cluster name
// or label, which would otherwise render silently as "not for this
// cluster". Without an inventory there is nothing to check against.
func (ps *policies) unmatchedTargets(fleet []*policy.Cluster) []error {
	if len(fleet) == 0 {
		return nil
	}
	names := make([]string, len(fleet))
	for i, c := range fleet {
		names[i] = c.Name
	}
	var warnings []error
	for _, d := range ps.ix.List {
		for _, r := range d.Policy.rules {
			if r.target == nil || slices.ContainsFunc(fleet, func(c *policy.Cluster) bool {
				ok, err := clusterMatches(c, r.target)
				return ok || err != nil
			}) {
				continue
			}
			warnings = append(warnings, &policy.Error{Policy: d.Ref, Field: r.path.Child("targetCluster").String(), Err: &policy.Warning{
				Err: fmt.Errorf("%s.targetCluster %s matches no cluster of the inventory (%s), so the rule applies nowhere: check its cluster names and labels", r.path, asJSON(r.target), strings.Join(names, ", "))}})
		}
	}
	return warnings
}

// For returns the Sets for the target's cluster: ClusterOverridePolicies,
// then OverridePolicies, each with the rules that target the cluster; and,
// when the target places (spec.placement enforce, or auto with
// propagation policies in the input), the Placer that says what the
// cluster receives.
func (ps *policies) For(t policy.Target) (policy.Binding, []error) {
	b, errs := ps.overridesFor(t)
	if len(errs) > 0 {
		return b, errs
	}
	ps.unmatched.Do(func() { errs = ps.unmatchedTargets(t.Fleet) })
	places := len(ps.propagation) > 0 && t.Placement != policy.PlacementOff ||
		t.Placement == policy.PlacementEnforce && slices.ContainsFunc(t.Fleet, func(c *policy.Cluster) bool {
			return c.Source.APIVersion == ClusterAPIVersion && c.Source.Kind == ClusterKind
		})
	if !places {
		return b, errs
	}
	c := newClaimer(ps.propagation, ps.overrides)
	var plan *fleetPlan
	if slices.ContainsFunc(ps.propagation, func(p *propagationPolicy) bool { return p.propagateDeps }) {
		// A dependency goes where the workloads that reference it go: the
		// plan reads every resource, and the run must hold them all.
		ps.plan.once.Do(func() { ps.plan.plan, ps.plan.err = planDependencies(c, t.Resources, t.Fleet) })
		if ps.plan.err != nil {
			return policy.Binding{}, []error{ps.plan.err}
		}
		plan, b.PlacesWhole = ps.plan.plan, true
	}
	b.Placer = placer{claimer: c, fleet: t.Fleet, plan: plan, cluster: t.Cluster}
	for _, p := range ps.propagation {
		b.Placements = append(b.Placements, p.ref)
	}
	return b, append(errs, placementNotes(t.Fleet)...)
}

// overridesFor binds the override policies to the target's cluster.
func (ps *policies) overridesFor(t policy.Target) (policy.Binding, []error) {
	cops := newPhase()
	ops := opSet{}
	var errs []error
	var overrides []policy.Ref // the policies with rules for the cluster
	var rules []policy.BoundRule
	for _, d := range ps.ix.List {
		p, ferrs := d.Policy.forCluster(t.Cluster)
		for _, fe := range ferrs {
			errs = append(errs, &policy.Error{Policy: d.Ref, Field: fe.Field, Err: fe})
		}
		if len(ferrs) > 0 || len(p.rules) == 0 {
			continue
		}
		overrides = append(overrides, d.Ref)
		for i := range d.Policy.rules {
			if r := &d.Policy.rules[i]; slices.Contains(p.rules, r.rule) {
				rules = append(rules, policy.BoundRule{Policy: d.Ref, Rule: r.rule.Field, Hint: unplacedHint(r)})
			}
		}
		if d.Ref.Kind == KindClusterOverridePolicy {
			cops.add(p)
		} else {
			ops.phase(d.Ref.Namespace).add(p)
		}
	}
	if len(errs) > 0 {
		return policy.Binding{}, errs
	}
	return policy.Binding{Sets: []policy.Set{cops, ops}, Overrides: overrides, Rules: rules}, nil
}

// unplacedHint says why a rule may match nothing while its policy matches
// resources: every rule of a policy applies to the resources the policy
// selects, in the clusters its targetCluster selects, so placement sent
// none of them there.
func unplacedHint(r *decodedRule) func(policy.Seen) string {
	target := "every cluster (no targetCluster)"
	if r.target != nil {
		target = "the clusters its targetCluster " + string(asJSON(r.target)) + " selects"
	}
	return func(policy.Seen) string {
		return "its policy's resourceSelectors select resources, but placement sends none of them to " + target + ": check the rule's targetCluster against the propagation policies"
	}
}

// decodedPolicy is a valid policy with every rule compiled, whichever
// cluster it targets.
type decodedPolicy struct {
	name      string
	selectors []compiledSelector
	rules     []decodedRule
}

// decodedRule is one override rule (or the deprecated top-level
// targetCluster and overriders) with its steps. errs are the steps'
// errors, reported only when the rule targets the rendered cluster, as
// Karmada only builds the overriders of matching rules.
type decodedRule struct {
	path   *field.Path
	target *clusterAffinity
	rule   *policy.Rule
	errs   field.ErrorList
}

// compiledPolicy is a valid policy with the rules that target the cluster.
type compiledPolicy struct {
	name      string
	selectors []compiledSelector
	rules     []*policy.Rule
}

// forCluster keeps the rules that target c, in order.
func (d *decodedPolicy) forCluster(c *policy.Cluster) (*compiledPolicy, field.ErrorList) {
	p := &compiledPolicy{name: d.name, selectors: d.selectors}
	for i := range d.rules {
		r := &d.rules[i]
		if r.target != nil {
			ok, err := clusterMatches(c, r.target)
			if err != nil {
				return nil, field.ErrorList{field.Invalid(r.path.Child("targetCluster"), asJSON(r.target), err.Error())}
			}
			if !ok {
				continue
			}
		}
		if len(r.errs) > 0 {
			return nil, r.errs
		}
		p.rules = append(p.rules, r.rule)
	}
	return p, nil
}

func decodePolicy(obj *yaml.RNode, ref policy.Ref) (*decodedPolicy, []error) {
	var o object
	errs := decode.Options{CRD: true}.Decode(obj.YNode(), nil, &o)
	errs = append(errs, policy.ValidateMetadata(obj, ref.Kind == KindOverridePolicy)...)
	if ref.Name == "" {
		errs = append(errs, field.Required(field.NewPath("metadata", "name"), ""))
	}
	namespace := ""
	if ref.Kind == KindOverridePolicy {
		namespace = ref.Namespace
		if namespace == "" {
			errs = append(errs, field.Required(field.NewPath("metadata", "namespace"),
				"an OverridePolicy applies only to resources of its own namespace"))
		}
		for i := range o.Spec.ResourceSelectors { // the mutating webhook's defaulting
			if o.Spec.ResourceSelectors[i].Namespace == "" {
				o.Spec.ResourceSelectors[i].Namespace = namespace
			}
		}
	}
	errs = append(errs, normalizeAffinities(&o.Spec, strings.HasPrefix(ref.APIVersion, GroupACKOne+"/"))...)
	spec := field.NewPath("spec")
	errs = append(errs, validateSchema(&o.Spec.Overriders, spec.Child("overriders"))...)
	for i := range o.Spec.OverrideRules {
		errs = append(errs, validateSchema(&o.Spec.OverrideRules[i].Overriders, spec.Child("overrideRules").Index(i).Child("overriders"))...)
	}
	errs = append(errs, validateWebhook(&o.Spec, namespace)...)
	if len(o.Spec.OverrideRules) == 0 {
		errs = append(errs, validateBeyond(&o.Spec.Overriders, spec.Child("overriders"), true)...)
	}
	for i := range o.Spec.OverrideRules {
		errs = append(errs, validateBeyond(&o.Spec.OverrideRules[i].Overriders, spec.Child("overrideRules").Index(i).Child("overriders"), false)...)
	}
	if len(errs) > 0 {
		return nil, policy.FieldErrors(dedupe(errs))
	}

	p := &decodedPolicy{name: ref.Name}
	for _, rs := range o.Spec.ResourceSelectors {
		p.selectors = append(p.selectors, compileSelector(rs))
	}
	rules, rulePath := o.Spec.OverrideRules, func(i int) *field.Path { return spec.Child("overrideRules").Index(i) }
	if len(rules) == 0 {
		rules = []ruleWithCluster{{TargetCluster: o.Spec.TargetCluster, Overriders: o.Spec.Overriders}}
		rulePath = func(int) *field.Path { return spec }
	}
	pref := ref
	for i := range rules {
		rp := rulePath(i)
		steps, ferrs := compileSteps(&rules[i].Overriders, rp.Child("overriders"))
		p.rules = append(p.rules, decodedRule{
			path: rp, target: rules[i].TargetCluster, errs: ferrs,
			rule: &policy.Rule{Policy: &pref, Field: rp.String(), Steps: steps},
		})
	}
	return p, nil
}

// normalizeAffinities folds ACK One's excludeClusters into exclude; in
// Karmada's own group the field does not exist.
func normalizeAffinities(s *overrideSpec, ackOne bool) field.ErrorList {
	errs := foldExclude(s.TargetCluster, field.NewPath("spec", "targetCluster"), ackOne)
	for i := range s.OverrideRules {
		errs = append(errs, foldExclude(s.OverrideRules[i].TargetCluster, field.NewPath("spec", "overrideRules").Index(i).Child("targetCluster"), ackOne)...)
	}
	return errs
}

// foldExclude folds one affinity's ACK One excludeClusters into exclude.
func foldExclude(a *clusterAffinity, p *field.Path, ackOne bool) field.ErrorList {
	if a == nil || a.ExcludeClusters == nil {
		return nil
	}
	if !ackOne {
		return field.ErrorList{field.Forbidden(p.Child("excludeClusters"),
			"unknown field: Karmada spells it \"exclude\" (excludeClusters is ACK One's spelling)")}
	}
	a.Exclude = append(a.Exclude, a.ExcludeClusters...)
	return nil
}

// compileSteps turns overriders into steps in Karmada's fixed order.
func compileSteps(o *overriderSet, p *field.Path) ([]policy.Step, field.ErrorList) {
	var steps []policy.Step
	var errs field.ErrorList
	add := func(path *field.Path, f yaml.Filter) {
		steps = append(steps, policy.Step{Field: path.String(), Filter: f})
	}
	for i, io := range o.ImageOverrider {
		img := overriders.Image{Component: io.Component, Operator: io.Operator, Value: io.Value}
		if io.Predicate != nil {
			path := io.Predicate.Path
			img.Predicate = &path
		}
		add(p.Child("imageOverrider").Index(i), img)
	}
	for i, c := range o.CommandOverrider {
		add(p.Child("commandOverrider").Index(i), overriders.CommandArgs{Field: "command", ContainerName: c.ContainerName, Operator: c.Operator, Value: c.Value})
	}
	for i, c := range o.ArgsOverrider {
		add(p.Child("argsOverrider").Index(i), overriders.CommandArgs{Field: "args", ContainerName: c.ContainerName, Operator: c.Operator, Value: c.Value})
	}
	for _, kind := range []struct {
		field string
		list  []labelAnnotationOverrider
		name  string
	}{{"labels", o.LabelsOverrider, "labelsOverrider"}, {"annotations", o.AnnotationsOverrider, "annotationsOverrider"}} {
		for i, l := range kind.list {
			lp := p.Child(kind.name).Index(i)
			kvs, ferrs := keyValues(l.Value, lp.Child("value"))
			errs = append(errs, ferrs...)
			add(lp, overriders.LabelAnnotation{Field: kind.field, Operator: l.Operator, Value: kvs})
		}
	}
	for i, f := range o.FieldOverrider {
		add(p.Child("fieldOverrider").Index(i), overriders.Field{FieldPath: f.FieldPath, JSON: patchOps(f.JSON), YAML: patchOps(f.YAML)})
	}
	if len(o.Plaintext) > 0 {
		patch := make(yamlpatch.Patch, 0, len(o.Plaintext))
		for _, pt := range o.Plaintext {
			patch = append(patch, yamlpatch.Operation{Op: pt.Operator, Path: pt.Path, Value: valueNode(pt.Value)})
		}
		add(p.Child("plaintext"), overriders.Plaintext{Patch: patch})
	}
	return steps, errs
}

func keyValues(n *yaml.Node, p *field.Path) ([]overriders.KeyValue, field.ErrorList) {
	if _, errs := stringMap(n, p); len(errs) > 0 {
		return nil, errs
	}
	var kvs []overriders.KeyValue
	if yamlnode.IsNull(n) {
		return nil, nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if yamlnode.IsNull(n.Content[i+1]) {
			continue // pruned, as the apiserver does
		}
		kvs = append(kvs, overriders.KeyValue{Key: n.Content[i].Value, Value: n.Content[i+1].Value})
	}
	return kvs, nil
}

func patchOps(ops []patchOperation) []yamlpatch.Operation {
	out := make([]yamlpatch.Operation, 0, len(ops))
	for _, op := range ops {
		out = append(out, yamlpatch.Operation{Op: op.Operator, Path: op.SubPath, Value: valueNode(op.Value)})
	}
	return out
}

// valueNode maps an absent or null JSON value to nil (JSON null).
func valueNode(n *yaml.Node) *yaml.Node {
	if yamlnode.IsNull(n) {
		return nil
	}
	return n
}

// dedupe drops repeated errors, as ErrorList.ToAggregate does.
func dedupe(errs field.ErrorList) field.ErrorList {
	seen := map[string]bool{}
	out := errs[:0]
	for _, e := range errs {
		if !seen[e.Error()] {
			seen[e.Error()] = true
			out = append(out, e)
		}
	}
	return out
}

// Unclaimed says why a propagation policy that selects no resource of the
// input claims none.
func (Dialect) Unclaimed(ref policy.Ref) string {
	if ref.Kind == KindPropagationPolicy {
		return "its resourceSelectors select no resource of the input in namespace " + ref.Namespace + " (a PropagationPolicy selects only resources of its own namespace): check their apiVersion, kind, name and labelSelector"
	}
	return "its resourceSelectors select no resource of the input: check their apiVersion, kind, namespace, name and labelSelector"
}

// Unapplied says why a policy with rules for the rendered clusters changed
// no resource: a Karmada rule applies to every resource its policy selects.
func (Dialect) Unapplied(ref policy.Ref) string {
	if ref.Kind == KindOverridePolicy {
		return "its resourceSelectors select no resource of the input in namespace " + ref.Namespace + " (an OverridePolicy selects only resources of its own namespace): check their apiVersion, kind, name and labelSelector"
	}
	return "its resourceSelectors select no resource of the input: check their apiVersion, kind, namespace, name and labelSelector"
}
