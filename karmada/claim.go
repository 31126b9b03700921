// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

import (
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
