// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package policy

import (
	"slices"
	"sort"
	"strings"
)

// Binding is what a dialect's policies mean for one target: the Sets that
// override what the cluster receives, and the Placer that says what it
// receives.
type Binding struct {
	Sets []Set
	// Reinvoke are the dialect's Sets for the second pass of a member
	// cluster's admission chain (Reinvocation): they run after every
	// dialect's Sets, in the dialects' order, and decide for each resource
	// from its Reinvocation whether they do anything.
	Reinvoke []Set
	// Placer is nil for a dialect that places nothing (override and
	// admission policies only).
	Placer Placer
	// PlacesWhole is set when the Placer decided from every resource of
	// the input (Target.Resources), e.g. where dependencies follow the
	// workloads that reference them: the run must then hold every resource
	// before it writes any. Otherwise the Placer decides on each resource
	// alone and the run may stream.
	PlacesWhole bool
	// Overrides are the policies that have rules for the target's cluster
	// and can change a resource (a Kyverno policy that only validates
	// cannot): the run warns about those that applied to no resource, most
	// often a selector or label that names nothing of the input. A policy
	// left out has nothing to do in this cluster, which is no mistake.
	Overrides []Ref
	// Rules are the rules of the Overrides that target the cluster: the
	// run warns about those that matched no resource in any rendered
	// cluster while their policy matched some.
	Rules []BoundRule
	// Placements are the placement policies the Placer decides with: the
	// run warns about those that claim no resource (see Claimer).
	Placements []Ref
}

// BoundRule is a rule of an override policy that targets the cluster.
type BoundRule struct {
	Policy Ref
	// Rule is the rule's field inside the policy, as Match.Rule names it:
	// "spec.overrideRules[0]", "spec" (Karmada's deprecated top-level
	// targetCluster and overriders), "spec.rules[1]".
	Rule string
	// Name is the rule's own name, where rules have one (Kyverno).
	Name string
	// Hint says what the rule selects, for the warning about a rule that
	// matched nothing; seen is what the run rendered, for near misses.
	Hint func(seen Seen) string
}

// Seen is what a run rendered: the kinds and names of its resources,
// sorted, each once.
type Seen struct {
	Kinds, Names []string
}

// Claimer is a Placer that says which of its placement policies claims a
// resource (whichever cluster is rendered), and why the others that
// select it do not.
type Claimer interface {
	Claim(res *Resource) Claim
}

// Claim is how a dialect's placement policies contend for one resource.
type Claim struct {
	// By is the policy that claims the resource; nil when none does.
	By *Ref
	// Also are the other policies that claim it too, where a control plane
	// lets several place one resource (KubeFleet: every placement that
	// selects a resource places it).
	Also []Ref
	// Lost are the other policies that select the resource, each with why
	// it does not claim it (e.g. "PropagationPolicy shop/all claims it
	// first: its spec.priority 10 is higher than 0").
	Lost []Lost
}

// Lost is a placement policy that selects a resource but does not claim it.
type Lost struct {
	Policy Ref
	Why    string
}

// Placement is whether the target cluster receives a resource, and with
// how many replicas: the question a render asks of every resource before it
// overrides it (Prepare → Place → Override → Emit).
type Placement struct {
	// Placed is false when the cluster does not receive the resource: the
	// cluster's render leaves it out.
	Placed bool
	// Replicas is the cluster's share of a divided workload; nil when the
	// resource's own count stands (duplicated, or not a workload).
	Replicas *int64
	// Revise writes Replicas into the resource the way the dialect's
	// control plane does (spec.replicas, a Job's parallelism, …), before
	// any override; nil when Replicas is nil.
	Revise Step
	// By is the placement policy that decided; nil when none did.
	By *Ref
	// Rule is the rule of By that decided, when By is an override policy
	// whose rule keeps the resource away (KubeFleet's overrideType
	// Delete), as Match.Rule names it: the rule matched the resource.
	Rule string
	// Reason says why, in a sentence a user can act on (e.g. "cluster
	// member2 is not in spec.placement.clusterAffinity.clusterNames").
	Reason string
}

// Placer decides placement for one target. decided is false when none of
// the dialect's placement policies concerns the resource. Place asks every
// dialect's Placer: the cluster receives a resource when one of them places
// it there, and as it is (Everywhere) when none decides.
type Placer interface {
	Place(res *Resource) (p Placement, decided bool, err error)
}

// Everywhere is the placement of a resource no placement policy concerns:
// every rendered cluster receives it, with its own replica count.
var Everywhere = Placement{Placed: true, Reason: "no placement policy selects it: every rendered cluster receives it"}

// Place asks each Placer in turn: the first that places the resource on the
// cluster wins (control planes place independently, so a cluster receives
// what any of them sends it); when some decided and none placed it, the
// first decision says why; a resource none decides on goes Everywhere.
func Place(res *Resource, placers []Placer) (Placement, error) {
	var left *Placement
	for _, p := range placers {
		pl, decided, err := p.Place(res)
		if err != nil {
			return Placement{}, err
		}
		switch {
		case decided && pl.Placed:
			return pl, nil
		case decided && left == nil:
			left = &pl
		}
	}
	if left != nil {
		return *left, nil
	}
	return Everywhere, nil
}

// Toleration is a core/v1 Toleration, as Karmada's clusterTolerations and
// KubeAdmiral's tolerations spell it.
type Toleration struct {
	Key               string `yaml:"key,omitempty"`
	Operator          string `yaml:"operator,omitempty"`
	Value             string `yaml:"value,omitempty"`
	Effect            string `yaml:"effect,omitempty"`
	TolerationSeconds *int64 `yaml:"tolerationSeconds,omitempty"`
}

// Tolerates is core/v1 Toleration.ToleratesTaint: an empty effect or key
// matches any; Exists ignores the value; "" and Equal compare it, even with
// an empty key; any other operator (Lt, Gt) tolerates nothing.
func (tol Toleration) Tolerates(t Taint) bool {
	if tol.Effect != "" && tol.Effect != t.Effect {
		return false
	}
	if tol.Key != "" && tol.Key != t.Key {
		return false
	}
	switch tol.Operator {
	case "", "Equal":
		return tol.Value == t.Value
	case "Exists":
		return true
	}
	return false
}

// Untolerated is FindMatchingUntoleratedTaint: the first taint with one of
// the effects that no toleration tolerates, or nil.
func Untolerated(taints []Taint, tolerations []Toleration, effects ...string) *Taint {
	for i, t := range taints {
		if !slices.Contains(effects, t.Effect) {
			continue
		}
		if !slices.ContainsFunc(tolerations, func(tol Toleration) bool { return tol.Tolerates(t) }) {
			return &taints[i]
		}
	}
	return nil
}

// Reasons joins why each cluster was left out, by cluster name, for a
// message: "member1: …; member2: …".
func Reasons(why map[string]string) string {
	names := make([]string, 0, len(why))
	for n := range why {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + ": " + why[n]
	}
	return strings.Join(parts, "; ")
}
