// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// app is a workload family: every resource of an app carries its labels,
// and its container images depend only on the app (main) and its tier
// (sidecar), so that resources of one app, kind and namespace receive the
// same overrides and kustomize can express them as constant patches.
type app struct {
	name, tier, team string
	mainImage        string // registry/team/app:tag
	sidecarImage     string
}

var (
	tiers = []string{"frontend", "backend", "data", "batch", "edge"}
	teams = []string{"payments", "search", "identity", "catalog", "ops", "growth"}
)

// kindDef is a kind the corpus draws from, with its weight in percent.
type kindDef struct {
	apiVersion, kind, short string
	weight                  int
	podTemplate             bool // Karmada's image, command and args overriders apply
	replicas                bool // spec.replicas exists
}

var kinds = []kindDef{
	{"apps/v1", "Deployment", "deploy", 40, true, true},
	{"apps/v1", "StatefulSet", "sts", 15, true, true},
	{"apps/v1", "DaemonSet", "ds", 10, true, false},
	{"batch/v1", "CronJob", "cj", 10, false, false},
	{"v1", "ConfigMap", "cm", 15, false, false},
	{"v1", "Service", "svc", 10, false, false},
}

func makeApps(r *rand.Rand, n int) []app {
	apps := make([]app, n)
	for i := range apps {
		a := app{
			name: fmt.Sprintf("app-%02d", i),
			tier: tiers[i%len(tiers)],
			team: teams[r.IntN(len(teams))],
		}
		a.mainImage = fmt.Sprintf("registry.bench.example/%s/%s:v1.%d.%d", a.team, a.name, r.IntN(20), r.IntN(10))
		a.sidecarImage = fmt.Sprintf("registry.bench.example/proxies/%s-proxy:2.%d.0", a.tier, i%len(tiers))
		apps[i] = a
	}
	return apps
}

// doc is one YAML document: head comment lines (before the document, at
// column 0) and body lines (at column 0, to be indented as a list item).
type doc struct {
	head []string
	body []string
}

func (d *doc) line(indent int, format string, args ...any) {
	d.body = append(d.body, strings.Repeat(" ", indent)+fmt.Sprintf(format, args...))
}

// resource is one generated workload resource.
type resource struct {
	kind      kindDef
	namespace string
	app       *app
	doc       doc
}

func genResource(r *rand.Rand, i int, ns string, k kindDef, a *app) resource {
	name := fmt.Sprintf("%s-%s-%05d", a.name, k.short, i)
	d := doc{head: []string{fmt.Sprintf("# %s %s of %s (tier %s, team %s)", k.kind, name, a.name, a.tier, a.team)}}
	d.line(0, "apiVersion: %s", k.apiVersion)
	d.line(0, "kind: %s", k.kind)
	d.line(0, "metadata:")
	d.line(2, "name: %s", name)
	d.line(2, "namespace: %s", ns)
	d.line(2, "labels:")
	d.line(4, "app: %s", a.name)
	d.line(4, "tier: %s", a.tier)
	d.line(4, "team: %s # owning team", a.team)
	d.line(2, "annotations:")
	d.line(4, "bench.example/build: \"%d\"", 1000+r.IntN(9000))
	d.line(4, "bench.example/description: serves %s for team %s", a.name, a.team)
	if r.IntN(2) == 0 {
		d.line(4, "bench.example/oncall: %s-oncall@example.com", a.team)
	}
	switch k.kind {
	case "Deployment", "StatefulSet", "DaemonSet":
		d.line(0, "spec:")
		if k.replicas {
			d.line(2, "replicas: %d # the default for every cluster", 1+r.IntN(5))
		}
		if k.kind == "StatefulSet" {
			d.line(2, "serviceName: %s", a.name)
		}
		d.line(2, "selector:")
		d.line(4, "matchLabels:")
		d.line(6, "app: %s", a.name)
		d.line(2, "template:")
		podSpec(r, &d, 4, a, true)
	case "CronJob":
		d.line(0, "spec:")
		d.line(2, "schedule: \"%d */%d * * *\" # minute, then every few hours", r.IntN(60), 1+r.IntN(6))
		d.line(2, "concurrencyPolicy: Forbid")
		d.line(2, "jobTemplate:")
		d.line(4, "spec:")
		d.line(6, "backoffLimit: %d", r.IntN(4))
		d.line(6, "template:")
		podSpec(r, &d, 8, a, false)
	case "ConfigMap":
		d.line(0, "data:")
		d.line(2, "log-level: %s", []string{"debug", "info", "warn"}[r.IntN(3)])
		d.line(2, "# rendered into the container at /etc/%s", a.name)
		d.line(2, "app.properties: |")
		for j, n := 0, 4+r.IntN(8); j < n; j++ {
			d.line(4, "%s.setting%d=%d", a.name, j, r.IntN(100000))
		}
		d.line(2, "feature-flags: \"%s\"", []string{"a,b", "b,c", "none"}[r.IntN(3)])
	case "Service":
		d.line(0, "spec:")
		d.line(2, "type: ClusterIP")
		d.line(2, "selector:")
		d.line(4, "app: %s", a.name)
		d.line(2, "ports:")
		d.line(2, "# the application port first")
		d.line(2, "- name: http")
		d.line(4, "port: 80")
		d.line(4, "targetPort: %d", 8000+r.IntN(100))
		d.line(4, "protocol: TCP")
		d.line(2, "- name: metrics")
		d.line(4, "port: 9090")
		d.line(4, "protocol: TCP")
	}
	return resource{kind: k, namespace: ns, app: a, doc: d}
}

// podSpec writes a pod template at indent: labels, then the containers main
// and sidecar, which Karmada's overriders address by name and kustomize's
// patches by index (0 and 1).
func podSpec(r *rand.Rand, d *doc, in int, a *app, probes bool) {
	d.line(in, "metadata:")
	d.line(in+2, "labels:")
	d.line(in+4, "app: %s", a.name)
	d.line(in+4, "tier: %s", a.tier)
	d.line(in, "spec:")
	if !probes {
		d.line(in+2, "restartPolicy: OnFailure")
	}
	d.line(in+2, "containers:")
	d.line(in+2, "# the application")
	port := 8000 + r.IntN(100)
	container(r, d, in+2, "main", a.mainImage, port, probes,
		[]string{"/usr/local/bin/" + a.name}, []string{fmt.Sprintf("--port=%d", port), "--log-format=json"})
	d.line(in+2, "# the %s tier's proxy", a.tier)
	container(r, d, in+2, "sidecar", a.sidecarImage, 15000+r.IntN(10), probes,
		[]string{"/proxy"}, []string{"--upstream=127.0.0.1:" + fmt.Sprint(port)})
}

func container(r *rand.Rand, d *doc, in int, name, image string, port int, probes bool, command, args []string) {
	d.line(in, "- name: %s", name)
	c := in + 2
	d.line(c, "image: %s # pinned", image)
	d.line(c, "command:")
	for _, s := range command {
		d.line(c, "- %s", s)
	}
	d.line(c, "args:")
	for j, s := range args {
		if j == 0 {
			d.line(c, "- %s # keep in sync with the port below", s)
			continue
		}
		d.line(c, "- %s", s)
	}
	d.line(c, "env:")
	for j, n := 0, 2+r.IntN(4); j < n; j++ {
		d.line(c, "- name: %s_SETTING_%d", strings.ToUpper(name), j)
		d.line(c+2, "value: \"%d\"", r.IntN(1000))
	}
	d.line(c, "- name: POD_NAMESPACE")
	d.line(c+2, "valueFrom:")
	d.line(c+4, "fieldRef:")
	d.line(c+6, "fieldPath: metadata.namespace")
	d.line(c, "ports:")
	d.line(c, "- name: p%d", port)
	d.line(c+2, "containerPort: %d", port)
	d.line(c+2, "protocol: TCP")
	d.line(c, "resources:")
	d.line(c+2, "requests:")
	d.line(c+4, "cpu: %dm", 50*(1+r.IntN(8)))
	d.line(c+4, "memory: %dMi", 64*(1+r.IntN(8)))
	d.line(c+2, "limits:")
	d.line(c+4, "cpu: %dm", 500*(1+r.IntN(4)))
	d.line(c+4, "memory: %dMi", 256*(1+r.IntN(4)))
	if !probes {
		return
	}
	for _, p := range []string{"readinessProbe", "livenessProbe"} {
		d.line(c, "%s:", p)
		d.line(c+2, "httpGet:")
		d.line(c+4, "path: /healthz")
		d.line(c+4, "port: %d", port)
		d.line(c+2, "initialDelaySeconds: %d", 1+r.IntN(30))
		d.line(c+2, "periodSeconds: %d", 5+r.IntN(25))
	}
}
