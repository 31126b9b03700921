// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/apply-overrides/apply-overrides/policy"
)

// The claim metadata Karmada's detector writes on a resource template
// (pkg/detector/claim.go at v1.16.0); a template that carries it (a
// package exported from a live control plane) stays with its policy.
const (
	ppNamespaceAnnotation  = "propagationpolicy.karmada.io/namespace"
	ppNameAnnotation       = "propagationpolicy.karmada.io/name"
	ppPermanentIDLabel     = "propagationpolicy.karmada.io/permanent-id"
	cppNameAnnotation      = "clusterpropagationpolicy.karmada.io/name"
	cppPermanentIDLabel    = "clusterpropagationpolicy.karmada.io/permanent-id"
	claimedByLabel         = "resourcetemplate.karmada.io/claimed-by"
	skipAutoPropagateLabel = "namespace.karmada.io/skip-auto-propagation"
)

// skippedNamespace is the controller manager's default
// --skipped-propagating-namespaces (kube-.*), anchored as the detector
// compiles it.
var skippedNamespace = regexp.MustCompile(`^kube-.*$`)

// reservedNamespace is names.IsReservedNamespace.
func reservedNamespace(ns string) bool {
	return ns == "karmada-system" || ns == "karmada-cluster" || strings.HasPrefix(ns, "karmada-es-")
}

// ignoredTemplate says why the detector never considers a resource, or "".
func ignoredTemplate(res *policy.Resource) string {
	group, _, _ := strings.Cut(res.APIVersion, "/")
	if !strings.Contains(res.APIVersion, "/") {
		group = ""
	}
	switch {
	case reservedNamespace(res.Namespace):
		return "namespace " + res.Namespace + " is reserved for Karmada"
	case skippedNamespace.MatchString(res.Namespace):
		return "namespace " + res.Namespace + " is skipped by --skipped-propagating-namespaces (default kube-.*)"
	case res.Namespace == "kube-system" && res.Kind == "ConfigMap" && res.Name == "extension-apiserver-authentication":
		return "the detector never propagates this ConfigMap"
	case res.Labels[claimedByLabel] != "":
		return "it is claimed by " + res.Labels[claimedByLabel] + " (label " + claimedByLabel + ")"
	case strings.HasSuffix(group, ".karmada.io"), group == "events.k8s.io",
		res.APIVersion == "v1" && res.Kind == "Event", res.APIVersion == "coordination.k8s.io/v1":
		return "the detector skips API group " + res.APIVersion
	}
	return ""
}

// claimer picks the propagation policy of each resource as Karmada's
// resource detector does (pkg/detector/policy.go propagateResource,
// compare.go getHighestPriority*).
type claimer struct {
	pps  map[string][]*propagationPolicy // by namespace
	cpps []*propagationPolicy
	byPP map[string]*propagationPolicy // namespace/name
	// byCPP finds a ClusterPropagationPolicy by name.
	byCPP map[string]*propagationPolicy
	// overrides holds the OverridePolicies ("namespace/name") and
	// ClusterOverridePolicies ("/name") of the input, for dependentOverrides.
	overrides map[string]bool
}

func newClaimer(list []*propagationPolicy, overrides map[string]bool) *claimer {
	c := &claimer{pps: map[string][]*propagationPolicy{}, byPP: map[string]*propagationPolicy{}, byCPP: map[string]*propagationPolicy{}, overrides: overrides}
	for _, p := range list {
		if p.ref.Kind == KindPropagationPolicy {
			c.pps[p.ref.Namespace] = append(c.pps[p.ref.Namespace], p)
			c.byPP[p.ref.Namespace+"/"+p.ref.Name] = p
		} else {
			c.cpps = append(c.cpps, p)
			c.byCPP[p.ref.Name] = p
		}
	}
	return c
}

// claim returns the policy that propagates res, or nil and why none does.
func (c *claimer) claim(res *policy.Resource) (*propagationPolicy, string) {
	if why := ignoredTemplate(res); why != "" {
		return nil, why
	}
	annotations := res.Node.GetAnnotations(ppNamespaceAnnotation, ppNameAnnotation, cppNameAnnotation)
	// A template already claimed keeps its policy while it exists and
	// still selects it; a claim naming a missing policy is dropped and the
	// template matched afresh.
	if ns, name := annotations[ppNamespaceAnnotation], annotations[ppNameAnnotation]; ns != "" && name != "" && res.Labels[ppPermanentIDLabel] != "" {
		if p := c.byPP[ns+"/"+name]; p != nil {
			return c.kept(p, res)
		}
	} else if name := annotations[cppNameAnnotation]; name != "" && res.Labels[cppPermanentIDLabel] != "" {
		if p := c.byCPP[name]; p != nil {
			return c.kept(p, res)
		}
	}
	if res.Namespace != "" {
		if p := highest(c.pps[res.Namespace], res); p != nil {
			return c.ready(p)
		}
	}
	if p := highest(c.cpps, res); p != nil {
		return c.ready(p)
	}
	return nil, "no PropagationPolicy or ClusterPropagationPolicy selects it"
}

// kept is the policy a claimed template stays with: it no longer
// propagates the template when its selectors stopped matching.
func (c *claimer) kept(p *propagationPolicy, res *policy.Resource) (*propagationPolicy, string) {
	if implicitPriority(p, res) == priorityMismatch {
		return nil, p.ref.String() + " claims it (claim metadata), but its resourceSelectors no longer select it"
	}
	return c.ready(p)
}

// ready checks a policy's dependentOverrides: a PropagationPolicy waits
// for missing OverridePolicies of its namespace, a ClusterPropagationPolicy
// for missing ClusterOverridePolicies, and the detector does not fall back
// to another policy meanwhile.
func (c *claimer) ready(p *propagationPolicy) (*propagationPolicy, string) {
	for _, name := range p.dependentOverrides {
		key, kind := "/"+name, KindClusterOverridePolicy
		if p.ref.Kind == KindPropagationPolicy {
			key, kind = p.ref.Namespace+"/"+name, KindOverridePolicy
		}
		if !c.overrides[key] {
			return nil, p.ref.String() + " waits for " + kind + " " + strings.TrimPrefix(key, "/") + " named in spec.dependentOverrides, which the input does not hold"
		}
	}
	return p, ""
}

// implicitPriority is ResourceMatchSelectorsPriority: the best priority of
// the policy's selectors.
func implicitPriority(p *propagationPolicy, res *policy.Resource) int {
	best := priorityMismatch
	for i := range p.selectors {
		best = max(best, p.selectors[i].priority(res))
	}
	return best
}

// highest is getHighestPriorityPropagationPolicy: the higher explicit
// priority wins, then the higher implicit priority, then the smaller name
// (byte-wise); the input order does not matter.
func highest(candidates []*propagationPolicy, res *policy.Resource) *propagationPolicy {
	var best *propagationPolicy
	bestImplicit := priorityMismatch
	for _, p := range candidates {
		implicit := implicitPriority(p, res)
		if implicit == priorityMismatch {
			continue
		}
		switch {
		case best == nil,
			p.priority > best.priority,
			p.priority == best.priority && implicit > bestImplicit,
			p.priority == best.priority && implicit == bestImplicit && p.ref.Name < best.ref.Name:
			best, bestImplicit = p, implicit
		}
	}
	return best
}

// autoPropagatedNamespace reports whether the namespace sync controller
// (pkg/controllers/namespace, on by default) sends a Namespace to every
// cluster, whatever the policies say.
func autoPropagatedNamespace(res *policy.Resource) bool {
	if res.APIVersion != "v1" || res.Kind != "Namespace" {
		return false
	}
	ns := res.Name
	if reservedNamespace(ns) || ns == "default" || skippedNamespace.MatchString(ns) {
		return false
	}
	return !strings.EqualFold(res.Labels[skipAutoPropagateLabel], "true")
}

// contest is how the propagation policies contend for res: the one that
// claims it (claim) and why each other one that selects it does not.
func (c *claimer) contest(res *policy.Resource) policy.Claim {
	var selecting []*propagationPolicy
	if res.Namespace != "" {
		for _, p := range c.pps[res.Namespace] {
			if implicitPriority(p, res) != priorityMismatch {
				selecting = append(selecting, p)
			}
		}
	}
	for _, p := range c.cpps {
		if implicitPriority(p, res) != priorityMismatch {
			selecting = append(selecting, p)
		}
	}
	if len(selecting) == 0 {
		return policy.Claim{}
	}
	var out policy.Claim
	winner, why := c.claim(res)
	if winner != nil {
		out.By = &winner.ref
	}
	first := highest(c.pps[res.Namespace], res)
	if first == nil || res.Namespace == "" {
		first = highest(c.cpps, res)
	}
	for _, p := range selecting {
		if p == winner {
			continue
		}
		var lost string
		switch {
		case ignoredTemplate(res) != "":
			lost = "Karmada's detector ignores it: " + why
		case winner != nil && winner != first:
			lost = winner.ref.String() + " claims it: its claim metadata names that policy, and a claimed template stays with its policy while the policy still selects it"
		case winner != nil:
			lost = precedence(winner, p, res, "claims it first")
		case first != nil && first != p:
			lost = precedence(first, p, res, "comes first") + ", and " + why
		default:
			lost = why
		}
		out.Lost = append(out.Lost, policy.Lost{Policy: p.ref, Why: lost})
	}
	return out
}

// precedence says why w claims res before l (what w does: "claims it
// first"), as highest and claim order them: a PropagationPolicy before any
// ClusterPropagationPolicy, then the higher spec.priority, the more
// precise selector, the smaller name.
func precedence(w, l *propagationPolicy, res *policy.Resource, does string) string {
	wi, li := implicitPriority(w, res), implicitPriority(l, res)
	precise := map[int]string{priorityName: "name", priorityLabelSelector: "labelSelector", priorityMatchAll: "apiVersion and kind alone"}
	var why string
	switch {
	case w.ref.Kind != l.ref.Kind:
		why = "a PropagationPolicy of the resource's namespace takes precedence over every ClusterPropagationPolicy"
	case w.priority != l.priority:
		why = fmt.Sprintf("its spec.priority %d is higher than %d", w.priority, l.priority)
	case wi != li:
		why = fmt.Sprintf("at the same spec.priority, its selector by %s beats one by %s", precise[wi], precise[li])
	default:
		why = "at the same spec.priority and selector precision, the policy whose name sorts first wins"
	}
	return w.ref.String() + " " + does + ": " + why
}
