// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package gen generates MutatingAdmissionPolicy scenarios, deterministic
// per seed: Namespaces, param ConfigMaps, workloads (Deployments,
// StatefulSets, Pods, Services) and one to three policies of the served
// versions with their bindings, drawing every part of the API the
// function applies offline (see ../../README.md for the list).
package gen

import (
	"fmt"
	"strings"

	"github.com/apply-overrides/apply-overrides/oracle/harness/rl"
	"github.com/apply-overrides/apply-overrides/oracle/harness/scenario"
)

type m = map[string]any

// Namespaces are the scenario's namespaces.
var Namespaces = []string{"team-a", "team-b", "ops"}

// family is what a policy targets: its rules and the paths of its
// containers.
type family struct {
	name       string
	rules      []any  // resourceRules
	containers string // CEL path of the pod spec in Object{...}, "" when none
	replicas   bool
}

var families = []family{
	{name: "workloads", rules: []any{rule("apps", "deployments", "statefulsets")}, containers: "template", replicas: true},
	{name: "deployments", rules: []any{rule("apps", "deployments")}, containers: "template", replicas: true},
	{name: "pods", rules: []any{rule("", "pods")}, containers: "pod"},
	{name: "any", rules: []any{rule("apps", "deployments", "statefulsets"), rule("", "pods", "services")}},
}

func rule(group string, resources ...string) m {
	return m{"apiGroups": scenario.Strs([]string{group}), "apiVersions": scenario.Strs([]string{"v1"}),
		"operations": scenario.Strs([]string{"CREATE"}), "resources": scenario.Strs(resources)}
}

// Generate makes the scenario with this seed.
func Generate(seed uint64) *rl.ResourceList {
	r := scenario.NewRand(seed)
	var items []any
	for _, ns := range Namespaces {
		items = append(items, m{"apiVersion": "v1", "kind": "Namespace", "metadata": m{"name": ns,
			"labels": m{"env": r.Pick([]string{"prod", "dev"}), "team": ns}}})
	}
	// Param ConfigMaps: params-0 in every namespace, params-1 sometimes.
	for _, ns := range Namespaces {
		for i := 0; i < 2; i++ {
			if i == 1 && !r.Chance(0.5) {
				continue
			}
			data := m{"owner": r.Pick([]string{"alice", "bob", "carol"}), "tag": r.Pick([]string{"1.25", "1.27"})}
			if r.Chance(0.15) {
				delete(data, "owner") // an expression reading it fails
			}
			items = append(items, m{"apiVersion": "v1", "kind": "ConfigMap",
				"metadata": m{"name": fmt.Sprintf("params-%d", i), "namespace": ns, "labels": m{"set": r.Pick([]string{"x", "y"})}},
				"data":     data})
		}
	}
	for i, n := 0, r.Between(2, 5); i < n; i++ {
		items = append(items, workload(r, i))
	}
	for i, n := 0, r.Between(1, 3); i < n; i++ {
		items = append(items, policy(r, i)...)
	}
	return scenario.List(seed, items)
}

func workload(r *scenario.Rand, i int) m {
	kind := r.Pick([]string{"Deployment", "Deployment", "StatefulSet", "Pod", "Service"})
	name := fmt.Sprintf("%s-%d", strings.ToLower(kind), i)
	labels := m{"app": name}
	if r.Chance(0.6) {
		labels["tier"] = r.Pick([]string{"web", "db"})
	}
	meta := m{"name": name, "namespace": r.Pick(Namespaces), "labels": labels}
	if r.Chance(0.4) {
		meta["annotations"] = m{"note": "kept"}
	}
	var containers []any
	containers = append(containers, m{"name": "app", "image": "nginx:" + r.Pick([]string{"1.25", "1.27"})})
	if r.Chance(0.4) {
		containers = append(containers, m{"name": "side", "image": "busybox", "args": scenario.Strs([]string{"sleep", "1d"})})
	}
	podSpec := m{"containers": containers}
	switch kind {
	case "Pod":
		return m{"apiVersion": "v1", "kind": kind, "metadata": meta, "spec": podSpec}
	case "Service":
		return m{"apiVersion": "v1", "kind": kind, "metadata": meta, "spec": m{"selector": m{"app": name},
			"ports": []any{m{"name": "http", "port": int64(80), "protocol": "TCP"}}}}
	}
	spec := m{"selector": m{"matchLabels": m{"app": name}},
		"template": m{"metadata": m{"labels": m{"app": name}}, "spec": podSpec}}
	if r.Chance(0.7) {
		spec["replicas"] = int64(r.Between(1, 3))
	}
	if kind == "StatefulSet" {
		spec["serviceName"] = name
	}
	return m{"apiVersion": "apps/v1", "kind": kind, "metadata": meta, "spec": spec}
}

// policy returns a MutatingAdmissionPolicy and its bindings (none, one or
// two).
func policy(r *scenario.Rand, i int) []any {
	name := fmt.Sprintf("map-%d", i)
	version := r.Pick([]string{"v1", "v1", "v1beta1", "v1alpha1"})
	fam := families[r.IntN(len(families))]
	hasParams := r.Chance(0.5)
	constraints := m{"resourceRules": fam.rules}
	if r.Chance(0.3) {
		constraints["excludeResourceRules"] = []any{m{"apiGroups": scenario.Strs([]string{"*"}), "apiVersions": scenario.Strs([]string{"*"}),
			"operations": scenario.Strs([]string{"*"}), "resources": scenario.Strs([]string{"*"}),
			"resourceNames": scenario.Strs([]string{fmt.Sprintf("deployment-%d", r.IntN(3)), fmt.Sprintf("pod-%d", r.IntN(5))})}}
	}
	if r.Chance(0.4) {
		constraints["namespaceSelector"] = m{"matchLabels": m{"env": r.Pick([]string{"prod", "dev"})}}
	}
	if r.Chance(0.4) {
		constraints["objectSelector"] = m{"matchExpressions": []any{m{"key": "tier", "operator": r.Pick([]string{"In", "NotIn", "Exists", "DoesNotExist"}),
			"values": scenario.Strs([]string{r.Pick([]string{"web", "db"})})}}}
		if op := constraints["objectSelector"].(m)["matchExpressions"].([]any)[0].(m); op["operator"] == "Exists" || op["operator"] == "DoesNotExist" {
			delete(op, "values")
		}
	}
	if r.Chance(0.3) {
		constraints["matchPolicy"] = r.Pick([]string{"Exact", "Equivalent"})
	}
	spec := m{"matchConstraints": constraints}
	if hasParams {
		spec["paramKind"] = m{"apiVersion": "v1", "kind": "ConfigMap"}
	}
	if r.Chance(0.4) {
		var conds []any
		for j, n := 0, r.Between(1, 2); j < n; j++ {
			conds = append(conds, m{"name": fmt.Sprintf("cond-%d", j), "expression": r.Pick(matchConditions)})
		}
		spec["matchConditions"] = conds
	}
	var vars []any
	if r.Chance(0.5) {
		vars = append(vars, m{"name": "team", "expression": `"team-" + object.metadata.namespace`})
	}
	if hasParams && r.Chance(0.5) {
		vars = append(vars, m{"name": "owner", "expression": `params.data.owner`})
	}
	if len(vars) > 0 {
		spec["variables"] = vars
	}
	var muts []any
	for j, n := 0, r.Between(1, 3); j < n; j++ {
		muts = append(muts, mutation(r, fam, hasParams, vars))
	}
	spec["mutations"] = muts
	if r.Chance(0.6) {
		spec["failurePolicy"] = r.Pick([]string{"Fail", "Ignore"})
	}
	spec["reinvocationPolicy"] = r.Pick([]string{"Never", "IfNeeded"})
	out := []any{m{"apiVersion": "admissionregistration.k8s.io/" + version, "kind": "MutatingAdmissionPolicy",
		"metadata": m{"name": name}, "spec": spec}}
	nb := r.Between(1, 2)
	if r.Chance(0.1) {
		nb = 0
	}
	for j := 0; j < nb; j++ {
		bspec := m{"policyName": name}
		if hasParams && r.Chance(0.95) {
			ref := m{"parameterNotFoundAction": r.Pick([]string{"Allow", "Deny"})}
			if r.Chance(0.6) {
				ref["name"] = r.Pick([]string{"params-0", "params-1", "missing"})
			} else {
				ref["selector"] = m{"matchLabels": m{"set": r.Pick([]string{"x", "y"})}}
			}
			if r.Chance(0.3) {
				ref["namespace"] = r.Pick(Namespaces)
			}
			bspec["paramRef"] = ref
		}
		if r.Chance(0.3) {
			bspec["matchResources"] = m{"namespaceSelector": m{"matchExpressions": []any{m{"key": "team", "operator": "NotIn", "values": scenario.Strs([]string{r.Pick(Namespaces)})}}}}
		}
		bversion := version
		if r.Chance(0.2) {
			bversion = r.Pick([]string{"v1", "v1beta1", "v1alpha1"})
		}
		out = append(out, m{"apiVersion": "admissionregistration.k8s.io/" + bversion, "kind": "MutatingAdmissionPolicyBinding",
			"metadata": m{"name": fmt.Sprintf("%s-binding-%d", name, j)}, "spec": bspec})
	}
	return out
}

var matchConditions = []string{
	`object.metadata.name != "deployment-0"`,
	`has(object.metadata.labels) && "tier" in object.metadata.labels`,
	`!("note" in object.metadata.?annotations.orValue({}))`,
	`object.metadata.labels["tier"] == "web"`, // fails where there is no tier label
	`request.operation == "CREATE"`,
	`object.metadata.namespace.startsWith("team-")`,
}

func ac(expr string) m {
	return m{"patchType": "ApplyConfiguration", "applyConfiguration": m{"expression": expr}}
}

func jp(expr string) m {
	return m{"patchType": "JSONPatch", "jsonPatch": m{"expression": expr}}
}

// mutation draws one mutation that fits the family's objects.
func mutation(r *scenario.Rand, fam family, hasParams bool, vars []any) m {
	value := `"` + r.Pick([]string{"blue", "green"}) + `"`
	if r.Chance(0.5) {
		switch {
		case hasParams && r.Chance(0.5):
			value = `params.data.owner`
		case len(vars) > 0:
			value = "variables." + vars[r.IntN(len(vars))].(m)["name"].(string)
		}
	}
	key := r.Pick([]string{"color", "owner", "example.com/owner"})
	var choices []func() m
	choices = append(choices,
		func() m {
			return ac(fmt.Sprintf(`Object{metadata: Object.metadata{labels: {%q: %s}}}`, strings.ReplaceAll(key, "/", "-"), value))
		},
		func() m {
			return ac(fmt.Sprintf(`Object{metadata: Object.metadata{annotations: {%q: %s}}}`, key, value))
		},
		func() m {
			// add to the annotations map, which may be absent (then the patch fails)
			return jp(fmt.Sprintf(`[JSONPatch{op: "add", path: "/metadata/annotations/" + jsonpatch.escapeKey(%q), value: %s}]`, key, value))
		},
		func() m {
			return jp(fmt.Sprintf(`has(object.metadata.annotations) ? [JSONPatch{op: "add", path: "/metadata/annotations/%s", value: %s}] : [JSONPatch{op: "add", path: "/metadata/annotations", value: {%q: %s}}]`,
				strings.ReplaceAll(key, "/", "~1"), value, key, value))
		},
		func() m { return jp(`[JSONPatch{op: "remove", path: "/metadata/labels/tier"}]`) }, // fails without a tier label
		func() m {
			return jp(`[JSONPatch{op: "replace", path: "/metadata/labels/app", value: object.metadata.name + "-x"}]`)
		},
		func() m {
			return ac(`Object{metadata: Object.metadata{labels: {"missing": object.metadata.labels["absent"]}}}`)
		}, // fails
	)
	if fam.replicas {
		n := r.Between(2, 5)
		choices = append(choices,
			func() m { return ac(fmt.Sprintf(`Object{spec: Object.spec{replicas: %d}}`, n)) },
			func() m {
				return jp(fmt.Sprintf(`[JSONPatch{op: "add", path: "/spec/replicas", value: %d}]`, n))
			},
		)
	}
	if fam.containers != "" {
		wrap := func(podSpec string) string {
			if fam.containers == "pod" {
				return `Object{spec: ` + podSpec + `}`
			}
			return `Object{spec: Object.spec{template: Object.spec.template{spec: ` + podSpec + `}}}`
		}
		ps := "Object.spec"
		prefix := "/spec"
		if fam.containers != "pod" {
			ps = "Object.spec.template.spec"
			prefix = "/spec/template/spec"
		}
		tag := r.Pick([]string{"1.26", "1.28"})
		if hasParams && r.Chance(0.3) {
			tag = "params.data.tag"
		} else {
			tag = `"` + tag + `"`
		}
		choices = append(choices,
			func() m {
				return ac(wrap(fmt.Sprintf(`%s{containers: [%s.containers{name: "app", image: "nginx:" + %s}]}`, ps, ps, tag)))
			},
			func() m {
				return ac(wrap(fmt.Sprintf(`%s{containers: [%s.containers{name: "side", image: "busybox:1.36"}]}`, ps, ps)))
			},
			func() m {
				return ac(wrap(fmt.Sprintf(`%s{containers: [%s.containers{name: "app", securityContext: %s.containers.securityContext{runAsNonRoot: true, allowPrivilegeEscalation: false}}]}`, ps, ps, ps)))
			},
			func() m {
				return ac(wrap(fmt.Sprintf(`%s{securityContext: %s.securityContext{runAsUser: 1000}}`, ps, ps)))
			},
			func() m {
				// add sets the member: running it twice (two bindings) leaves one
				return jp(fmt.Sprintf(`[JSONPatch{op: "add", path: "%s/containers/0/args", value: ["--log=json"]}]`, prefix))
			},
			func() m {
				return jp(fmt.Sprintf(`[JSONPatch{op: "replace", path: "%s/containers/0/image", value: "nginx:" + %s}]`, prefix, tag))
			},
		)
	}
	return choices[r.IntN(len(choices))]()
}
