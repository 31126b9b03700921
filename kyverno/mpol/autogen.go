// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package mpol

import (
	"cmp"
	"regexp"
	"slices"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
)

// generated is a policy autogen derives for pod controllers.
type generated struct {
	// config is "cronjobs" or "defaults" (every other controller).
	config string
	spec   *spec
}

// controller is a pod controller autogen can target
// (pkg/cel/autogen/data.go ConfigsMap).
type controller struct {
	group, version, resource string
	cronJob                  bool
}

var controllers = map[string]controller{
	"daemonsets":   {"apps", "v1", "daemonsets", false},
	"deployments":  {"apps", "v1", "deployments", false},
	"replicasets":  {"apps", "v1", "replicasets", false},
	"statefulsets": {"apps", "v1", "statefulsets", false},
	"jobs":         {"batch", "v1", "jobs", false},
	"cronjobs":     {"batch", "v1", "cronjobs", true},
}

// autogen derives the pod-controller policies of a policy on Pods, as
// Kyverno's mpol autogen does (pkg/cel/policies/mpol/autogen/autogen.go):
// only for a policy whose matchConstraints have one resource rule on
// core v1 pods without resourceNames, no objectSelector and no
// excludeResourceRules (pkg/cel/autogen/support.go CanAutoGen); for every
// controller, or those spec.autogen.podControllers.controllers lists. Each
// derived policy matches the controllers' resources with the pod rule's
// operations and namespaceSelector, and has its matchConditions and
// ApplyConfiguration expressions rewritten onto the pod template; JSONPatch
// expressions are left as written. Controller names other than the six
// built-in ones (custom workload resources) yield a policy Kyverno skips
// ("extraction mode"), so none is derived for them.
func autogen(s *spec) ([]generated, error) {
	if !canAutogen(s.MatchConstraints) {
		return nil, nil
	}
	names := []string{"cronjobs", "daemonsets", "deployments", "jobs", "replicasets", "statefulsets"}
	if s.Autogen != nil && s.Autogen.PodControllers != nil && s.Autogen.PodControllers.Controllers != nil {
		names = s.Autogen.PodControllers.Controllers
	}
	byConfig := map[string][]controller{}
	seen := map[string]bool{}
	for _, n := range names {
		c, ok := controllers[n]
		if !ok || seen[n] {
			continue
		}
		seen[n] = true
		config := "defaults"
		if c.cronJob {
			config = "cronjobs"
		}
		byConfig[config] = append(byConfig[config], c)
	}
	ops := s.MatchConstraints.ResourceRules[0].Operations
	if len(ops) == 0 {
		return nil, nil
	}
	var out []generated
	for _, config := range []string{"cronjobs", "defaults"} {
		targets := byConfig[config]
		if len(targets) == 0 {
			continue
		}
		g := *s
		g.MatchConstraints = matchControllers(targets, ops, s.MatchConstraints)
		g.MatchConditions = slices.Clone(s.MatchConditions)
		for i := range g.MatchConditions {
			if g.MatchConditions[i].Expression != "" {
				g.MatchConditions[i].Expression = onTemplate(g.MatchConditions[i].Expression, config == "cronjobs")
			}
		}
		g.Mutations = slices.Clone(s.Mutations)
		for i := range g.Mutations {
			if ac := g.Mutations[i].ApplyConfiguration; ac != nil && ac.Expression != "" {
				c := *ac
				c.Expression = onTemplate(c.Expression, config == "cronjobs")
				g.Mutations[i].ApplyConfiguration = &c
			}
		}
		out = append(out, generated{config: config, spec: &g})
	}
	return out, nil
}

// canAutogen is Kyverno's CanAutoGen (pkg/cel/autogen/support.go).
func canAutogen(m *admissionregistrationv1.MatchResources) bool {
	if m == nil || len(m.ExcludeResourceRules) != 0 || len(m.ResourceRules) != 1 {
		return false
	}
	if m.ObjectSelector != nil && (len(m.ObjectSelector.MatchLabels) > 0 || len(m.ObjectSelector.MatchExpressions) > 0) {
		return false
	}
	r := m.ResourceRules[0]
	return len(r.ResourceNames) == 0 &&
		slices.Equal(r.APIGroups, []string{""}) &&
		slices.Equal(r.APIVersions, []string{"v1"}) &&
		slices.Equal(r.Resources, []string{"pods"})
}

// matchControllers is the derived matchConstraints: one rule per group
// and version, in order, with its resources sorted (pkg/cel/autogen/match.go
// CreateMatchConstraints).
func matchControllers(targets []controller, ops []admissionregistrationv1.OperationType, pod *admissionregistrationv1.MatchResources) *admissionregistrationv1.MatchResources {
	type gv struct{ group, version string }
	byGV := map[gv][]string{}
	var gvs []gv
	for _, t := range targets {
		k := gv{t.group, t.version}
		if _, ok := byGV[k]; !ok {
			gvs = append(gvs, k)
		}
		if !slices.Contains(byGV[k], t.resource) {
			byGV[k] = append(byGV[k], t.resource)
		}
	}
	slices.SortFunc(gvs, func(a, b gv) int {
		if c := cmp.Compare(a.group, b.group); c != 0 {
			return c
		}
		return cmp.Compare(a.version, b.version)
	})
	m := &admissionregistrationv1.MatchResources{}
	for _, k := range gvs {
		res := byGV[k]
		slices.Sort(res)
		m.ResourceRules = append(m.ResourceRules, admissionregistrationv1.NamedRuleWithOperations{
			RuleWithOperations: admissionregistrationv1.RuleWithOperations{
				Operations: ops,
				Rule:       admissionregistrationv1.Rule{APIGroups: []string{k.group}, APIVersions: []string{k.version}, Resources: res},
			},
		})
	}
	if pod.NamespaceSelector != nil {
		m.NamespaceSelector = pod.NamespaceSelector.DeepCopy()
	}
	return m
}

var (
	specRef        = regexp.MustCompile(`\b(object|oldObject|Object)\.spec`)
	labelsRef      = regexp.MustCompile(`\b(object|oldObject|Object)\.metadata\.labels`)
	annotationsRef = regexp.MustCompile(`\b(object|oldObject|Object)\.metadata\.annotations`)
)

// onTemplate rewrites a Pod expression onto the pod template of a
// controller (convertPodToTemplateExpression): references to spec,
// metadata.labels and metadata.annotations of object, oldObject and
// Object move under the template, and an expression that starts with an
// Object{...} literal has the literal's fields wrapped in the template's
// Object types. The literal's end is found by counting braces, strings
// included, as upstream does.
func onTemplate(expr string, cronJob bool) string {
	specPath, metaPath := "spec.template.spec", "spec.template.metadata"
	wrapOpen := "Object{spec: Object.spec{template: Object.spec.template{"
	wrapClose := "}}}"
	if cronJob {
		specPath, metaPath = "spec.jobTemplate.spec.template.spec", "spec.jobTemplate.spec.template.metadata"
		wrapOpen = "Object{spec: Object.spec{jobTemplate: Object.spec.jobTemplate{spec: Object.spec.jobTemplate.spec{template: Object.spec.jobTemplate.spec.template{"
		wrapClose = "}}}}}"
	}
	expr = specRef.ReplaceAllString(expr, "${1}."+specPath)
	expr = labelsRef.ReplaceAllString(expr, "${1}."+metaPath+".labels")
	expr = annotationsRef.ReplaceAllString(expr, "${1}."+metaPath+".annotations")

	rest, ok := strings.CutPrefix(strings.TrimSpace(expr), "Object")
	if !ok {
		return expr
	}
	body, ok := strings.CutPrefix(strings.TrimLeft(rest, " \t\r\n"), "{")
	if !ok {
		return expr
	}
	depth, end := 1, 0
	for i, r := range body {
		if r == '{' {
			depth++
		} else if r == '}' {
			depth--
			if depth == 0 {
				end = i
				break
			}
		}
	}
	if end == 0 {
		return expr
	}
	return wrapOpen + body[:end] + wrapClose + body[end+1:]
}
