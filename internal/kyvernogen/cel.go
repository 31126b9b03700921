// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyvernogen

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// celStream keeps the CEL scenarios' random streams apart from those of
// Generate: CEL scenario i of a seed is not JMESPath scenario i.
const celStream = 0x63656c0000000000

// GenerateCEL returns n scenarios with policies.kyverno.io MutatingPolicies
// (some mixed with a kyverno.io ClusterPolicy or Policy) for seed;
// scenario i depends on seed and i only.
func GenerateCEL(seed uint64, n int) []Scenario { return generate(seed, n, GenerateCELOne) }

// GenerateCELOne returns CEL scenario i of seed: three to six resources,
// the Namespace objects of most of their namespaces and one to three
// MutatingPolicies, with a JMESPath policy among them one time in three.
//
// Every resource has a namespace: the Kyverno CLI gives a namespaced
// resource without one the namespace "default" before the CEL policies
// see it, which a render (as kpt or kustomize gives it) does not.
func GenerateCELOne(seed uint64, i int) Scenario {
	g := &gen{r: rand.New(rand.NewPCG(seed, celStream|uint64(i))), features: map[string]bool{}}
	s := Scenario{Name: fmt.Sprintf("cel-%d-%03d", seed, i)}
	used := map[string]bool{}
	for range 3 + g.r.IntN(4) {
		r := g.newResource(used)
		if r.namespace == "" {
			r.namespace = "default"
		}
		g.resources = append(g.resources, r)
		s.Resources = append(s.Resources, r.yaml())
	}
	s.Namespaces = g.namespaceObjects()
	n := 1 + g.r.IntN(3)
	jmes := -1
	if g.chance(0.33) {
		jmes = g.r.IntN(n + 1)
		g.feature("mixed-jmespath")
		if jmes > 0 {
			g.feature("mixed-jmespath-after-cel")
		}
	}
	for j := range n + 1 {
		if j == jmes {
			s.Policies = append(s.Policies, g.policy(0))
		}
		if j < n {
			s.Policies = append(s.Policies, g.celPolicy(j))
		}
	}
	s.Features = g.sortedFeatures()
	return s
}

// nsLabelChoices are the label sets a generated Namespace may carry
// besides kubernetes.io/metadata.name.
var nsLabelChoices = []pairs{
	{{"env", "prod"}, {"team", "shop"}},
	{{"env", "prod"}},
	{{"env", "staging"}, {"team", "platform"}},
	{{"team", "payments"}},
	nil,
}

// namespaceObjects renders a v1 Namespace for each namespace the resources
// use, leaving one out one time in eight (its namespaceObject is null).
func (g *gen) namespaceObjects() []string {
	var names []string
	for _, r := range g.resources {
		if !slices.Contains(names, r.namespace) {
			names = append(names, r.namespace)
		}
	}
	var out []string
	for _, ns := range names {
		if g.chance(0.125) {
			g.feature("namespace-object-missing")
			continue
		}
		labels := append(pairs{{"kubernetes.io/metadata.name", ns}}, pick(g, nsLabelChoices)...)
		meta := "name: " + ns + "\n" + field("labels", labels.yaml())
		if g.chance(0.3) {
			meta += field("annotations", pairs{{"owner", pick(g, teams)}}.yaml())
		}
		out = append(out, "apiVersion: v1\nkind: Namespace\n"+field("metadata", meta))
	}
	return out
}

// celKind is where a kind is served: its group, version and resource.
type celKind struct{ group, version, resource string }

var celKinds = map[string]celKind{
	"Pod":         {"", "v1", "pods"},
	"Deployment":  {"apps", "v1", "deployments"},
	"StatefulSet": {"apps", "v1", "statefulsets"},
	"DaemonSet":   {"apps", "v1", "daemonsets"},
	"CronJob":     {"batch", "v1", "cronjobs"},
	"ConfigMap":   {"", "v1", "configmaps"},
	"Service":     {"", "v1", "services"},
	"Widget":      {"example.com", "v1", "widgets"},
}

// celTarget is what a MutatingPolicy is written for.
type celTarget struct {
	kind     string   // the kind whose layout the mutations use, "" for metadata only
	podSpec  []string // the path of its pod spec, nil when none
	res      resource // the resource it was drawn for (zero for pods and metadata only)
	pods     bool     // matches pods only: Kyverno generates the pod controller copies
	wildcard bool     // may match a Widget, which has no schema for ApplyConfiguration
}

// celPolicy is one MutatingPolicy being assembled.
type celPolicy struct {
	matchConditions []string // YAML list items
	variables       []string // YAML list items
	varNames        []string
	mutations       []string // YAML list items
	failing         bool     // a mutation or condition is meant to fail
}

// operationChoices are the operations a resource rule may list; the CLI
// sends CREATE.
var operationChoices = [][]string{{"CREATE"}, {"CREATE"}, {"CREATE"}, {"CREATE"}, {"CREATE"}, {"CREATE", "UPDATE"}, {"CREATE", "UPDATE"}, {"*"}, {"*"}, {"CONNECT", "CREATE"}, {"UPDATE"}, {"DELETE"}}

// celPolicy renders MutatingPolicy (or NamespacedMutatingPolicy) j.
func (g *gen) celPolicy(j int) string {
	kind := "MutatingPolicy"
	apiVersion := pick(g, []string{"policies.kyverno.io/v1alpha1", "policies.kyverno.io/v1beta1", "policies.kyverno.io/v1", "policies.kyverno.io/v1"})
	meta := fmt.Sprintf("name: gen-mpol-%d\n", j)
	p := &celPolicy{}
	if g.chance(0.12) {
		// The CLI applies a NamespacedMutatingPolicy to every namespace,
		// and to cluster-scoped resources (the input's Namespaces); a
		// cluster applies it in its own namespace only. The condition
		// makes both the same (has(): a Namespace has no namespace).
		kind = "NamespacedMutatingPolicy"
		apiVersion = pick(g, []string{"policies.kyverno.io/v1beta1", "policies.kyverno.io/v1"})
		ns := pick(g, g.resources).namespace
		meta += "namespace: " + ns + "\n"
		p.matchConditions = append(p.matchConditions, listItem("name: in-policy-namespace\nexpression: "+q("has(object.metadata.namespace) && object.metadata.namespace == '"+ns+"'")+"\n"))
	}
	g.feature(kind + "/" + strings.TrimPrefix(apiVersion, "policies.kyverno.io/"))
	t, constraints := g.celMatch()
	if g.chance(0.4) {
		g.celVariables(t, p)
	}
	if g.chance(0.35) {
		g.celMatchConditions(p)
	}
	for range 1 + g.r.IntN(2) {
		g.celMutation(t, p)
	}
	if !p.failing && g.chance(0.05) {
		g.celFailure(t, p)
	}
	spec := ""
	switch fp := g.r.IntN(10); {
	case fp < 3:
		g.feature("failurePolicy-Fail")
		spec += "failurePolicy: Fail\n"
	case fp < 6 && !p.failing:
		// The CLI reports a failing expression as an error whatever the
		// failure policy: only policies meant to succeed say Ignore.
		g.feature("failurePolicy-Ignore")
		spec += "failurePolicy: Ignore\n"
	}
	spec += field("matchConstraints", constraints)
	if len(p.matchConditions) > 0 {
		spec += field("matchConditions", strings.Join(p.matchConditions, ""))
	}
	if len(p.variables) > 0 {
		spec += field("variables", strings.Join(p.variables, ""))
	}
	if t.pods && g.chance(0.3) {
		v := sample(g, []string{"deployments", "statefulsets", "daemonsets", "cronjobs", "jobs"}, 1+g.r.IntN(2))
		g.feature("autogen-controllers")
		spec += field("autogen", field("podControllers", field("controllers", quotedList(v))))
	}
	spec += field("mutations", strings.Join(p.mutations, ""))
	return "apiVersion: " + apiVersion + "\nkind: " + kind + "\n" + field("metadata", meta) + field("spec", spec)
}

// celMatch draws the target and renders matchConstraints.
func (g *gen) celMatch() (celTarget, string) {
	var t celTarget
	var rules []string
	ops := pick(g, operationChoices)
	if len(ops) == 1 && (ops[0] == "UPDATE" || ops[0] == "DELETE") {
		g.feature("operations-no-create")
	}
	rule := func(groups, versions, resources []string, names ...string) string {
		s := field("apiGroups", quotedList(groups)) + field("apiVersions", quotedList(versions)) +
			field("operations", quotedList(ops)) + field("resources", quotedList(resources))
		if len(names) > 0 {
			s += field("resourceNames", quotedList(names))
		}
		return listItem(s)
	}
	version := func(v string) []string {
		if g.chance(0.25) {
			return []string{"*"}
		}
		return []string{v}
	}
	switch x := g.r.Float64(); {
	case x < 0.55:
		t.res = pick(g, g.resources)
		t.kind = t.res.kind
		if ps := kinds[t.kind].podSpec; ps != "" {
			t.podSpec = strings.Split(ps, ".")
		}
		// A pods rule may be copied to the pod controllers (autogen):
		// draw only what is meant for them too.
		t.pods = t.kind == "Pod"
		k := celKinds[t.kind]
		g.feature("match-kind")
		if g.chance(0.15) {
			g.feature("match-resource-names")
			rules = append(rules, rule([]string{k.group}, version(k.version), []string{k.resource}, t.res.name))
		} else {
			rules = append(rules, rule([]string{k.group}, version(k.version), []string{k.resource}))
		}
	case x < 0.72:
		t.kind, t.pods, t.podSpec = "Pod", true, []string{"spec"}
		g.feature("match-pods-autogen")
		rules = append(rules, rule([]string{""}, []string{"v1"}, []string{"pods"}))
	case x < 0.85:
		g.feature("match-several-kinds")
		ks := sample(g, []string{"Deployment", "ConfigMap", "Service", "StatefulSet", "CronJob", "Pod"}, 2+g.r.IntN(2))
		for _, kind := range ks {
			k := celKinds[kind]
			rules = append(rules, rule([]string{k.group}, []string{k.version}, []string{k.resource}))
		}
	default:
		g.feature("match-wildcard")
		t.wildcard = true
		rules = append(rules, rule([]string{"*"}, []string{"*"}, []string{"*"}))
	}
	s := field("resourceRules", strings.Join(rules, ""))
	if g.chance(0.2) {
		g.feature("namespaceSelector")
		s += field("namespaceSelector", pick(g, []string{
			field("matchLabels", "env: prod\n"),
			field("matchExpressions", listItem("key: team\noperator: In\nvalues: [\"shop\", \"payments\"]\n")),
			field("matchExpressions", listItem("key: env\noperator: NotIn\nvalues: [\"staging\"]\n")),
			field("matchExpressions", listItem("key: kubernetes.io/metadata.name\noperator: In\nvalues: [\""+pick(g, g.resources).namespace+"\"]\n")),
		}))
	}
	if g.chance(0.2) {
		// Only selectors an empty label set fails: the CLI's CREATE
		// request carries an empty (not absent) old object, and the
		// API server's object matcher accepts either, so NotIn and
		// DoesNotExist match every resource there (not in a cluster).
		g.feature("objectSelector")
		s += field("objectSelector", pick(g, []string{
			field("matchLabels", "tier: "+pick(g, tiers)+"\n"),
			field("matchExpressions", listItem("key: app\noperator: Exists\n")),
			field("matchExpressions", listItem("key: env\noperator: In\nvalues: [\"prod\"]\n")),
		}))
	}
	var excludes []string
	if t.wildcard && g.chance(0.85) {
		// Without a schema the CLI cannot apply an ApplyConfiguration to
		// a Widget: leave widgets out most of the time.
		g.feature("exclude-widgets")
		t.wildcard = false
		excludes = append(excludes, rule([]string{"example.com"}, []string{"*"}, []string{"widgets"}))
	}
	if g.chance(0.12) {
		g.feature("excludeResourceRules")
		r := pick(g, g.resources)
		k := celKinds[r.kind]
		if g.chance(0.5) {
			excludes = append(excludes, rule([]string{k.group}, []string{k.version}, []string{k.resource}, r.name))
		} else {
			excludes = append(excludes, rule([]string{""}, []string{"v1"}, []string{"configmaps"}))
		}
	}
	if len(excludes) > 0 {
		s += field("excludeResourceRules", strings.Join(excludes, ""))
	}
	return t, s
}

// celVariables draws one or two variables.
func (g *gen) celVariables(t celTarget, p *celPolicy) {
	choices := [][2]string{
		{"appName", "object.metadata.name"},
		{"team", "object.metadata.?labels.team.orValue('none')"},
		{"nsEnv", "namespaceObject == null ? 'unknown' : namespaceObject.metadata.?labels.env.orValue('none')"},
		{"tier", "has(object.metadata.labels) && 'tier' in object.metadata.labels ? object.metadata.labels['tier'] : 'unset'"},
	}
	if len(t.podSpec) > 0 && !t.pods {
		// Kyverno's autogen rewrites neither variables nor JSONPatch
		// expressions: only the policy's own kinds use their pod spec.
		choices = append(choices, [2]string{"containerCount", "string(size(object." + strings.Join(t.podSpec, ".") + ".containers))"})
	}
	for _, v := range sample(g, choices, 1+g.r.IntN(2)) {
		g.feature("variable-" + v[0])
		p.varNames = append(p.varNames, v[0])
		p.variables = append(p.variables, listItem("name: "+v[0]+"\nexpression: "+q(v[1])+"\n"))
	}
}

// celMatchConditions draws one or two match conditions.
func (g *gen) celMatchConditions(p *celPolicy) {
	choices := [][3]string{
		{"has-tier", "has(object.metadata.labels) && 'tier' in object.metadata.labels", "matchCondition"},
		{"not-web", "object.metadata.name != 'web'", "matchCondition"},
		{"no-owner", "!has(object.metadata.annotations) || !('example.com/owner' in object.metadata.annotations)", "matchCondition"},
		{"not-staging", "namespaceObject == null || namespaceObject.metadata.?labels.env.orValue('') != 'staging'", "matchCondition-namespaceObject"},
		{"create", "request.operation == 'CREATE'", "matchCondition-request"},
		{"always", "true", "matchCondition-true"},
		{"never", "false", "matchCondition-false"},
	}
	if slices.Contains(p.varNames, "team") {
		choices = append(choices, [3]string{"not-payments", "variables.team != 'payments'", "matchCondition-variable"})
	}
	for _, c := range sample(g, choices, 1+g.r.IntN(2)) {
		g.feature(c[2])
		p.matchConditions = append(p.matchConditions, listItem("name: "+c[0]+"\nexpression: "+q(c[1])+"\n"))
	}
}

// applyConfiguration renders a mutation with an ApplyConfiguration
// expression.
func applyConfiguration(expr string) string {
	return listItem("patchType: ApplyConfiguration\n" + field("applyConfiguration", "expression: "+q(expr)+"\n"))
}

// jsonPatchMutation renders a mutation with a JSONPatch expression.
func jsonPatchMutation(expr string) string {
	return listItem("patchType: JSONPatch\n" + field("jsonPatch", "expression: "+q(expr)+"\n"))
}

// objectAt renders Object{a: Object.a{b: Object.a.b{inner}}} for path
// [a b]: an apply configuration setting inner under that path.
func objectAt(path []string, inner string) string {
	s := inner
	for i := len(path) - 1; i >= 0; i-- {
		s = path[i] + ": Object." + strings.Join(path[:i+1], ".") + "{" + s + "}"
	}
	return "Object{" + s + "}"
}

// valueExpr is a CEL string expression for a label or annotation value:
// a literal or one of the policy's variables.
func (g *gen) valueExpr(p *celPolicy) string {
	if len(p.varNames) > 0 && g.chance(0.6) {
		v := pick(g, p.varNames)
		g.feature("mutation-uses-variable")
		// A variable is dyn: a map literal of it and strings does not
		// compile, string() of it does.
		return "string(variables." + v + ")"
	}
	if g.chance(0.3) {
		g.feature("mutation-uses-object")
		return "object.metadata.name + '-' + object.kind"
	}
	return "'" + pick(g, []string{"enabled", "true", "kyverno", "v2"}) + "'"
}

// celMutation draws one mutation for the target.
func (g *gen) celMutation(t celTarget, p *celPolicy) {
	var choices []func()
	metaKey := pick(g, []string{"managed-by", "example.com/mutated", "policy.kyverno.io/cel"})
	choices = append(choices,
		func() {
			g.feature("ac-labels")
			p.mutations = append(p.mutations, applyConfiguration(objectAt([]string{"metadata"}, "labels: {"+q(metaKey)+": "+g.valueExpr(p)+"}")))
		},
		func() {
			g.feature("ac-annotations")
			ns := "namespaceObject == null ? 'none' : namespaceObject.metadata.name"
			p.mutations = append(p.mutations, applyConfiguration(objectAt([]string{"metadata"}, "annotations: {"+q(metaKey)+": "+g.valueExpr(p)+", \"example.com/namespace\": "+ns+"}")))
		},
		func() {
			g.feature("jp-add-label")
			key := q(metaKey)
			p.mutations = append(p.mutations, jsonPatchMutation("has(object.metadata.labels) ? "+
				"[JSONPatch{op: \"add\", path: \"/metadata/labels/\" + jsonpatch.escapeKey("+key+"), value: "+g.valueExpr(p)+"}] : "+
				"[JSONPatch{op: \"add\", path: \"/metadata/labels\", value: {"+key+": \"added\"}}]"))
		},
		func() {
			g.feature("jp-remove-annotation")
			key := pick(g, annotations)[0]
			p.mutations = append(p.mutations, jsonPatchMutation("has(object.metadata.annotations) && "+q(key)+" in object.metadata.annotations ? "+
				"[JSONPatch{op: \"remove\", path: \"/metadata/annotations/\" + jsonpatch.escapeKey("+q(key)+")}] : []"))
		},
	)
	if t.wildcard || t.pods {
		// A Widget may match: JSONPatch only (see celMatch). Kyverno's
		// autogen copies of a pods policy put Object{metadata: ...} under
		// the pod template without renaming its type Object.metadata,
		// which fails on every pod controller.
		choices = choices[2:]
	}
	if len(t.podSpec) > 0 {
		ps := t.podSpec
		obj := "object." + strings.Join(ps, ".")
		cType := "Object." + strings.Join(ps, ".") + ".containers"
		name := pick(g, containerNames)
		if len(t.res.containers) > 0 && g.chance(0.7) {
			name = pick(g, t.res.containers).name
		}
		choices = append(choices,
			func() {
				g.feature("ac-securityContext")
				sc := cType + ".securityContext{runAsNonRoot: true, allowPrivilegeEscalation: false}"
				p.mutations = append(p.mutations, applyConfiguration(objectAt(ps, "containers: ["+cType+"{name: "+q(name)+", securityContext: "+sc+"}]")))
			},
			func() {
				g.feature("ac-containers-map")
				p.mutations = append(p.mutations, applyConfiguration(objectAt(ps, "containers: "+obj+".containers.map(c, "+cType+"{name: c.name, imagePullPolicy: \"IfNotPresent\"})")))
			},
			func() {
				g.feature("ac-container-env")
				p.mutations = append(p.mutations, applyConfiguration(objectAt(ps, "containers: ["+cType+"{name: "+q(name)+", env: ["+cType+".env{name: \"INJECTED\", value: "+g.valueExpr(p)+"}]}]")))
			},
			func() {
				g.feature("ac-sidecar")
				p.mutations = append(p.mutations, applyConfiguration(objectAt(ps, "containers: ["+cType+"{name: \"istio-proxy\", image: \"istio/proxyv2:1.22\"}]")))
			},
		)
		if !t.pods {
			choices = append(choices, func() {
				g.feature("jp-container-env")
				c0 := "/" + strings.Join(ps, "/") + "/containers/0/env"
				p.mutations = append(p.mutations, jsonPatchMutation("has("+obj+".containers[0].env) ? "+
					"[JSONPatch{op: \"add\", path: \""+c0+"/-\", value: {\"name\": \"INJECTED\", \"value\": \"yes\"}}] : "+
					"[JSONPatch{op: \"add\", path: \""+c0+"\", value: [{\"name\": \"INJECTED\", \"value\": \"yes\"}]}]"))
			}, func() {
				g.feature("ac-template-labels")
				meta := append(slices.Clone(ps[:len(ps)-1]), "metadata")
				p.mutations = append(p.mutations, applyConfiguration(objectAt(meta, "labels: {\"injected\": "+g.valueExpr(p)+"}")))
			})
		}
	}
	switch t.kind {
	case "Deployment", "StatefulSet":
		choices = append(choices,
			func() {
				g.feature("ac-replicas")
				p.mutations = append(p.mutations, applyConfiguration("Object{spec: Object.spec{replicas: "+fmt.Sprint(1+g.r.IntN(4))+"}}"))
			},
			func() {
				// The CLI reads the resources' integers as doubles: double +
				// int has no overload, int(x) + 1 works there and in a
				// cluster.
				g.feature("jp-replicas")
				p.mutations = append(p.mutations, jsonPatchMutation("has(object.spec.replicas) ? "+
					"[JSONPatch{op: \"replace\", path: \"/spec/replicas\", value: int(object.spec.replicas) + 1}] : "+
					"[JSONPatch{op: \"add\", path: \"/spec/replicas\", value: 2}]"))
			})
	case "ConfigMap":
		choices = append(choices, func() {
			g.feature("ac-configmap-data")
			p.mutations = append(p.mutations, applyConfiguration("Object{data: {\"policy\": "+g.valueExpr(p)+"}}"))
		})
	case "Widget":
		choices = choices[2:] // no schema: JSONPatch only
		choices = append(choices, func() {
			g.feature("jp-widget-size")
			p.mutations = append(p.mutations, jsonPatchMutation("[JSONPatch{op: \"replace\", path: \"/spec/size\", value: int(object.spec.size) * 2}]"))
		})
	}
	pick(g, choices)()
}

// celFailure adds a mutation or condition that fails on some or all of
// the resources it meets, so that the CLI reports an error.
func (g *gen) celFailure(t celTarget, p *celPolicy) {
	p.failing = true
	switch x := g.r.IntN(4); {
	case x == 0:
		g.feature("fail-no-such-key")
		p.mutations = append(p.mutations, jsonPatchMutation("[JSONPatch{op: \"add\", path: \"/metadata/labels/x\", value: string(object.spec.nope)}]"))
	case x == 1:
		g.feature("fail-missing-path")
		p.mutations = append(p.mutations, jsonPatchMutation("[JSONPatch{op: \"add\", path: \"/metadata/annotations/owner\", value: \"x\"}]"))
	case x == 2:
		g.feature("fail-conversion")
		p.mutations = append(p.mutations, applyConfiguration(objectAt([]string{"metadata"}, "labels: {\"n\": string(int(object.metadata.name))}")))
	case t.kind == "Widget":
		g.feature("fail-applyconfiguration-no-schema")
		p.mutations = append(p.mutations, applyConfiguration(objectAt([]string{"metadata"}, "labels: {\"x\": \"y\"}")))
	default:
		g.feature("fail-matchCondition-error")
		p.matchConditions = append(p.matchConditions, listItem("name: broken\nexpression: "+q("object.metadata.labels['no-such-label'] == 'x'")+"\n"))
	}
}
