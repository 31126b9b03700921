// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyvernogen

import (
	"fmt"
	"slices"
	"strings"
)

// target is what a rule is written for.
type target struct {
	kinds    []string // match kinds
	info     kindInfo // layout the patches use (zero for metaOnly)
	kind     string   // the kind whose layout the patches use
	podRule  bool     // kinds is [Pod]: autogen may expand the rule to pod controllers
	metaOnly bool     // several kinds of different layouts: patches touch metadata only
	res      resource // the resource the rule was drawn for
}

// kindPatterns are the ways a rule may name a kind in match.kinds.
var kindPatterns = map[string][]string{
	"Deployment":  {"Deployment", "Deployment", "apps/v1/Deployment", "v1/Deployment", "Deploy*"},
	"StatefulSet": {"StatefulSet", "StatefulSet", "apps/v1/StatefulSet", "*Set"},
	"DaemonSet":   {"DaemonSet", "DaemonSet", "apps/v1/DaemonSet", "*Set"},
	"CronJob":     {"CronJob", "CronJob", "batch/v1/CronJob", "Cron*"},
	"ConfigMap":   {"ConfigMap", "ConfigMap", "v1/ConfigMap", "Config*"},
	"Service":     {"Service", "Service", "v1/Service", "Serv*"},
	"Widget":      {"Widget", "example.com/v1/Widget", "Wid*"},
}

// rule is one rule being assembled.
type rule struct {
	name          string
	match         string // YAML value of match
	exclude       string // YAML value of exclude, "" for none
	context       string // YAML sequence of context entries, "" for none
	preconditions string // YAML value of preconditions, "" for none
	mutate        string // YAML value of mutate, "" for a validate rule
	validate      string // YAML value of validate, "" for a mutate rule
	podRule       bool   // the rule matches kinds [Pod]
}

// policy renders policy j of the scenario.
func (g *gen) policy(j int) string {
	n := 1 + g.r.IntN(2)
	if g.chance(0.1) {
		n = 3
	}
	kind, meta := "ClusterPolicy", fmt.Sprintf("name: gen-policy-%d\n", j)
	apiVersion := "kyverno.io/v1"
	g.v2beta1 = g.chance(0.3)
	if g.v2beta1 {
		g.feature("v2beta1")
		apiVersion = "kyverno.io/v2beta1"
	}
	validateOnly := g.chance(0.15)
	if validateOnly {
		g.feature("validate-only")
	}
	g.namespaced = g.chance(0.15)
	if g.namespaced {
		g.feature("namespaced-policy")
		kind = "Policy"
		ns := pick(g, g.resources).namespace
		if ns == "" {
			ns = "default"
		}
		meta += "namespace: " + ns + "\n"
	}
	var rules strings.Builder
	podRules := false
	for k := range n {
		var r rule
		if validateOnly {
			r = g.validateRule(k)
		} else {
			r = g.rule(k)
		}
		podRules = podRules || r.podRule
		rules.WriteString(listItem(r.yaml()))
	}
	if podRules && g.chance(0.5) {
		v := pick(g, []string{"none", "Deployment", "Deployment,StatefulSet", "DaemonSet,CronJob", "Deployment,CronJob"})
		g.feature("autogen-controllers:" + v)
		meta += field("annotations", "pod-policies.kyverno.io/autogen-controllers: "+q(v)+"\n")
	}
	spec := ""
	if g.chance(0.4) {
		spec += "background: false\n"
	}
	if n > 1 && g.chance(0.25) {
		g.feature("applyRules-one")
		spec += "applyRules: One\n"
	}
	if validateOnly && g.chance(0.5) {
		// Audit, so that the CLI run with --audit-warn succeeds whether
		// the resources pass or not.
		spec += "validationFailureAction: Audit\n"
	}
	spec += field("rules", rules.String())
	return "apiVersion: " + apiVersion + "\nkind: " + kind + "\n" + field("metadata", meta) + field("spec", spec)
}

// rule draws rule k of a policy.
func (g *gen) rule(k int) rule {
	t := g.target()
	r := rule{podRule: t.podRule}
	r.match = g.match(t)
	if g.chance(0.15) {
		r.exclude = g.exclude(t)
	}
	name := g.mutation(t, &r)
	r.name = fmt.Sprintf("%s-%d", name, k)
	g.feature(name)
	if r.preconditions == "" && g.chance(0.25) {
		r.preconditions = g.preconditions(t)
	}
	return r
}

// yaml renders the rule.
func (r *rule) yaml() string {
	s := "name: " + r.name + "\n" + field("match", r.match)
	if r.exclude != "" {
		s += field("exclude", r.exclude)
	}
	if r.context != "" {
		s += field("context", r.context)
	}
	if r.preconditions != "" {
		s += field("preconditions", r.preconditions)
	}
	if r.validate != "" {
		return s + field("validate", r.validate)
	}
	return s + field("mutate", r.mutate)
}

// validateRule draws rule k of a validate-only policy, which the render
// ignores: a pattern, an anyPattern or a deny rule, in Audit mode.
func (g *gen) validateRule(k int) rule {
	t := g.target()
	r := rule{podRule: t.podRule, match: g.match(t)}
	if g.chance(0.2) {
		r.preconditions = g.preconditions(t)
	}
	switch g.r.IntN(3) {
	case 0:
		r.name = "validate-pattern"
		r.validate = "message: a team label is required\n" + field("pattern", nest("metadata.labels", "team: \"?*\"\n"))
	case 1:
		r.name = "validate-any-pattern"
		r.validate = "message: a team or app label is required\n" +
			field("anyPattern", listItem(nest("metadata.labels", "team: \"?*\"\n"))+listItem(nest("metadata.labels", "app: \"?*\"\n")))
	default:
		r.name = "validate-deny"
		r.validate = "message: not in kube-system\n" + field("deny", field("conditions", field("any",
			cond("{{ request.object.metadata.namespace || '' }}", "Equals", q("kube-system")))))
	}
	if g.chance(0.3) {
		r.validate = "failureAction: Audit\n" + r.validate
	}
	g.feature(r.name)
	r.name = fmt.Sprintf("%s-%d", r.name, k)
	return r
}

// target draws what a rule is written for, from one of the resources so
// that most rules match something.
func (g *gen) target() target {
	res := pick(g, g.resources)
	info := kinds[res.kind]
	var present []string
	for _, r := range g.resources {
		if !slices.Contains(present, r.kind) {
			present = append(present, r.kind)
		}
	}
	switch {
	case len(present) > 1 && g.chance(0.12):
		g.feature("match-several-kinds")
		return target{kinds: sample(g, present, 2), metaOnly: true, res: res}
	case res.kind == "Pod" || (info.podSpec != "" && g.chance(0.3)):
		t := target{kind: "Pod", info: kinds["Pod"], res: res, kinds: []string{"Pod"}, podRule: true}
		if g.chance(0.2) {
			t.kinds, t.podRule = []string{"v1/Pod"}, false
		}
		if t.podRule {
			g.feature("pod-rule")
		}
		return t
	case (res.kind == "Deployment" || res.kind == "StatefulSet") && g.chance(0.15):
		return target{kind: res.kind, info: info, res: res, kinds: []string{"Deployment", "StatefulSet"}}
	}
	return target{kind: res.kind, info: info, res: res, kinds: []string{pick(g, kindPatterns[res.kind])}}
}

// quotedList renders a YAML sequence of quoted strings.
func quotedList(xs []string) string {
	var b strings.Builder
	for _, x := range xs {
		b.WriteString("- " + q(x) + "\n")
	}
	return b.String()
}

// namePattern is a names entry that usually matches name.
func (g *gen) namePattern(name string) string {
	switch x := g.r.IntN(10); {
	case x < 3:
		return name
	case x < 5:
		return name[:2] + "*"
	case x < 6:
		return "*" + name[len(name)-2:]
	case x < 8:
		return "?" + name[1:]
	default:
		return "nomatch-*"
	}
}

// namespacePattern is a namespaces entry that usually matches ns.
func (g *gen) namespacePattern(ns string) string {
	if ns == "" {
		ns = "default"
	}
	switch x := g.r.IntN(8); {
	case x < 3:
		return ns
	case x < 5:
		return ns[:2] + "*"
	case x < 6:
		return ns[:len(ns)-1] + "?"
	default:
		return pick(g, []string{"team-*", "prod", "kube-system"})
	}
}

// filter renders one resources filter of a match block.
func (g *gen) filter(t target, extras bool) string {
	f := field("kinds", quotedList(t.kinds))
	if !extras {
		return f
	}
	if g.chance(0.2) {
		g.feature("match-names")
		f += field("names", quotedList([]string{g.namePattern(t.res.name)}))
	}
	if !g.namespaced && g.chance(0.2) {
		// A namespaced Policy may not filter namespaces.
		g.feature("match-namespaces")
		f += field("namespaces", quotedList([]string{g.namespacePattern(t.res.namespace)}))
	}
	if g.chance(0.12) {
		g.feature("match-selector")
		l := pairs{{"app", t.res.name}}
		if len(t.res.labels) > 0 && g.chance(0.5) {
			l = pairs{pick(g, t.res.labels)}
		}
		if g.chance(0.3) {
			l = pairs{{l[0][0], l[0][1][:1] + "*"}}
		}
		f += field("selector", field("matchLabels", l.yaml()))
	}
	if g.chance(0.08) {
		g.feature("match-annotations")
		a := pairs{{"example.com/owner", "team-*"}}
		if len(t.res.annotations) > 0 && g.chance(0.5) {
			a = pairs{pick(g, t.res.annotations)}
		}
		f += field("annotations", a.yaml())
	}
	return f
}

// match renders a rule's match block: any, all or the inline form.
func (g *gen) match(t target) string {
	switch x := g.r.Float64(); {
	case x < 0.6:
		return field("any", listItem(field("resources", g.filter(t, true))))
	case x < 0.72:
		g.feature("match-any-two-filters")
		other := t
		other.res = pick(g, g.resources)
		return field("any", listItem(field("resources", g.filter(t, true)))+listItem(field("resources", g.filter(other, true))))
	case x < 0.86:
		g.feature("match-all")
		all := listItem(field("resources", g.filter(t, false)))
		if g.chance(0.6) {
			all += listItem(field("resources", g.filter(t, true)))
		}
		return field("all", all)
	case g.v2beta1:
		// v2beta1 has no inline form.
		return field("any", listItem(field("resources", g.filter(t, true))))
	default:
		g.feature("match-inline-resources")
		return field("resources", g.filter(t, true))
	}
}

// exclude renders an exclude block by names or annotations.
func (g *gen) exclude(t target) string {
	var f string
	if g.chance(0.6) {
		g.feature("exclude-names")
		other := pick(g, g.resources)
		f = field("names", quotedList([]string{g.namePattern(other.name)}))
	} else {
		g.feature("exclude-annotations")
		f = field("annotations", pairs{pick(g, annotations)}.yaml())
	}
	if g.chance(0.3) {
		f = field("kinds", quotedList(t.kinds)) + f
	}
	return field("any", listItem(field("resources", f)))
}

// preconditions renders rule preconditions on the resource's labels,
// namespace or replicas.
func (g *gen) preconditions(t target) string {
	cands := []string{
		cond("{{ request.object.metadata.labels.tier || '' }}", "Equals", q("front*")),
		cond("{{ request.object.metadata.labels.env || '' }}", "NotEquals", q("prod")),
		cond("{{ request.object.metadata.labels.app || '' }}", "AnyIn", "["+q(t.res.name)+", \"api*\"]"),
		cond("{{ request.operation }}", "Equals", "CREATE"),
	}
	if !t.podRule {
		// autogen would point these at the pod template's metadata,
		// which has neither: the rule would fail on controllers.
		cands = append(cands,
			cond("{{ request.object.metadata.namespace }}", "AllNotIn", "[\"kube-system\", \"prod*\"]"),
			cond("{{ request.object.metadata.name }}", "NotEquals", q(t.res.name)),
		)
	}
	if ps := t.info.podSpec; ps != "" && !t.metaOnly {
		cands = append(cands,
			cond("{{ length(request.object."+ps+".containers) }}", "GreaterThan", "1"),
			cond("{{ request.object."+ps+".containers[0].resources.requests.memory || '0' }}", "GreaterThanOrEquals", q("128Mi")),
			cond("{{ request.object."+ps+".containers[0].image }}", "Equals", q("*:latest")),
			cond("{{ images.containers.*.tag }}", "AnyIn", `["latest", "1.*"]`),
		)
	}
	if t.info.replicas && !t.podRule {
		cands = append(cands,
			cond("{{ request.object.spec.replicas || `1` }}", "GreaterThan", "1"),
			cond("{{ request.object.spec.replicas }}", "GreaterThan", "2"),
		)
	}
	conds := sample(g, cands, 1+g.r.IntN(2))
	g.feature("preconditions")
	list := strings.Join(conds, "")
	if strings.Contains(list, "images.") {
		g.feature("var-images")
	}
	switch x := g.r.IntN(10); {
	case x < 5:
		return field("all", list)
	case x < 9 || g.v2beta1: // v2beta1 has no plain list
		return field("any", list)
	default:
		g.feature("preconditions-plain-list")
		return list
	}
}

// cond renders one condition as a sequence element.
func cond(key, operator, value string) string {
	return listItem("key: " + q(key) + "\noperator: " + operator + "\nvalue: " + value + "\n")
}
