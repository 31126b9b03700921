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

// policyUse is what one override policy did over the rendered clusters.
type policyUse struct {
	ref     policy.Ref
	dialect int
	// bound are the rendered clusters it has rules for; applied those
	// where it applied to a resource, and resources the input indexes of
	// those resources.
	bound, applied []string
	resources      map[int]bool
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
		u = &policyUse{ref: ref, dialect: dialect, resources: map[int]bool{}}
		r.uses[key] = u
		r.order = append(r.order, key)
	}
	return u
}

// bind records the override policies with rules for pl's cluster.
func (r *run) bind(pl *plan) {
	for _, b := range pl.overrides {
		u := r.use(b.ref, b.dialect)
		u.bound = append(u.bound, clusterName(pl))
	}
}

// account records which policies applied to the resource at input index
// idx in pl's cluster. A resource an earlier run rendered hides what its
// policies did: the cluster's policies count as applied, so that a second
// run (kpt fn render on its own output) warns about nothing new.
func (r *run) account(pl *plan, idx int, o outcome) {
	name := clusterName(pl)
	if o.prior {
		for _, b := range pl.overrides {
			u := r.use(b.ref, b.dialect)
			if !slices.Contains(u.applied, name) {
				u.applied = append(u.applied, name)
			}
		}
		return
	}
	for _, s := range o.steps {
		u := r.use(*s.Policy, -1)
		u.resources[idx] = true
		if !slices.Contains(u.applied, name) {
			u.applied = append(u.applied, name)
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
// but applied to no resource in any of them, and with explain an info
// result for each one that applied. A policy with rules for none of the
// rendered clusters is not reported: it has nothing to do there, which is
// no mistake (a targetCluster that matches no cluster of the inventory is
// warned about when the policies are bound).
func (r *run) reportPolicies() {
	for _, key := range r.order {
		u := r.uses[key]
		switch {
		case len(u.applied) > 0:
			if r.cfg.Explain {
				r.rl.Results = append(r.rl.Results, policyResult(u, framework.Info,
					fmt.Sprintf("%s: matched %d resource(s) in %d cluster(s)", u.ref, len(u.resources), len(u.applied))))
			}
		case len(u.bound) > 0:
			where := ""
			if names := slices.DeleteFunc(slices.Clone(u.bound), func(s string) bool { return s == "" }); len(names) > 0 {
				where = " for cluster " + strings.Join(names, ", ")
			}
			msg := fmt.Sprintf("%s changed no resource%s", u.ref, where)
			if u.dialect >= 0 {
				if d, ok := Dialects[u.dialect].(unapplied); ok {
					msg += ": " + d.Unapplied(u.ref)
				}
			}
			r.rl.Results = append(r.rl.Results, policyResult(u, framework.Warning, msg))
		}
	}
	r.uses, r.order = nil, nil
}

// policyResult is a result about a policy, pointing at it.
func policyResult(u *policyUse, sev framework.Severity, msg string) *framework.Result {
	res := &framework.Result{Severity: sev, Message: msg, ResourceRef: &yaml.ResourceIdentifier{
		TypeMeta: yaml.TypeMeta{APIVersion: u.ref.APIVersion, Kind: u.ref.Kind},
		NameMeta: yaml.NameMeta{Name: u.ref.Name, Namespace: u.ref.Namespace},
	}}
	if u.ref.File != "" {
		res.File = &framework.File{Path: u.ref.File, Index: u.ref.Index}
	}
	return res
}
