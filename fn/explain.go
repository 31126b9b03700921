// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"fmt"
	"slices"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

// unapplied is a Dialect that says why one of its override policies may
// have changed no resource, for the warning that reports it.
type unapplied interface {
	Unapplied(ref policy.Ref) string
}

// unclaimed is a Dialect that says why one of its placement policies may
// select no resource of the input, for the warning that reports it.
type unclaimed interface {
	Unclaimed(ref policy.Ref) string
}

// policyUse is what one override policy did over the rendered clusters.
type policyUse struct {
	ref     policy.Ref
	dialect int
	// bound are the rendered clusters it has rules for; applied those
	// where one of its rules matched a resource, and resources the input
	// indexes of those resources.
	bound, applied []string
	resources      map[int]bool
	// rules are its rules that target a rendered cluster, in the order
	// first bound, by field.
	rules     []*ruleUse
	ruleIndex map[string]*ruleUse
}

// ruleUse is what one rule of an override policy did.
type ruleUse struct {
	rule policy.BoundRule
	// bound are the rendered clusters it targets.
	bound   []string
	matched bool
}

// placementUse is what one placement policy claimed over the run.
type placementUse struct {
	ref     policy.Ref
	dialect int
	claimed bool
	// lost is the first resource it selects that another policy (or none)
	// claims instead, and why; nil when it selected none.
	lost    *policy.Lost
	lostRes string
}

func policyKey(ref policy.Ref) string {
	return ref.APIVersion + "\x00" + ref.Kind + "\x00" + ref.Namespace + "\x00" + ref.Name
}

// clusterName names pl's cluster in messages; "" for a render without one.
func clusterName(pl *plan) string {
	if pl.cluster == nil {
		return ""
	}
	return pl.cluster.Name
}

// use returns ref's entry, creating it.
func (r *run) use(ref policy.Ref, dialect int) *policyUse {
	key := policyKey(ref)
	u := r.uses[key]
	if u == nil {
		if r.uses == nil {
			r.uses = map[string]*policyUse{}
		}
		u = &policyUse{ref: ref, dialect: dialect, resources: map[int]bool{}, ruleIndex: map[string]*ruleUse{}}
		r.uses[key] = u
		r.order = append(r.order, key)
	}
	return u
}

// rule returns the entry of u's rule at field, creating it from br.
func (u *policyUse) rule(br policy.BoundRule) *ruleUse {
	ru := u.ruleIndex[br.Rule]
	if ru == nil {
		ru = &ruleUse{rule: br}
		u.ruleIndex[br.Rule] = ru
		u.rules = append(u.rules, ru)
	}
	return ru
}

// placement returns ref's entry, creating it.
func (r *run) placement(ref policy.Ref, dialect int) *placementUse {
	key := policyKey(ref)
	u := r.placements[key]
	if u == nil {
		if r.placements == nil {
			r.placements = map[string]*placementUse{}
		}
		u = &placementUse{ref: ref, dialect: dialect}
		r.placements[key] = u
		r.placementOrder = append(r.placementOrder, key)
	}
	return u
}

// bind records the override policies and rules that target pl's cluster,
// and the placement policies that decide there.
func (r *run) bind(pl *plan) {
	name := clusterName(pl)
	for _, b := range pl.overrides {
		u := r.use(b.ref, b.dialect)
		u.bound = append(u.bound, name)
	}
	for _, br := range pl.rules {
		ru := r.use(br.Policy, -1).rule(br)
		ru.bound = append(ru.bound, name)
	}
	for _, b := range pl.placements {
		r.placement(b.ref, b.dialect)
	}
}

// leftOutBefore reports whether it is an item that an earlier run of
// this cluster left out and kept (keepPolicies: local configuration
// marked with the cluster), which hides the placement policy that
// claimed it.
func leftOutBefore(pl *plan, it item) bool {
	if !it.local {
		return false
	}
	target := noCluster
	if pl.cluster != nil {
		target = pl.cluster.Name
	}
	return it.node.GetAnnotations(ClusterAnnotation)[ClusterAnnotation] == target
}

// claimedBefore counts pl's placement policies as claiming: an earlier
// run of the cluster placed (or left out) resources that this run cannot
// judge again (KubeAdmiral's labels are gone from what it rendered), so
// that a second run warns about nothing new.
func (r *run) claimedBefore(pl *plan) {
	for _, b := range pl.placements {
		r.placement(b.ref, b.dialect).claimed = true
	}
}

// account records which policies' rules matched the resource at input
// index idx in pl's cluster, and which placement policy claimed it. A
// resource an earlier run rendered hides what its policies did: the
// cluster's policies count as applied and its placement policies as
// claiming, so that a second run (kpt fn render on its own output) warns
// about nothing new.
func (r *run) account(pl *plan, idx int, o outcome) {
	if !o.rendered {
		return
	}
	if r.seenKinds == nil {
		r.seenKinds, r.seenNames = map[string]bool{}, map[string]bool{}
	}
	r.seenKinds[o.ref.Kind] = true
	r.seenNames[o.ref.Name] = true
	name := clusterName(pl)
	mark := func(u *policyUse) {
		if !slices.Contains(u.applied, name) {
			u.applied = append(u.applied, name)
		}
	}
	if o.prior {
		for _, b := range pl.overrides {
			mark(r.use(b.ref, b.dialect))
		}
		for _, br := range pl.rules {
			r.use(br.Policy, -1).rule(br).matched = true
		}
		r.claimedBefore(pl)
		return
	}
	for _, m := range o.matched {
		u := r.use(*m.Policy, -1)
		u.resources[idx] = true
		mark(u)
		if ru := u.ruleIndex[m.Rule]; ru != nil {
			ru.matched = true
		}
	}
	if p := o.left; p != nil && p.By != nil && p.Rule != "" {
		u := r.use(*p.By, -1) // a rule that keeps the resource away matched it
		u.resources[idx] = true
		mark(u)
		if ru := u.ruleIndex[p.Rule]; ru != nil {
			ru.matched = true
		}
	}
	for _, c := range o.claims {
		if c.By != nil {
			r.placement(*c.By, -1).claimed = true
		}
		for _, a := range c.Also {
			r.placement(a, -1).claimed = true
		}
		for _, l := range c.Lost {
			if u := r.placement(l.Policy, -1); u.lost == nil {
				u.lost = &l
				u.lostRes = o.ref.GVKString()
			}
		}
	}
}

// explain is the info results naming, for one resource in pl's cluster,
// each policy step that applied to it and the JSON pointers it changed:
// one result per step, tagged with the policy, rule and field.
func (r *run) explain(pl *plan, n *yaml.RNode, o outcome) []*framework.Result {
	if len(o.steps) == 0 && o.placed == nil {
		return nil
	}
	ref := policy.RefOf(n)
	prefix := ""
	if name := clusterName(pl); name != "" {
		prefix = "cluster " + name + ": "
	}
	var results []*framework.Result
	if p := o.placed; p != nil {
		msg := fmt.Sprintf("%s%s: placed", prefix, ref.GVKString())
		tags := map[string]string{}
		if p.By != nil {
			msg += " by " + p.By.String()
			tags["policy"] = p.By.String()
		}
		if p.Reason != "" {
			msg += " (" + p.Reason + ")"
		}
		if p.Replicas != nil {
			msg += fmt.Sprintf(", with %d replica(s) written to %s", *p.Replicas, p.Revise.Field)
		}
		if pl.cluster != nil {
			tags["cluster"] = pl.cluster.Name
		}
		results = append(results, &framework.Result{
			Severity: framework.Info, Message: msg, Tags: tags,
			ResourceRef: &yaml.ResourceIdentifier{
				TypeMeta: yaml.TypeMeta{APIVersion: ref.APIVersion, Kind: ref.Kind},
				NameMeta: yaml.NameMeta{Name: ref.Name, Namespace: ref.Namespace},
			},
		})
	}
	for _, s := range o.steps {
		field := s.Step
		if field == "" {
			field = s.Rule
		}
		what := "changed nothing"
		if len(s.Changed) > 0 {
			quoted := make([]string, len(s.Changed))
			for i, p := range s.Changed {
				if p == "" {
					p = `""` // the whole document
				}
				quoted[i] = p
			}
			what = "changed " + strings.Join(quoted, ", ")
			if s.More > 0 {
				what += fmt.Sprintf(" and %d more", s.More)
			}
		}
		res := &framework.Result{
			Severity: framework.Info,
			Message:  fmt.Sprintf("%s%s: %s %s %s", prefix, ref.GVKString(), s.Policy.String(), field, what),
			ResourceRef: &yaml.ResourceIdentifier{
				TypeMeta: yaml.TypeMeta{APIVersion: ref.APIVersion, Kind: ref.Kind},
				NameMeta: yaml.NameMeta{Name: ref.Name, Namespace: ref.Namespace},
			},
			Tags: map[string]string{"policy": s.Policy.String(), "policyRule": s.Rule, "policyField": field},
		}
		if pl.cluster != nil {
			res.Tags["cluster"] = pl.cluster.Name
		}
		if s.Policy.File != "" {
			res.Tags[policyFileTag] = s.Policy.File
		}
		if ref.File != "" {
			res.File = &framework.File{Path: ref.File, Index: ref.Index}
		}
		results = append(results, res)
	}
	return results
}

// reportPolicies adds, at the end of a run (every cluster rendered), a
// warning for each override policy that has rules for a rendered cluster
// but matched no resource in any of them, or, when it matched some, for
// each of those rules that matched none; a warning for each placement
// policy that claims no resource; and with explain an info result for
// each override policy that matched. A policy (or rule) with rules for
// none of the rendered clusters is not reported: it has nothing to do
// there, which is no mistake (a targetCluster that matches no cluster of
// the inventory is warned about when the policies are bound).
func (r *run) reportPolicies() {
	seen := r.seenResources()
	for _, key := range r.order {
		u := r.uses[key]
		switch {
		case len(u.applied) > 0:
			if r.cfg.Explain {
				r.rl.Results = append(r.rl.Results, policyResult(u.ref, framework.Info,
					fmt.Sprintf("%s: matched %d resource(s) in %d cluster(s)", u.ref, len(u.resources), len(u.applied))))
			}
			for _, ru := range u.rules {
				if ru.matched || len(ru.bound) == 0 {
					continue
				}
				rule := ru.rule.Rule
				if ru.rule.Name != "" {
					rule += " (" + ru.rule.Name + ")"
				}
				msg := fmt.Sprintf("%s %s matched no resource%s", u.ref, rule, forClusters(ru.bound))
				if ru.rule.Hint != nil {
					msg += ": " + ru.rule.Hint(seen)
				}
				res := policyResult(u.ref, framework.Warning, msg)
				res.Field = &framework.Field{Path: ru.rule.Rule}
				res.Tags = map[string]string{"policy": u.ref.String(), "policyRule": ru.rule.Rule}
				r.rl.Results = append(r.rl.Results, res)
			}
		case len(u.bound) > 0:
			msg := fmt.Sprintf("%s matched no resource%s", u.ref, forClusters(u.bound))
			if u.dialect >= 0 {
				if d, ok := Dialects[u.dialect].(unapplied); ok {
					msg += ": " + d.Unapplied(u.ref)
				}
			}
			r.rl.Results = append(r.rl.Results, policyResult(u.ref, framework.Warning, msg))
		}
	}
	for _, key := range r.placementOrder {
		u := r.placements[key]
		if u.claimed {
			continue
		}
		msg := fmt.Sprintf("%s claims no resource", u.ref)
		switch {
		case u.lost != nil:
			msg += fmt.Sprintf(": it selects %s, but %s", u.lostRes, u.lost.Why)
		case u.dialect >= 0:
			if d, ok := Dialects[u.dialect].(unclaimed); ok {
				msg += ": " + d.Unclaimed(u.ref)
			}
		}
		r.rl.Results = append(r.rl.Results, policyResult(u.ref, framework.Warning, msg))
	}
	r.uses, r.order, r.placements, r.placementOrder = nil, nil, nil, nil
	r.seenKinds, r.seenNames = nil, nil
}

// forClusters is " for cluster a, b" naming the clusters of a render, or
// "" for a render without one.
func forClusters(names []string) string {
	names = slices.DeleteFunc(slices.Clone(names), func(s string) bool { return s == "" })
	if len(names) == 0 {
		return ""
	}
	return " for cluster " + strings.Join(names, ", ")
}

// seenResources is the kinds and names the run rendered, for the hints
// of its warnings.
func (r *run) seenResources() policy.Seen {
	var s policy.Seen
	for k := range r.seenKinds {
		s.Kinds = append(s.Kinds, k)
	}
	for n := range r.seenNames {
		s.Names = append(s.Names, n)
	}
	slices.Sort(s.Kinds)
	slices.Sort(s.Names)
	return s
}

// policyResult is a result about a policy, pointing at it.
func policyResult(ref policy.Ref, sev framework.Severity, msg string) *framework.Result {
	res := &framework.Result{Severity: sev, Message: msg, ResourceRef: &yaml.ResourceIdentifier{
		TypeMeta: yaml.TypeMeta{APIVersion: ref.APIVersion, Kind: ref.Kind},
		NameMeta: yaml.NameMeta{Name: ref.Name, Namespace: ref.Namespace},
	}}
	if ref.File != "" {
		res.File = &framework.File{Path: ref.File, Index: ref.Index}
	}
	return res
}
