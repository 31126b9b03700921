// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyverno

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/openapi"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/wildcard"
	"github.com/apply-overrides/apply-overrides/kyverno/celkinds"
	"github.com/apply-overrides/apply-overrides/policy"
)

// The API this dialect reads.
const (
	Group   = "kyverno.io"
	Version = "v1"
	// VersionV2beta1 is the other version `kyverno apply` loads
	// ClusterPolicy and Policy in (v2beta1.go).
	VersionV2beta1    = "v2beta1"
	KindClusterPolicy = "ClusterPolicy"
	KindPolicy        = "Policy"
	KindException     = "PolicyException"
	// GroupCELPolicies holds Kyverno's CEL policy kinds.
	GroupCELPolicies = "policies.kyverno.io"
)

// Dialect is the Kyverno dialect: the member cluster's own admission
// policies, applied after the federation overrides.
type Dialect struct{}

// Claims reports whether an object belongs to Kyverno's API group. Kyverno
// objects configure the admission controller and are consumed by the
// render; a ClusterPolicy or Policy of another version, and
// PolicyExceptions (which need a cluster's exception store), are errors
// (ClusterPolicy and Policy are read in kyverno.io/v1 and v2beta1),
// and so is an object that looks like a ClusterPolicy or Policy with its
// apiVersion or kind misspelt (policy.Lookalike.Misspelt).
func (Dialect) Claims(apiVersion, kind string) (bool, error) {
	group, version, _ := strings.Cut(apiVersion, "/")
	if group != Group {
		if err := lookalikes.Misspelt(apiVersion, kind, nil); err != nil {
			return true, err
		}
	}
	if group == GroupCELPolicies {
		if versions := celkinds.Versions(kind); versions != nil {
			if !slices.Contains(versions, version) {
				return true, fmt.Errorf("%s %s is not supported: `kyverno apply` loads %s in %s/%s", apiVersion, kind, kind, GroupCELPolicies, strings.Join(versions, ", "+GroupCELPolicies+"/"))
			}
			return true, nil
		}
		if kind == celkinds.KindPolicyException {
			return true, fmt.Errorf("%s %s is not supported: policy exceptions are not applied offline; remove it from the input or narrow the policy's matchConstraints or matchConditions instead", apiVersion, kind)
		}
		return true, nil // validating, generating, deleting, image policies: they do not mutate
	}
	if group != Group {
		return false, nil
	}
	switch {
	case kind == KindException:
		return true, fmt.Errorf("%s %s is not supported: policy exceptions are not applied offline; remove it from the input or narrow the policy's match instead", apiVersion, kind)
	case (kind == KindClusterPolicy || kind == KindPolicy) && version != Version && version != VersionV2beta1:
		return true, fmt.Errorf("%s %s is not supported: supported versions are %s/%s and %s/%s", apiVersion, kind, Group, Version, Group, VersionV2beta1)
	}
	if err := lookalikes.Misspelt(apiVersion, kind, func(l policy.Lookalike) bool { return kind == l.Kind }); err != nil {
		return true, err // clusterpolicy
	}
	return true, nil
}

// lookalikes are the kinds whose misspellings Claims reports.
var lookalikes = policy.Lookalikes{
	{System: "Kyverno", APIVersion: Group + "/" + Version, Kind: KindClusterPolicy, Name: "kyverno"},
	{System: "Kyverno", APIVersion: Group + "/" + Version, Kind: KindPolicy, Name: "kyverno"},
}

// Observes reports the workload objects the dialect reads besides its own:
// Namespaces, whose labels namespaceSelector matches.
func (Dialect) Observes(apiVersion, kind string) bool {
	return apiVersion == "v1" && kind == "Namespace"
}

// Clusterless reports that the dialect needs no cluster: Kyverno policies
// apply to whatever cluster is rendered, or to the list when none is.
func (Dialect) Clusterless() bool { return true }

// Warm starts loading kyaml's built-in OpenAPI schema in the background
// when the input's text names a Kyverno API version ("kyverno.io/v"):
// Compile needs it for any Kyverno policy, and loading it (about 75 ms)
// while the input is still being split uses a core that would otherwise
// wait. The text is searched on that core too (about 50 ms for 25 MB), so
// the run's critical path pays for neither; an input that only mentions
// the text costs the load there. input must not change afterwards.
func (Dialect) Warm(input []byte) {
	go func() {
		if bytes.Contains(input, []byte(Group+"/v")) {
			openapi.Schema()
		}
	}()
}

// Compile decodes and validates the policies in input order, once per
// input. Namespace objects among objs feed namespaceSelector.
func (Dialect) Compile(objs []*yaml.RNode) (policy.Policies, []error) {
	namespaces := Namespaces{}
	var nsNodes []*yaml.RNode
	for _, obj := range objs {
		if obj.GetApiVersion() == "v1" && obj.GetKind() == "Namespace" {
			namespaces[obj.GetName()] = obj.GetLabels()
			nsNodes = append(nsNodes, obj)
		}
	}
	ix, errs := policy.Decode(objs, policyKey, decodePolicy)
	cel, celErrs := policy.Decode(objs, celKey, decodeCEL)
	errs = append(errs, celErrs...)
	if len(errs) > 0 {
		return nil, errs
	}
	var nsObjects celNamespaces
	if len(cel.List) > 0 {
		nsObjects, errs = readCELNamespaces(nsNodes)
		if len(errs) > 0 {
			return nil, errs
		}
	}
	if len(ix.List) > 0 || len(cel.List) > 0 {
		// Load kyaml's built-in schema now (only runs with policies pay
		// for it): the strategic merge and the namespaced-kind lookups read
		// it from many goroutines afterwards.
		openapi.Schema()
	}
	return policies{ix: ix, cel: cel, namespaces: namespaces, nsObjects: nsObjects}, nil
}

// policyKey names ClusterPolicies and Policies for the duplicate check.
func policyKey(ref policy.Ref) (string, bool) {
	if ref.Kind != KindClusterPolicy && ref.Kind != KindPolicy {
		return "", false
	}
	return ref.Kind + "/" + ref.Namespace + "/" + ref.Name, true
}

// decodePolicy compiles one policy; its error names the field.
func decodePolicy(obj *yaml.RNode, ref policy.Ref) (*compiled, []error) {
	p, inv := compilePolicy(obj, ref)
	if inv == nil {
		return p, nil
	}
	err := inv.err
	if inv.field != "" && !strings.Contains(err.Error(), inv.field) {
		err = fmt.Errorf("%s: %w", inv.field, err)
	}
	return nil, []error{&policy.Error{Policy: ref, Field: inv.field, Err: err}}
}

// policies is the input's valid Kyverno policies and Namespace labels.
type policies struct {
	ix *policy.Index[*compiled]
	// cel holds the MutatingPolicies, which `kyverno apply` runs after
	// every kyverno.io policy (policy_processor.go:190-345).
	cel        *policy.Index[*celPolicy]
	namespaces Namespaces
	// nsObjects are the Namespace objects MutatingPolicies read.
	nsObjects celNamespaces
}

// For returns the Set of the policies the target's admission selection
// runs (every policy without one), with a warning for each rule whose
// result depends on when or where the render runs.
func (ps policies) For(t policy.Target) (policy.Binding, []error) {
	set := &Set{namespaces: ps.namespaces, nsObjects: ps.nsObjects}
	var warnings []error
	var overrides []policy.Ref
	var rules []policy.BoundRule
	for _, d := range ps.ix.List {
		if !selected(t.Admission, d.Ref) {
			continue
		}
		for _, w := range d.Policy.nondeterministic {
			warnings = append(warnings, &policy.Error{Policy: d.Ref, Field: "spec.rules", Err: &policy.Warning{
				Err: fmt.Errorf("%s: the result depends on when or where the render runs, so renders of the same input may differ", w)}})
		}
		set.policies = append(set.policies, d.Policy)
		if len(d.Policy.rules) > 0 {
			// Only a policy with mutate rules can change a resource: one
			// that validates or generates is not expected to.
			overrides = append(overrides, d.Ref)
		}
		for i, src := range d.Policy.sources {
			applyOne := d.Policy.applyOne && i > 0
			rules = append(rules, policy.BoundRule{Policy: d.Ref, Rule: src.field, Name: src.name,
				Hint: func(seen policy.Seen) string { return unmatchedHint(&src.rule, applyOne, seen) }})
		}
	}
	for _, d := range ps.cel.List {
		if !selected(t.Admission, d.Ref) {
			continue
		}
		set.cel = append(set.cel, d.Policy)
		overrides = append(overrides, d.Ref)
		c := d.Policy
		rules = append(rules, policy.BoundRule{Policy: d.Ref, Rule: celRuleField, Name: d.Ref.Name,
			Hint: func(policy.Seen) string { return celHint(c) }})
	}
	if len(set.policies) == 0 && len(set.cel) == 0 {
		return policy.Binding{}, warnings
	}
	return policy.Binding{Sets: []policy.Set{set}, Reinvoke: []policy.Set{Reinvocation{set}}, Overrides: overrides, Rules: rules}, warnings
}

// selected reports whether the cluster runs the policy, as sel says.
func selected(sel *policy.Selection, ref policy.Ref) bool {
	if sel == nil {
		return true
	}
	name := ref.Name
	if ref.Kind == KindPolicy || ref.Kind == celkinds.KindNamespacedMutating {
		name = ref.Namespace + "/" + ref.Name
	}
	matches := func(patterns []string) bool {
		for _, p := range patterns {
			if wildcard.Match(p, name) {
				return true
			}
		}
		return false
	}
	return !matches(sel.Scoped) || matches(sel.Selected)
}

// Namespaces holds the labels of the input's Namespace objects by name.
type Namespaces map[string]map[string]string

// labels returns the labels of obj's namespace; ok is false when the
// input has no such Namespace. A cluster-scoped object has none: its
// namespaceSelector sees an empty label set, as upstream.
func (n Namespaces) labels(obj map[string]any) (map[string]string, bool) {
	meta, _ := obj["metadata"].(map[string]any)
	ns, _ := meta["namespace"].(string)
	if ns == "" && !namespacedKind(obj) {
		return map[string]string{}, true
	}
	l, ok := n[ns]
	if ok && l == nil {
		l = map[string]string{}
	}
	return l, ok
}

// Set applies the cluster's Kyverno policies, each one a rule of the
// neutral model, in input order (as `kyverno apply` does).
type Set struct {
	policies   []*compiled
	cel        []*celPolicy
	namespaces Namespaces
	nsObjects  celNamespaces
}

// Rules returns one rule per policy; the policy's own rules are matched
// inside its step, on the resource as earlier rules left it.
func (s *Set) Rules(res *policy.Resource) ([]*policy.Rule, error) {
	rules := make([]*policy.Rule, 0, len(s.policies)+len(s.cel))
	share := &viewShare{}
	for _, p := range s.policies {
		rules = append(rules, &policy.Rule{Policy: &p.ref, Field: "spec.rules", Steps: []policy.Step{{
			Field:  "spec.rules",
			Filter: policyFilter{p: p, ns: s.namespaces, share: share},
		}}})
	}
	for _, c := range s.cel {
		rules = append(rules, c.rule(s.nsObjects))
	}
	return s.webhookCall(res, rules)
}

// policyFilter runs one policy on a resource.
type policyFilter struct {
	p     *compiled
	ns    Namespaces
	share *viewShare // with the other policies of the same Rules call
}

func (f policyFilter) Filter(n *yaml.RNode) (*yaml.RNode, error) {
	if _, _, _, err := f.p.apply(n, f.ns, f.share); err != nil {
		return nil, err
	}
	return n, nil
}

// FilterCount implements policy.CountingFilter: the rules that changed
// the resource, and whether any patch edited its node.
func (f policyFilter) FilterCount(n *yaml.RNode) (int, bool, error) {
	applied, modified, _, err := f.p.apply(n, f.ns, f.share)
	return applied, modified, err
}

// FilterMatch implements policy.MatchingFilter: FilterCount, and the
// rules of spec.rules that matched the resource (an autogen rule as the
// rule it was generated from).
func (f policyFilter) FilterMatch(n *yaml.RNode) (int, bool, []string, error) {
	return f.p.apply(n, f.ns, f.share)
}

// defaultNamespace gives a namespaced resource without a namespace the
// namespace "default", as `kyverno apply` does when it loads resources. It
// changes the JSON view the rules read, not the resource written out; it
// reports whether it gave one.
func defaultNamespace(obj map[string]any) bool {
	meta, _ := obj["metadata"].(map[string]any)
	if meta == nil {
		return false
	}
	if ns, _ := meta["namespace"].(string); ns == "" && namespacedKind(obj) {
		meta["namespace"] = "default"
		return true
	}
	return false
}

// namespacedKind reports whether the resource's kind is namespaced, per
// kyaml's built-in Kubernetes schema; kinds it does not know (custom
// resources) count as namespaced.
func namespacedKind(obj map[string]any) bool {
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	namespaced, found := openapi.IsNamespaceScoped(yaml.TypeMeta{APIVersion: apiVersion, Kind: kind})
	if found {
		return namespaced
	}
	group, _, _ := strings.Cut(apiVersion, "/")
	return !newerClusterScoped[group+"/"+kind]
}

// newerClusterScoped are built-in cluster-scoped kinds that kyaml's
// Kubernetes 1.21 schema does not know (group/kind).
var newerClusterScoped = map[string]bool{
	"flowcontrol.apiserver.k8s.io/FlowSchema":                       true,
	"flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration":       true,
	"storage.k8s.io/VolumeAttributesClass":                          true,
	"admissionregistration.k8s.io/ValidatingAdmissionPolicy":        true,
	"admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding": true,
	"admissionregistration.k8s.io/MutatingAdmissionPolicy":          true,
	"admissionregistration.k8s.io/MutatingAdmissionPolicyBinding":   true,
	"networking.k8s.io/IPAddress":                                   true,
	"networking.k8s.io/ServiceCIDR":                                 true,
	"resource.k8s.io/DeviceClass":                                   true,
	"resource.k8s.io/ResourceSlice":                                 true,
	"certificates.k8s.io/ClusterTrustBundle":                        true,
	"storagemigration.k8s.io/StorageVersionMigration":               true,
	"internal.apiserver.k8s.io/StorageVersion":                      true,
}

// gvk splits the resource's apiVersion and kind.
func gvk(obj map[string]any) (group, version, kind string) {
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ = obj["kind"].(string)
	group, version, found := strings.Cut(apiVersion, "/")
	if !found {
		group, version = "", apiVersion
	}
	return group, version, kind
}

// Unapplied says why a policy with mutate rules matched no resource.
func (Dialect) Unapplied(ref policy.Ref) string {
	if ref.Kind == celkinds.KindMutatingPolicy || ref.Kind == celkinds.KindNamespacedMutating {
		return celUnapplied(ref)
	}
	if ref.Kind == KindPolicy {
		return "none of its mutate rules matched a resource of the input in namespace " + ref.Namespace + " (a Policy applies only to resources of its own namespace): check the rules' match, exclude and preconditions"
	}
	return "none of its mutate rules matched a resource of the input: check the rules' match, exclude and preconditions"
}
