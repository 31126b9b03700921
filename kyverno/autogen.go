// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyverno

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/apply-overrides/apply-overrides/kyverno/conditions"
)

// AnnotationAutogenControllers selects the pod controllers Kyverno
// generates Pod rules for ("none" turns autogen off).
const AnnotationAutogenControllers = "pod-policies.kyverno.io/autogen-controllers"

// podControllerGVK maps the kinds autogen knows to the kinds selector it
// writes.
var podControllerGVK = map[string]string{
	"DaemonSet":             "apps/v1/DaemonSet",
	"Deployment":            "apps/v1/Deployment",
	"Job":                   "batch/v1/Job",
	"StatefulSet":           "apps/v1/StatefulSet",
	"ReplicaSet":            "apps/v1/ReplicaSet",
	"ReplicationController": "v1/ReplicationController",
	"CronJob":               "batch/v1/CronJob",
	"Pod":                   "v1/Pod",
}

// allControllers is the default controller list (upstream joins a set in
// no particular order; every consumer sorts or searches it).
const allControllers = "CronJob,DaemonSet,Deployment,Job,ReplicaSet,ReplicationController,StatefulSet"

// computeRules returns the policy's rules followed by the rules autogen
// generates for pod controllers, as Kyverno's autogen v1 does.
func computeRules(p *Policy) ([]Rule, error) {
	if !canAutogen(&p.Spec) {
		return p.Spec.Rules, nil
	}
	controllers := allControllers
	if v, ok := p.Metadata.Annotations[AnnotationAutogenControllers]; ok {
		controllers = v
	}
	if controllers == "none" {
		return p.Spec.Rules, nil
	}
	var generated []Rule
	// Upstream also generates rules for validate and verifyImages Pod
	// rules; they are not applied here, but their existence still makes
	// autogen drop user rules named autogen-*.
	othersGenerated := false
	for i := range p.Spec.Rules {
		r := &p.Spec.Rules[i]
		if r.Mutate == nil && (r.Validate != nil || r.VerifyImages != nil) {
			base := *r
			base.Mutate = &Mutation{PatchStrategicMerge: map[string]any{}}
			othersGenerated = othersGenerated || controllerRule(&base, stripCronJob(controllers)) != nil || cronJobRule(&base, controllers) != nil
			continue
		}
		if g := controllerRule(r, stripCronJob(controllers)); g != nil {
			conv, err := rewriteRequestPaths(g, "Pod")
			if err != nil {
				return nil, fmt.Errorf("autogen rule for %q: %w", r.Name, err)
			}
			generated = append(generated, *conv)
		}
		if g := cronJobRule(r, controllers); g != nil {
			conv, err := rewriteRequestPaths(g, "CronJob")
			if err != nil {
				return nil, fmt.Errorf("autogen cronjob rule for %q: %w", r.Name, err)
			}
			generated = append(generated, *conv)
		}
	}
	if len(generated) == 0 && !othersGenerated {
		return p.Spec.Rules, nil
	}
	var out []Rule
	for _, r := range p.Spec.Rules {
		if !strings.HasPrefix(r.Name, "autogen-") {
			out = append(out, r)
		}
	}
	return append(out, generated...), nil
}

// canAutogen is upstream's CanAutoGen: no generate rules and no JSON
// patches (top level or first-level foreach); no filter with a name,
// names, a selector, annotations or Pod among other kinds; and some filter
// names Pod or a pod controller literally.
func canAutogen(spec *Spec) bool {
	needed := false
	supported := func(d *ResourceDescription) bool {
		if d.Name != "" || len(d.Names) > 0 || d.Selector != nil || d.Annotations != nil ||
			(len(d.Kinds) > 1 && containsKind(d.Kinds, "Pod")) {
			return false
		}
		for _, k := range d.Kinds {
			if _, ok := podControllerGVK[k]; ok {
				needed = true
			}
		}
		return true
	}
	for i := range spec.Rules {
		r := &spec.Rules[i]
		if r.Generate != nil {
			return false
		}
		if m := r.Mutate; m != nil {
			if m.PatchesJSON6902 != "" {
				return false
			}
			for _, fe := range m.ForEach {
				if fe.PatchesJSON6902 != "" {
					return false
				}
			}
		}
		blocks := []*MatchResources{&r.Match}
		if r.Exclude != nil {
			blocks = append(blocks, r.Exclude)
		}
		for _, b := range blocks {
			if !supported(&b.Resources) {
				return false
			}
			for _, f := range append(slices.Clone(b.Any), b.All...) {
				if !supported(&f.Resources) {
					return false
				}
			}
		}
	}
	return needed
}

// containsKind reports whether a kinds list names kind, in any selector
// form ("Pod", "v1/Pod", "Pod/status").
func containsKind(kinds []string, kind string) bool {
	for _, k := range kinds {
		if _, _, kk, _ := parseKindSelector(k); kk == kind {
			return true
		}
	}
	return false
}

func stripCronJob(controllers string) string {
	var out []string
	for _, c := range splitKinds(controllers) {
		if c != "CronJob" {
			out = append(out, c)
		}
	}
	return strings.Join(out, ",")
}

func splitKinds(controllers string) []string {
	kinds := strings.Split(controllers, ",")
	sort.Strings(kinds)
	return kinds
}

func (m *MatchResources) kinds() []string {
	kinds := slices.Clone(m.Resources.Kinds)
	for _, f := range m.All {
		kinds = append(kinds, f.Resources.Kinds...)
	}
	for _, f := range m.Any {
		kinds = append(kinds, f.Resources.Kinds...)
	}
	return kinds
}

// controllerRule is upstream's generateRuleForControllers.
func controllerRule(r *Rule, controllers string) *Rule {
	if strings.HasPrefix(r.Name, "autogen-") || controllers == "" {
		return nil
	}
	var excludeKinds []string
	if r.Exclude != nil {
		excludeKinds = r.Exclude.kinds()
	}
	if !containsKind(r.Match.kinds(), "Pod") || (len(excludeKinds) > 0 && !containsKind(excludeKinds, "Pod")) {
		return nil
	}
	if controllers != "none" {
		var valid []string
		for _, c := range splitKinds(controllers) {
			if _, ok := podControllerGVK[c]; ok && c != "CronJob" && c != "Pod" {
				valid = append(valid, c)
			}
		}
		if len(valid) > 0 {
			controllers = strings.Join(valid, ",")
		}
	}
	return generateRule(autogenName("autogen", r.Name), r, "template", splitKinds(controllers), func(fs []ResourceFilter, kinds []string) []ResourceFilter {
		out := slices.Clone(fs)
		for i := range out {
			if containsKind(out[i].Resources.Kinds, "Pod") {
				out[i].Resources.Kinds = kindsToGVK(kinds)
			}
		}
		return out
	})
}

// cronJobRule is upstream's generateCronJobRule: built from the controller
// rule, for CronJobs.
func cronJobRule(r *Rule, controllers string) *Rule {
	if !strings.Contains(controllers, "CronJob") && !strings.Contains(controllers, "all") {
		return nil
	}
	base := controllerRule(r, controllers)
	if base == nil {
		return nil
	}
	return generateRule(autogenName("autogen-cronjob", r.Name), base, "jobTemplate", []string{"CronJob"}, func(fs []ResourceFilter, kinds []string) []ResourceFilter {
		out := slices.Clone(fs)
		for i := range out {
			out[i].Resources.Kinds = kindsToGVK(kinds)
		}
		return out
	})
}

func autogenName(prefix, name string) string {
	name = prefix + "-" + name
	if len(name) > 63 {
		name = name[:63]
	}
	return name
}

func kindsToGVK(kinds []string) []string {
	out := make([]string, 0, len(kinds))
	for _, k := range kinds {
		if gvk, ok := podControllerGVK[k]; ok {
			k = gvk
		}
		out = append(out, k)
	}
	return out
}

// generateRule copies r under a new name with its kinds replaced and its
// patches wrapped in spec.<tplKey>. Only mutate rules matter here; a rule
// with neither a strategic merge patch nor foreach generates nothing.
func generateRule(name string, r *Rule, tplKey string, kinds []string, filters func([]ResourceFilter, []string) []ResourceFilter) *Rule {
	g, err := deepCopyRule(r)
	if err != nil || g.Mutate == nil {
		return nil
	}
	g.Name = name
	switch {
	case len(g.Match.Any) > 0:
		g.Match.Any = filters(g.Match.Any, kinds)
	case len(g.Match.All) > 0:
		g.Match.All = filters(g.Match.All, kinds)
	default:
		g.Match.Resources.Kinds = kindsToGVK(kinds)
	}
	if x := g.Exclude; x != nil {
		switch {
		case len(x.Any) > 0:
			x.Any = filters(x.Any, kinds)
		case len(x.All) > 0:
			x.All = filters(x.All, kinds)
		case len(x.Resources.Kinds) > 0:
			x.Resources.Kinds = kindsToGVK(kinds)
		}
	}
	if g.Preconditions != nil { // upstream re-encodes them, which drops an empty any or all
		if c, err := conditions.Parse(g.Preconditions); err == nil {
			g.Preconditions = c.JSON()
		}
	}
	wrap := func(p any) any { return map[string]any{"spec": map[string]any{tplKey: p}} }
	switch {
	case g.Mutate.PatchStrategicMerge != nil:
		g.Mutate = &Mutation{PatchStrategicMerge: wrap(g.Mutate.PatchStrategicMerge)}
	case len(g.Mutate.ForEach) > 0:
		var fes []ForEachMutation
		for _, fe := range g.Mutate.ForEach {
			fes = append(fes, ForEachMutation{List: fe.List, Context: fe.Context, Preconditions: fe.Preconditions,
				PatchStrategicMerge: wrap(fe.PatchStrategicMerge)})
		}
		g.Mutate = &Mutation{ForEach: fes}
	default:
		return nil
	}
	return g
}

func deepCopyRule(r *Rule) (*Rule, error) {
	var out Rule
	if err := convertJSON(r, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// requestPathRewrites are the byte-level rewrites upstream applies to a
// generated rule's JSON, so that request.object.spec and .metadata point
// into the pod template.
var requestPathRewrites = map[string][][2]string{
	"Pod": {
		{"request.object.spec", "request.object.spec.template.spec"},
		{"request.oldObject.spec", "request.oldObject.spec.template.spec"},
		{"request.object.metadata", "request.object.spec.template.metadata"},
		{"request.oldObject.metadata", "request.oldObject.spec.template.metadata"},
	},
	"CronJob": {
		{"request.object.spec", "request.object.spec.jobTemplate.spec.template.spec"},
		{"request.oldObject.spec", "request.oldObject.spec.jobTemplate.spec.template.spec"},
		{"request.object.metadata", "request.object.spec.jobTemplate.spec.template.metadata"},
		{"request.oldObject.metadata", "request.oldObject.spec.jobTemplate.spec.template.metadata"},
	},
}

func rewriteRequestPaths(r *Rule, kind string) (*Rule, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	for _, rw := range requestPathRewrites[kind] {
		b = bytes.ReplaceAll(b, []byte(rw[0]), []byte(rw[1]))
	}
	var out Rule
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
