// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyverno

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParseKindSelector(t *testing.T) {
	for in, want := range map[string][4]string{
		"Pod":                      {"*", "*", "Pod", ""},
		"v1/Pod":                   {"*", "v1", "Pod", ""},
		"v2beta1/HPA":              {"*", "v2beta1", "HPA", ""},
		"apps/v1/Deployment":       {"apps", "v1", "Deployment", ""},
		"Pod/status":               {"*", "*", "Pod", "status"},
		"Pod.status":               {"*", "*", "Pod", "status"},
		"*/*":                      {"*", "*", "*", "*"},
		"*/scale":                  {"*", "*", "*", "scale"},
		"v1/Pod/status":            {"*", "v1", "Pod", "status"},
		"apps/v1/Deployment/scale": {"apps", "v1", "Deployment", "scale"},
		"a/b/c/d/e":                {"", "", "", ""},
	} {
		g, v, k, s := parseKindSelector(in)
		assert.Equal(t, want, [4]string{g, v, k, s}, in)
	}
}

func TestObjectMatches(t *testing.T) {
	deploy := &object{group: "apps", version: "v1", kind: "Deployment", name: "web-1", namespace: "shop",
		labels: map[string]string{"app": "web", "tier": "frontend"}, annotations: map[string]string{"owner": "team-a"}}
	for name, c := range map[string]struct {
		d    ResourceDescription
		want bool
	}{
		"kind":                    {ResourceDescription{Kinds: []string{"Deployment"}}, true},
		"version/kind, any group": {ResourceDescription{Kinds: []string{"v1/Deployment"}}, true},
		"group/version/kind":      {ResourceDescription{Kinds: []string{"apps/v1/Deployment"}}, true},
		"wrong group":             {ResourceDescription{Kinds: []string{"batch/v1/Deployment"}}, false},
		"wildcard kind":           {ResourceDescription{Kinds: []string{"Deploy*"}}, true},
		"subresource only":        {ResourceDescription{Kinds: []string{"Deployment/scale"}}, false},
		"name ? is one char":      {ResourceDescription{Kinds: []string{"Deployment"}, Names: []string{"web-?"}}, true},
		"name ? needs a char":     {ResourceDescription{Kinds: []string{"Deployment"}, Names: []string{"web-1?"}}, false},
		"namespace wildcard":      {ResourceDescription{Kinds: []string{"Deployment"}, Namespaces: []string{"sh*"}}, true},
		"annotation wildcard":     {ResourceDescription{Kinds: []string{"Deployment"}, Annotations: map[string]string{"own*": "team-?"}}, true},
		"selector":                {ResourceDescription{Kinds: []string{"Deployment"}, Selector: &LabelSelector{MatchLabels: map[string]string{"app": "web"}}}, true},
		"selector wildcard value": {ResourceDescription{Kinds: []string{"Deployment"}, Selector: &LabelSelector{MatchLabels: map[string]string{"tier": "front*"}}}, true},
		"selector wildcard miss":  {ResourceDescription{Kinds: []string{"Deployment"}, Selector: &LabelSelector{MatchLabels: map[string]string{"tier": "back*"}}}, false},
		"operations CREATE":       {ResourceDescription{Kinds: []string{"Deployment"}, Operations: []string{"CREATE"}}, true},
		"operations UPDATE only":  {ResourceDescription{Kinds: []string{"Deployment"}, Operations: []string{"UPDATE"}}, false},
		"namespaceSelector no ns": {ResourceDescription{Kinds: []string{"Deployment"}, NamespaceSelector: &LabelSelector{MatchLabels: map[string]string{"env": "prod"}}}, false},
	} {
		assert.Equal(t, c.want, deploy.matchesDescription(&c.d), name)
	}
}

func TestRuleMatchesAnyAllExclude(t *testing.T) {
	cm := &object{version: "v1", kind: "ConfigMap", name: "settings", namespace: "shop", annotations: map[string]string{"skip": "yes"}}
	kinds := func(k ...string) ResourceFilter { return ResourceFilter{Resources: ResourceDescription{Kinds: k}} }
	names := func(n ...string) ResourceFilter { return ResourceFilter{Resources: ResourceDescription{Names: n}} }
	for name, c := range map[string]struct {
		r    Rule
		want bool
	}{
		"any: one matches": {Rule{Match: MatchResources{Any: []ResourceFilter{kinds("Secret"), kinds("ConfigMap")}}}, true},
		"all: every one":   {Rule{Match: MatchResources{All: []ResourceFilter{kinds("ConfigMap"), names("sett*")}}}, true},
		"all: one fails":   {Rule{Match: MatchResources{All: []ResourceFilter{kinds("ConfigMap"), names("other")}}}, false},
		"empty filter":     {Rule{Match: MatchResources{Any: []ResourceFilter{{}}}}, false},
		"exclude any": {Rule{Match: MatchResources{Any: []ResourceFilter{kinds("ConfigMap")}},
			Exclude: &MatchResources{Any: []ResourceFilter{{Resources: ResourceDescription{Annotations: map[string]string{"skip": "yes"}}}}}}, false},
		"exclude all needs all": {Rule{Match: MatchResources{Any: []ResourceFilter{kinds("ConfigMap")}},
			Exclude: &MatchResources{All: []ResourceFilter{names("settings"), names("other")}}}, true},
		"inline": {Rule{Match: MatchResources{Resources: ResourceDescription{Kinds: []string{"ConfigMap"}}}}, true},
	} {
		assert.Equal(t, c.want, c.r.matches(cm), name)
	}
}

func TestMayMatchKind(t *testing.T) {
	cm := &object{version: "v1", kind: "ConfigMap", name: "settings"}
	kinds := func(k ...string) ResourceFilter { return ResourceFilter{Resources: ResourceDescription{Kinds: k}} }
	names := func(n ...string) ResourceFilter { return ResourceFilter{Resources: ResourceDescription{Names: n}} }
	for name, c := range map[string]struct {
		r    Rule
		want bool
	}{
		"any: one kind":          {Rule{Match: MatchResources{Any: []ResourceFilter{kinds("Secret"), kinds("ConfigMap")}}}, true},
		"any: no kind":           {Rule{Match: MatchResources{Any: []ResourceFilter{kinds("Secret"), kinds("Pod")}}}, false},
		"any: names only":        {Rule{Match: MatchResources{Any: []ResourceFilter{names("other")}}}, true},
		"all: one kind fails":    {Rule{Match: MatchResources{All: []ResourceFilter{kinds("ConfigMap"), kinds("Pod")}}}, false},
		"all: kinds and names":   {Rule{Match: MatchResources{All: []ResourceFilter{kinds("ConfigMap"), names("other")}}}, true},
		"empty filter":           {Rule{Match: MatchResources{Any: []ResourceFilter{{}}}}, false},
		"inline kind":            {Rule{Match: MatchResources{Resources: ResourceDescription{Kinds: []string{"v1/ConfigMap"}}}}, true},
		"inline other group":     {Rule{Match: MatchResources{Resources: ResourceDescription{Kinds: []string{"apps/v1/ConfigMap"}}}}, false},
		"exclude does not count": {Rule{Match: MatchResources{Any: []ResourceFilter{kinds("ConfigMap")}}, Exclude: &MatchResources{Any: []ResourceFilter{kinds("ConfigMap")}}}, true},
	} {
		assert.Equal(t, c.want, c.r.mayMatchKind(cm), name)
		if c.r.matches(cm) {
			assert.True(t, c.r.mayMatchKind(cm), "%s: a rule that matches passes the kind test", name)
		}
	}
}
