// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyvernogen

import (
	"fmt"
	"strings"
)

// container is one container of a generated pod spec.
type container struct {
	name, image, pullPolicy string
	env                     pairs
	cpu, memory             string // resource requests, "" when absent
	port                    int    // a TCP containerPort, 0 when none
	mountConfig             bool   // mounts the "config" volume
}

// resource is one generated manifest.
type resource struct {
	kind, apiVersion, name, namespace string
	labels, annotations               pairs
	replicas                          int // 0: no spec.replicas
	containers                        []container
	serviceAccount                    string
	tolerations                       bool
	configVolume                      bool  // a "config" ConfigMap volume
	initContainer                     bool  // an "init" init container
	data                              pairs // ConfigMap
	widgetItems                       int   // Widget spec.items
}

// kindInfo describes where a kind keeps its pod template.
type kindInfo struct {
	apiVersion string
	podSpec    string // dotted path of the pod spec, "" when the kind has none
	podMeta    string // dotted path of the pod template's metadata
	replicas   bool   // the kind has spec.replicas
}

var kinds = map[string]kindInfo{
	"Pod":         {apiVersion: "v1", podSpec: "spec", podMeta: "metadata"},
	"Deployment":  {apiVersion: "apps/v1", podSpec: "spec.template.spec", podMeta: "spec.template.metadata", replicas: true},
	"StatefulSet": {apiVersion: "apps/v1", podSpec: "spec.template.spec", podMeta: "spec.template.metadata", replicas: true},
	"DaemonSet":   {apiVersion: "apps/v1", podSpec: "spec.template.spec", podMeta: "spec.template.metadata"},
	"CronJob":     {apiVersion: "batch/v1", podSpec: "spec.jobTemplate.spec.template.spec", podMeta: "spec.jobTemplate.spec.template.metadata"},
	"ConfigMap":   {apiVersion: "v1"},
	"Service":     {apiVersion: "v1"},
	// Widget is a custom resource: no schema, so every list is atomic.
	"Widget": {apiVersion: "example.com/v1"},
}

// resourceKinds is the draw order of generated kinds (weighted by repetition).
var resourceKinds = []string{
	"Deployment", "Deployment", "Deployment", "StatefulSet", "DaemonSet", "CronJob",
	"Pod", "Pod", "ConfigMap", "ConfigMap", "Service", "Widget",
}

var (
	appNames       = []string{"web", "api", "checkout", "worker", "cache", "billing", "search", "auth", "ledger", "frontend"}
	namespaces     = []string{"shop", "shop", "prod", "default", "team-a", ""}
	tiers          = []string{"frontend", "backend", "data"}
	envs           = []string{"prod", "staging"}
	teams          = []string{"shop", "payments", "platform"}
	containerNames = []string{"app", "sidecar", "metrics", "proxy", "web", "worker"}
	images         = []string{
		"nginx:1.25", "nginx:latest", "nginx", "ghcr.io/example/app:1.4.2", "busybox:latest",
		"envoyproxy/envoy:v1.29", "prom/statsd-exporter:v0.26.0", "redis:7", "registry.example.com:5000/team/api:latest",
	}
	pullPolicies = []string{"Always", "IfNotPresent", "Never"}
	envVars      = pairs{{"LOG_LEVEL", "debug"}, {"MODE", "prod"}, {"PORT", "8080"}, {"FEATURE_X", "true"}}
	configData   = pairs{{"LOG_LEVEL", "debug"}, {"FEATURE_X", "true"}, {"timeout", "30s"}, {"legacy", "yes-please"}, {"replicas", "3"}}
	annotations  = pairs{{"example.com/owner", "team-x"}, {"example.com/scrape", "true"}, {"description", "generated for the differential test"}}
)

// newResource draws one manifest whose name is unique in the scenario.
func (g *gen) newResource(used map[string]bool) resource {
	kind := pick(g, resourceKinds)
	name := pick(g, appNames)
	for i := 2; used[kind+"/"+name]; i++ {
		name = fmt.Sprintf("%s-%d", pick(g, appNames), i)
	}
	used[kind+"/"+name] = true
	r := resource{kind: kind, apiVersion: kinds[kind].apiVersion, name: name, namespace: pick(g, namespaces)}
	if kind != "ConfigMap" || g.chance(0.3) {
		r.labels = append(r.labels, [2]string{"app", name})
	}
	if g.chance(0.6) {
		r.labels = append(r.labels, [2]string{"tier", pick(g, tiers)})
	}
	if g.chance(0.3) {
		r.labels = append(r.labels, [2]string{"env", pick(g, envs)})
	}
	if g.chance(0.2) {
		r.labels = append(r.labels, [2]string{"team", pick(g, teams)})
	}
	if g.chance(0.35) {
		r.annotations = sample(g, annotations, 1+g.r.IntN(2))
	}
	info := kinds[kind]
	if info.replicas && g.chance(0.8) {
		r.replicas = 1 + g.r.IntN(5)
	}
	if info.podSpec != "" {
		r.containers = g.containers()
		if g.chance(0.25) {
			r.serviceAccount = name
		}
		r.tolerations = g.chance(0.15)
		r.initContainer = g.chance(0.15)
		if g.chance(0.2) {
			r.configVolume = true
			r.containers[0].mountConfig = true
		}
	}
	if kind == "Widget" {
		r.widgetItems = 1 + g.r.IntN(3)
	}
	if kind == "ConfigMap" {
		r.data = sample(g, configData, 1+g.r.IntN(3))
	}
	return r
}

// containers draws one to three containers with distinct names.
func (g *gen) containers() []container {
	names := sample(g, containerNames, 1+g.r.IntN(3))
	out := make([]container, 0, len(names))
	for _, n := range names {
		c := container{name: n, image: pick(g, images)}
		if g.chance(0.3) {
			c.pullPolicy = pick(g, pullPolicies)
		}
		if g.chance(0.4) {
			c.env = sample(g, envVars, 1+g.r.IntN(2))
		}
		if g.chance(0.3) {
			c.cpu = pick(g, []string{"100m", "250m", "1"})
		}
		if g.chance(0.3) {
			c.memory = pick(g, []string{"64Mi", "128Mi", "1Gi"})
		}
		if g.chance(0.25) {
			c.port = pick(g, []int{80, 8080, 9090})
		}
		out = append(out, c)
	}
	return out
}

// yaml renders the manifest.
func (r *resource) yaml() string {
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: %s\nkind: %s\n", r.apiVersion, r.kind)
	meta := "name: " + r.name + "\n"
	if r.namespace != "" {
		meta += "namespace: " + r.namespace + "\n"
	}
	if len(r.labels) > 0 {
		meta += field("labels", r.labels.yaml())
	}
	if len(r.annotations) > 0 {
		meta += field("annotations", r.annotations.yaml())
	}
	b.WriteString(field("metadata", meta))
	switch r.kind {
	case "Pod":
		b.WriteString(field("spec", r.podSpec("")))
	case "Deployment", "StatefulSet", "DaemonSet":
		spec := ""
		if r.replicas > 0 {
			spec += fmt.Sprintf("replicas: %d\n", r.replicas)
		}
		if r.kind == "StatefulSet" {
			spec += "serviceName: " + r.name + "\n"
		}
		spec += field("selector", field("matchLabels", "app: "+r.name+"\n"))
		spec += field("template", r.podTemplate(""))
		b.WriteString(field("spec", spec))
	case "CronJob":
		spec := "schedule: \"*/5 * * * *\"\n"
		spec += field("jobTemplate", field("spec", field("template", r.podTemplate("OnFailure"))))
		b.WriteString(field("spec", spec))
	case "ConfigMap":
		b.WriteString(field("data", r.data.yaml()))
	case "Widget":
		var items strings.Builder
		for i := range r.widgetItems {
			items.WriteString(listItem(fmt.Sprintf("name: item-%d\nsize: %d\n", i, i+1)))
		}
		b.WriteString(field("spec", "size: "+fmt.Sprint(r.widgetItems)+"\n"+field("items", items.String())))
	case "Service":
		spec := field("selector", "app: "+r.name+"\n")
		spec += field("ports", listItem("name: http\nport: 80\ntargetPort: 8080\nprotocol: TCP\n"))
		b.WriteString(field("spec", spec))
	}
	return b.String()
}

// podTemplate renders a pod template labelled app: <name>.
func (r *resource) podTemplate(restartPolicy string) string {
	return field("metadata", field("labels", "app: "+r.name+"\n")) + field("spec", r.podSpec(restartPolicy))
}

// podSpec renders the pod spec.
func (r *resource) podSpec(restartPolicy string) string {
	var b strings.Builder
	if restartPolicy != "" {
		b.WriteString("restartPolicy: " + restartPolicy + "\n")
	}
	if r.serviceAccount != "" {
		b.WriteString("serviceAccountName: " + r.serviceAccount + "\n")
	}
	if r.initContainer {
		b.WriteString(field("initContainers", listItem("name: init\nimage: busybox:1.36\n")))
	}
	var cs strings.Builder
	for _, c := range r.containers {
		body := "name: " + c.name + "\nimage: " + c.image + "\n"
		if c.port != 0 {
			body += field("ports", listItem(fmt.Sprintf("containerPort: %d\nprotocol: TCP\n", c.port)))
		}
		if c.mountConfig {
			body += field("volumeMounts", listItem("name: config\nmountPath: /etc/config\n"))
		}
		if c.pullPolicy != "" {
			body += "imagePullPolicy: " + c.pullPolicy + "\n"
		}
		if len(c.env) > 0 {
			var env strings.Builder
			for _, kv := range c.env {
				env.WriteString(listItem("name: " + kv[0] + "\nvalue: " + q(kv[1]) + "\n"))
			}
			body += field("env", env.String())
		}
		if c.cpu != "" || c.memory != "" {
			req := ""
			if c.cpu != "" {
				req += "cpu: " + q(c.cpu) + "\n"
			}
			if c.memory != "" {
				req += "memory: " + c.memory + "\n"
			}
			body += field("resources", field("requests", req))
		}
		cs.WriteString(listItem(body))
	}
	b.WriteString(field("containers", cs.String()))
	if r.configVolume {
		b.WriteString(field("volumes", listItem("name: config\n"+field("configMap", "name: "+r.name+"-config\n"))))
	}
	if r.tolerations {
		b.WriteString(field("tolerations", listItem("key: dedicated\noperator: Equal\nvalue: "+q(r.name)+"\neffect: NoSchedule\n")))
	}
	return b.String()
}
