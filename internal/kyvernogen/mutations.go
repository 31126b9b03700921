// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyvernogen

import (
	"strings"
)

// mutation fills r.mutate (and r.context or r.preconditions when the
// template needs them) with a template suited to t, and returns the
// template's name.
func (g *gen) mutation(t target, r *rule) string {
	type tmpl struct {
		name   string
		weight int
		fill   func(target, *rule)
	}
	var ts []tmpl
	switch {
	case t.metaOnly:
		ts = []tmpl{
			{"smp-labels", 4, g.smpLabels},
			{"jsonpatch", 3, g.jsonPatch},
		}
	case t.kind == "Service":
		ts = []tmpl{
			{"smp-labels", 3, g.smpLabels},
			{"smp-service-ports", 3, g.smpServicePorts},
			{"jsonpatch", 3, g.jsonPatch},
		}
	case t.kind == "Widget":
		ts = []tmpl{
			{"smp-labels", 2, g.smpLabels},
			{"smp-widget-items", 3, g.smpWidgetItems},
			{"jsonpatch", 3, g.jsonPatch},
		}
	case t.kind == "ConfigMap":
		ts = []tmpl{
			{"smp-labels", 2, g.smpLabels},
			{"smp-data", 3, g.smpData},
			{"jsonpatch", 3, g.jsonPatch},
		}
	default:
		ts = []tmpl{
			{"smp-labels", 3, g.smpLabels},
			{"smp-container-condition", 3, g.smpContainerCondition},
			{"smp-add-if-not-present", 3, g.smpAddIfNotPresent},
			{"smp-global-anchor", 2, g.smpGlobal},
			{"smp-patch-delete", 1, g.smpDelete},
			{"smp-null", 1, g.smpNull},
			{"smp-volume", 2, g.smpVolume},
			{"smp-container-ports", 1, g.smpContainerPorts},
			{"smp-patch-replace", 1, g.smpReplace},
			{"jsonpatch", 3, g.jsonPatch},
			{"foreach-smp", 3, g.foreachSMP},
			{"foreach-jsonpatch", 2, g.foreachJSONPatch},
		}
	}
	total := 0
	for _, t := range ts {
		total += t.weight
	}
	x := g.r.IntN(total)
	for _, tm := range ts {
		if x < tm.weight {
			tm.fill(t, r)
			return tm.name
		}
		x -= tm.weight
	}
	return ""
}

// smp wraps a patch in patchStrategicMerge.
func smp(patch string) string { return field("patchStrategicMerge", patch) }

// labelValue draws the value of a label the rule writes: a literal, the
// resource's name or a context variable.
func (g *gen) labelValue(t target, r *rule) string {
	pVar := 0.2
	if t.podRule {
		// autogen points request.object.metadata at the pod template,
		// which has no name: mostly avoid the (upstream) failure.
		pVar = 0.08
	}
	switch x := g.r.Float64(); {
	case x < pVar:
		g.feature("var-request-object-name")
		return pick(g, []string{
			"{{request.object.metadata.name}}",
			"{{ to_upper(request.object.metadata.name) }}",
			"{{ split(request.object.metadata.name, 'e')[0] }}",
			"{{ truncate(request.object.metadata.name, `3`) }}",
		})
	case x < pVar+0.12:
		return g.contextVariable(r)
	case x < pVar+0.22:
		g.feature("var-labels-default")
		return pick(g, []string{
			"{{ request.object.metadata.labels.app || 'none' }}",
			"{{ replace_all(request.object.metadata.labels.tier || 'none', 'end', 'END') }}",
		})
	case x < pVar+0.36 && len(t.res.containers) > 0 && !t.metaOnly && t.info.podSpec != "":
		g.feature("var-images")
		c := pick(g, t.res.containers).name
		return "{{ images.containers." + c + "." + pick(g, []string{"tag", "name", "registry"}) + " || 'none' }}"
	default:
		return pick(g, teams)
	}
}

// contextVariable adds a variable context entry to r and returns its use.
func (g *gen) contextVariable(r *rule) string {
	g.feature("context-variable")
	var entry, use string
	switch g.r.IntN(3) {
	case 0:
		entry = "name: owner\n" + field("variable", "value: "+q(pick(g, teams))+"\n")
		use = "{{ owner }}"
	case 1:
		entry = "name: appname\n" + field("variable", "jmesPath: request.object.metadata.labels.app\ndefault: unknown\n")
		use = "{{ appname }}"
	default:
		entry = "name: shout\n" + field("variable", "value: \"{{ request.object.metadata.labels.tier || 'none' }}\"\njmesPath: to_upper(@)\n")
		use = "{{ shout }}"
	}
	r.context += listItem(entry)
	return use
}

// smpLabels sets labels (and sometimes annotations) on the resource or
// on its pod template.
func (g *gen) smpLabels(t target, r *rule) {
	meta := "metadata"
	if !t.metaOnly && t.info.podMeta != "" && g.chance(0.5) {
		meta = t.info.podMeta
	}
	keys := sample(g, []string{"team", "managed-by", "owner", "tier"}, 1+g.r.IntN(2))
	var labels pairs
	for _, k := range keys {
		labels = append(labels, [2]string{k, g.labelValue(t, r)})
	}
	body := field("labels", labels.yaml())
	if meta != "metadata" && g.chance(0.35) {
		// A variable that is the whole value keeps its type: the map of
		// the resource's labels merges into the pod template's.
		g.feature("var-map-value")
		body = "labels: \"{{ request.object.metadata.labels }}\"\n"
	}
	if g.chance(0.3) {
		body += field("annotations", pairs{{"example.com/rendered-by", "kyverno"}}.yaml())
	}
	r.mutate = smp(nest(meta, body))
}

// containerSettings are fields a rule sets on a container.
var containerSettings = []string{
	"imagePullPolicy: Always\n",
	"securityContext:\n  allowPrivilegeEscalation: false\n",
	"resources:\n  limits:\n    memory: 256Mi\n",
	"env:\n- name: INJECTED\n  value: \"true\"\n",
}

// containerNamePattern is a (name) condition that matches some of the
// target's containers.
func (g *gen) containerNamePattern(t target) string {
	cs := t.res.containers
	switch x := g.r.IntN(10); {
	case x < 3:
		return "*"
	case x < 6 && len(cs) > 0:
		return pick(g, cs).name
	case x < 8:
		return "side*"
	default:
		return "?pp"
	}
}

// smpContainerCondition sets a field on the containers a (name) or
// (image) conditional anchor selects.
func (g *gen) smpContainerCondition(t target, r *rule) {
	var anchor string
	if g.chance(0.55) {
		anchor = "(name): " + q(g.containerNamePattern(t)) + "\n"
	} else {
		anchor = "(image): " + q(pick(g, []string{"*:latest", "nginx*", "*envoy*", "*/*"})) + "\n"
	}
	patch := nest(t.info.podSpec, field("containers", listItem(anchor+pick(g, containerSettings))))
	if g.chance(0.3) {
		patch = nest("metadata", field("labels", pairs{{"hardened", "true"}}.yaml())) + patch
	}
	r.mutate = smp(patch)
}

// smpAddIfNotPresent adds defaults with +(key) anchors.
func (g *gen) smpAddIfNotPresent(t target, r *rule) {
	var patch string
	switch g.r.IntN(4) {
	case 0:
		req := "+(cpu): \"100m\"\n"
		if g.chance(0.5) {
			req += "+(memory): 64Mi\n"
		}
		patch = nest(t.info.podSpec, field("containers", listItem("(name): \"*\"\n"+field("resources", field("requests", req)))))
	case 1:
		meta := "metadata"
		if g.chance(0.5) {
			meta = t.info.podMeta
		}
		patch = nest(meta, field("labels", "+(team): "+q(pick(g, teams))+"\n+(tier): \"backend\"\n"))
	case 2:
		patch = nest(t.info.podSpec, "+(serviceAccountName): \"default\"\n+(terminationGracePeriodSeconds): 30\n")
	default:
		patch = nest(t.info.podSpec, field("containers", listItem("(name): "+q(g.containerNamePattern(t))+"\n+(imagePullPolicy): IfNotPresent\n")))
	}
	r.mutate = smp(patch)
}

// smpGlobal annotates the resource only if a global anchor holds.
func (g *gen) smpGlobal(t target, r *rule) {
	var cond string
	switch g.r.IntN(5) {
	case 0, 1:
		cond = field("containers", listItem("<(image): \"*:latest\"\n"))
	case 2:
		cond = field("containers", listItem("<(name): \"side*\"\n"))
	case 3:
		cond = field("containers", listItem("<(imagePullPolicy): \"Always\"\n"))
	default:
		cond = "<(serviceAccountName): \"?*\"\n"
	}
	r.mutate = smp(nest("metadata", field("annotations", pairs{{"example.com/checked", "true"}}.yaml())) + nest(t.info.podSpec, cond))
}

// smpDelete removes a container with the $patch: delete directive.
func (g *gen) smpDelete(t target, r *rule) {
	name := "debug"
	if cs := t.res.containers; len(cs) > 1 || len(cs) == 1 && g.chance(0.3) {
		name = cs[len(cs)-1].name
	}
	r.mutate = smp(nest(t.info.podSpec, field("containers", listItem("name: "+name+"\n$patch: delete\n"))))
}

// smpNull deletes fields with null values.
func (g *gen) smpNull(t target, r *rule) {
	name := "app"
	if cs := t.res.containers; len(cs) > 0 {
		name = pick(g, cs).name
	}
	var patch string
	switch g.r.IntN(10) {
	case 0, 1, 2, 3:
		patch = nest(t.info.podSpec, field("containers", listItem("name: "+name+"\n"+pick(g, []string{"imagePullPolicy", "env", "resources"})+": null\n")))
	case 4, 5, 6:
		patch = nest(t.info.podSpec, pick(g, []string{"serviceAccountName", "tolerations"})+": null\n")
	case 7, 8:
		patch = nest(t.info.podSpec, "serviceAccountName: null\n"+field("containers", listItem("name: "+name+"\nimagePullPolicy: IfNotPresent\n")))
	default:
		// A null label value fails policy validation, upstream and here.
		g.feature("null-label-invalid")
		patch = nest("metadata", field("labels", "tier: null\n"))
	}
	r.mutate = smp(patch)
}

// smpData edits a ConfigMap's data.
func (g *gen) smpData(t target, r *rule) {
	var data string
	switch g.r.IntN(4) {
	case 0:
		data = "LOG_LEVEL: info\nrendered-for: " + q(g.labelValue(t, r)) + "\n"
	case 1:
		data = "+(LOG_LEVEL): warn\n+(timeout): \"10s\"\n"
	case 2:
		data = "legacy: null\nabsent: null\n"
	default:
		data = "FEATURE_X: \"false\"\n+(replicas): \"1\"\nlegacy: null\n"
	}
	r.mutate = smp(field("data", data))
}

// op renders one JSON patch operation; value "" means none.
func op(kind, path, value string) string {
	s := "op: " + kind + "\npath: " + path + "\n"
	if value != "" {
		s += "value: " + value + "\n"
	}
	return listItem(s)
}

// jsonPatch draws one to three patchesJson6902 operations suited to t.
func (g *gen) jsonPatch(t target, r *rule) {
	ops := []string{
		op("add", "/metadata/labels/patched-by", q("kyverno")),
		op("add", "/metadata/annotations/example.com~1patched", q("{{request.object.metadata.name}}")),
		op("remove", "/metadata/annotations/example.com~1scrape", ""),
		op("remove", "/metadata/labels/env", ""),
	}
	switch {
	case t.metaOnly:
	case t.info.podSpec != "":
		p, m := pointer(t.info.podSpec), pointer(t.info.podMeta)
		ops = append(ops,
			op("add", m+"/labels/rendered", q("true")),
			op("replace", p+"/containers/0/image", q("nginx:1.27")),
			op("add", p+"/containers/0/env/-", `{"name": "INJECTED", "value": "1"}`),
			op("remove", p+"/containers/1", ""),
			op("add", p+"/securityContext/runAsNonRoot", "true"),
			op("add", p+"/nodeSelector/disktype", q("ssd")),
			op("add", p+"/tolerations/-", `{"key": "dedicated", "operator": "Exists", "effect": "NoSchedule"}`),
			op("add", p+"/containers/-1", `{"name": "extra", "image": "busybox:1.36"}`),
			op("add", p+"/containers/0", `{"name": "init-proxy", "image": "envoyproxy/envoy:v1.30"}`),
			op("replace", "/metadata/labels/app", q("renamed")),
		)
		if t.info.replicas {
			ops = append(ops, op("replace", "/spec/replicas", "3"), op("add", "/spec/replicas", "2"))
		}
	case t.kind == "ConfigMap":
		ops = append(ops,
			op("replace", "/data/LOG_LEVEL", q("info")),
			op("add", "/data/NEW_KEY", q("{{request.object.metadata.name}}")),
			op("remove", "/data/legacy", ""),
			op("add", "/data/FEATURE_X", q("false")),
		)
	case t.kind == "Widget":
		ops = append(ops,
			op("add", "/spec/items/-", `{"name": "extra", "size": 9}`),
			op("replace", "/spec/size", "7"),
			op("remove", "/spec/items/0", ""),
			op("add", "/spec/items/0/color", q("blue")),
		)
	case t.kind == "Service":
		ops = append(ops,
			op("add", "/spec/sessionAffinity", q("ClientIP")),
			op("replace", "/spec/ports/0/port", "8080"),
			op("add", "/spec/ports/-", `{"name": "metrics", "port": 9090, "protocol": "TCP"}`),
		)
	}
	chosen := sample(g, ops, 1+g.r.IntN(3))
	g.r.Shuffle(len(chosen), func(i, j int) { chosen[i], chosen[j] = chosen[j], chosen[i] })
	if g.chance(0.1) {
		g.feature("jsonpatch-json-form")
		r.mutate = "patchesJson6902: '" + strings.ReplaceAll(jsonOps(chosen), "'", "''") + "'\n"
		return
	}
	r.mutate = "patchesJson6902: |-\n" + indent(strings.Join(chosen, ""), 2)
}

// jsonOps rewrites operations rendered by op in the JSON array form.
func jsonOps(ops []string) string {
	var out []string
	for _, o := range ops {
		fields := map[string]string{}
		for _, l := range strings.Split(strings.TrimSpace(o), "\n") {
			l = strings.TrimPrefix(strings.TrimPrefix(l, "- "), "  ")
			k, v, _ := strings.Cut(l, ": ")
			fields[k] = v
		}
		j := `{"op": "` + fields["op"] + `", "path": "` + fields["path"] + `"`
		if v, ok := fields["value"]; ok {
			j += `, "value": ` + v
		}
		out = append(out, j+"}")
	}
	return "[" + strings.Join(out, ", ") + "]"
}

// foreachConditions are element preconditions of a foreach entry.
func (g *gen) foreachConditions() string {
	conds := []string{
		cond("{{ element.image }}", "Equals", q("*:latest")),
		cond("{{ element.name }}", "NotEquals", q("sidecar")),
		cond("{{ element.name }}", "AnyIn", `["app", "web*", "proxy"]`),
		cond("{{ elementIndex }}", "GreaterThan", "0"),
	}
	g.feature("foreach-preconditions")
	return field(pick(g, []string{"all", "any"}), strings.Join(sample(g, conds, 1+g.r.IntN(2)), ""))
}

// foreachEntry renders a foreach entry over the pod's containers around
// its patch.
func (g *gen) foreachEntry(t target, patch string, conds string) string {
	e := "list: request.object." + t.info.podSpec + ".containers\n"
	if g.chance(0.35) {
		o := pick(g, []string{"Ascending", "Descending"})
		g.feature("foreach-order-" + o)
		e += "order: " + o + "\n"
	}
	if conds == "" && g.chance(0.4) {
		conds = g.foreachConditions()
	}
	if conds != "" {
		e += field("preconditions", conds)
	}
	if strings.Contains(patch, "{{ element.name }}") && g.chance(0.2) {
		g.feature("foreach-context")
		e += field("context", listItem("name: cname\n"+field("variable", "jmesPath: element.name\n")))
		patch = strings.ReplaceAll(patch, "{{ element.name }}", "{{ cname }}")
	}
	return field("foreach", listItem(e+patch))
}

// foreachSMP sets a field on each container by name.
func (g *gen) foreachSMP(t target, r *rule) {
	settings := []string{
		"imagePullPolicy: Always\n",
		"resources:\n  requests:\n    +(memory): 64Mi\n",
		"env:\n- name: CONTAINER_NAME\n  value: \"{{ element.name }}\"\n",
		"securityContext:\n  runAsNonRoot: true\n",
	}
	c := listItem("name: \"{{ element.name }}\"\n" + pick(g, settings))
	r.mutate = g.foreachEntry(t, smp(nest(t.info.podSpec, field("containers", c))), "")
}

// foreachJSONPatch patches each container by index.
func (g *gen) foreachJSONPatch(t target, r *rule) {
	p := pointer(t.info.podSpec) + "/containers/{{elementIndex}}"
	var ops, conds string
	switch g.r.IntN(4) {
	case 0:
		ops = op("add", p+"/imagePullPolicy", q("IfNotPresent"))
	case 1:
		ops = op("add", p+"/env/-", `{"name": "CONTAINER", "value": "{{element.name}}"}`)
	case 2:
		g.feature("foreach-remove")
		ops = op("remove", p, "")
		conds = field("all", pick(g, []string{
			cond("{{ element.name }}", "Equals", q("side*")),
			cond("{{ element.image }}", "Equals", q("*:latest")),
		}))
	default:
		ops = op("add", "/metadata/annotations/{{element.name}}-image", q("{{element.image}}"))
	}
	r.mutate = g.foreachEntry(t, "patchesJson6902: |-\n"+indent(ops, 2), conds)
}

// smpVolume adds a volume and mounts it into some containers. The literal
// {} of emptyDir is dropped by the anchor preprocessing (upstream quirk).
func (g *gen) smpVolume(t target, r *rule) {
	vol := pick(g, []string{"emptyDir: {}\n", "emptyDir:\n  medium: Memory\n", field("configMap", "name: shared\n")})
	spec := field("volumes", listItem("name: cache\n"+vol))
	if g.chance(0.7) {
		anchor := "(name): " + q(g.containerNamePattern(t)) + "\n"
		if g.chance(0.3) {
			anchor = "name: " + pick(g, t.res.containers).name + "\n"
		}
		spec = field("containers", listItem(anchor+field("volumeMounts", listItem("name: cache\nmountPath: /cache\n")))) + spec
	}
	r.mutate = smp(nest(t.info.podSpec, spec))
}

// smpContainerPorts adds or changes a container port (merge key
// containerPort).
func (g *gen) smpContainerPorts(t target, r *rule) {
	port := pick(g, []string{"containerPort: 9090\nname: metrics\n", "containerPort: 8080\nname: http\n", "containerPort: 80\nprotocol: TCP\nname: web\n"})
	c := "name: " + pick(g, t.res.containers).name + "\n"
	if g.chance(0.4) {
		c = "(name): \"*\"\n"
	}
	r.mutate = smp(nest(t.info.podSpec, field("containers", listItem(c+field("ports", listItem(port))))))
}

// smpReplace replaces a container's resources with $patch: replace.
func (g *gen) smpReplace(t target, r *rule) {
	c := "name: " + pick(g, t.res.containers).name + "\n"
	r.mutate = smp(nest(t.info.podSpec, field("containers", listItem(c+field("resources", "$patch: replace\n"+field("requests", "cpu: \"50m\"\n"))))))
}

// smpServicePorts merges Service ports (keys port and protocol).
func (g *gen) smpServicePorts(t target, r *rule) {
	port := pick(g, []string{
		"port: 80\ntargetPort: 9090\n",
		"port: 80\nprotocol: TCP\ntargetPort: http\n",
		"name: metrics\nport: 9090\nprotocol: TCP\n",
		"name: dns\nport: 53\nprotocol: UDP\n",
	})
	r.mutate = smp(field("spec", field("ports", listItem(port))))
}

// smpWidgetItems patches a custom resource's list, which has no schema:
// the patch list replaces it.
func (g *gen) smpWidgetItems(t target, r *rule) {
	patch := field("spec", field("items", listItem("name: item-0\nsize: 10\n")))
	if g.chance(0.3) {
		patch = field("spec", "size: 5\n")
	}
	r.mutate = smp(patch)
}
