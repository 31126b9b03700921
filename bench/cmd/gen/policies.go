// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// The policy types mirror the fields of Karmada's policy/v1alpha1 API
// (pkg/apis/policy/v1alpha1/override_types.go, v1.16.0) that the corpus
// uses; field order is the order they are written in.

type policy struct {
	APIVersion string     `yaml:"apiVersion"`
	Kind       string     `yaml:"kind"`
	Metadata   metadata   `yaml:"metadata"`
	Spec       policySpec `yaml:"spec"`
}

type metadata struct {
	Name      string            `yaml:"name"`
	Namespace string            `yaml:"namespace,omitempty"`
	Labels    map[string]string `yaml:"labels,omitempty"`
}

type policySpec struct {
	ResourceSelectors []resourceSelector `yaml:"resourceSelectors"`
	OverrideRules     []rule             `yaml:"overrideRules"`
}

type resourceSelector struct {
	APIVersion    string         `yaml:"apiVersion"`
	Kind          string         `yaml:"kind"`
	LabelSelector *labelSelector `yaml:"labelSelector,omitempty"`
}

type labelSelector struct {
	MatchLabels      map[string]string `yaml:"matchLabels,omitempty"`
	MatchExpressions []requirement     `yaml:"matchExpressions,omitempty"`
}

type requirement struct {
	Key      string   `yaml:"key"`
	Operator string   `yaml:"operator"`
	Values   []string `yaml:"values"`
}

type rule struct {
	TargetCluster *clusterAffinity `yaml:"targetCluster,omitempty"`
	Overriders    overriders       `yaml:"overriders"`
	matches       bool             // the target cluster is selected
}

type clusterAffinity struct {
	LabelSelector *labelSelector `yaml:"labelSelector,omitempty"`
	ClusterNames  []string       `yaml:"clusterNames,omitempty"`
}

type overriders struct {
	Plaintext            []plaintext     `yaml:"plaintext,omitempty"`
	ImageOverrider       []imageOverride `yaml:"imageOverrider,omitempty"`
	CommandOverrider     []commandArgs   `yaml:"commandOverrider,omitempty"`
	ArgsOverrider        []commandArgs   `yaml:"argsOverrider,omitempty"`
	LabelsOverrider      []labelAnnot    `yaml:"labelsOverrider,omitempty"`
	AnnotationsOverrider []labelAnnot    `yaml:"annotationsOverrider,omitempty"`
}

type plaintext struct {
	Path     string `yaml:"path"`
	Operator string `yaml:"operator"`
	Value    any    `yaml:"value"`
}

type imageOverride struct {
	Component string `yaml:"component"`
	Operator  string `yaml:"operator"`
	Value     string `yaml:"value"`
}

type commandArgs struct {
	ContainerName string   `yaml:"containerName"`
	Operator      string   `yaml:"operator"`
	Value         []string `yaml:"value"`
}

type labelAnnot struct {
	Operator string            `yaml:"operator"`
	Value    map[string]string `yaml:"value"`
}

// selects reports whether a label selector of the corpus (on app or tier,
// or nil for all) selects the resources of an app.
func (s *labelSelector) selects(a *app) bool {
	if s == nil {
		return true
	}
	label := map[string]string{"app": a.name, "tier": a.tier, "team": a.team}
	for k, v := range s.MatchLabels {
		if label[k] != v {
			return false
		}
	}
	for _, e := range s.MatchExpressions {
		if e.Operator != "In" || !slices.Contains(e.Values, label[e.Key]) {
			return false
		}
	}
	return true
}

// String is the selector in kustomize's (and kubectl's) syntax.
func (s *labelSelector) String() string {
	var parts []string
	for _, k := range sortedKeys(s.MatchLabels) {
		parts = append(parts, k+"="+s.MatchLabels[k])
	}
	for _, e := range s.MatchExpressions {
		parts = append(parts, fmt.Sprintf("%s in (%s)", e.Key, strings.Join(e.Values, ",")))
	}
	return strings.Join(parts, ",")
}

// cluster is the one member cluster the corpus renders for.
type cluster struct {
	name, other string // other: a cluster name that is not this one
	labels      map[string]string
}

func newCluster(name string) cluster {
	other := "member2"
	if name == other {
		other = "member3"
	}
	return cluster{name: name, other: other, labels: map[string]string{"env": "prod", "region": "us-east-1"}}
}

// yaml is the Karmada Cluster object.
func (c cluster) yaml() string {
	return fmt.Sprintf(`apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: %s
  labels:
    env: prod
    region: us-east-1
spec:
  syncMode: Push
  apiEndpoint: https://%s.bench.example:6443
  provider: aws
  region: us-east-1
  zone: us-east-1a
`, c.name, c.name)
}

// targetCluster draws a rule's target: about 85 % select the cluster.
func targetCluster(r *rand.Rand, c cluster) (*clusterAffinity, bool) {
	switch x := r.IntN(20); {
	case x < 5:
		return &clusterAffinity{ClusterNames: []string{c.name}}, true
	case x < 9:
		return &clusterAffinity{ClusterNames: []string{c.other, c.name}}, true
	case x < 13:
		return &clusterAffinity{LabelSelector: &labelSelector{MatchLabels: map[string]string{"env": "prod"}}}, true
	case x < 17:
		return &clusterAffinity{LabelSelector: &labelSelector{MatchLabels: map[string]string{"region": "us-east-1"}}}, true
	case x < 19:
		return &clusterAffinity{ClusterNames: []string{c.other}}, false
	default:
		return &clusterAffinity{LabelSelector: &labelSelector{MatchLabels: map[string]string{"env": "staging"}}}, false
	}
}

// Value pools. Keys are shared between policies so that the order in which
// policies apply shows in the result; none is a label that selectors use.
var (
	registries   = []string{"mirror.bench.example", "registry.eu.bench.example", "cache.bench.example:5000"}
	imageTags    = []string{"v2.0.1", "stable", "1.27-hotfix", "canary"}
	labelKeys    = []string{"bench.example/rollout", "bench.example/cost-center", "ring", "bench.example/cluster-role"}
	labelValues  = []string{"canary", "stable", "ring-1", "ring-2", "cc-100", "cc-200"}
	annotKeys    = []string{"bench.example/owner", "bench.example/change", "bench.example/note", "deploy.bench.example/window"}
	annotValues  = []string{"team-a", "team-b", "CHG-1234", "CHG-5678", "weekdays 09:00-17:00", "do not scale by hand"}
	commandAdds  = []string{"--cluster-aware", "--tracing", "--profile"}
	argsAdds     = []string{"--region=us-east-1", "--cache-size=512", "--verbose", "--shard=2"}
	replicaCount = []int{2, 3, 5, 8}
)

// genPolicies draws P OverridePolicies, policy j in namespace j mod len(ns).
func genPolicies(r *rand.Rand, P int, namespaces []string, apps []app, c cluster) []policy {
	ps := make([]policy, 0, P)
	for j := 0; j < P; j++ {
		// 1–3 distinct kinds sharing one label selector.
		sel := pickKinds(r)
		ls, what := policySelector(r, apps)
		p := policy{
			APIVersion: "policy.karmada.io/v1alpha1",
			Kind:       "OverridePolicy",
			Metadata:   metadata{Name: fmt.Sprintf("op-%04d-%s", j, what), Namespace: namespaces[j%len(namespaces)]},
		}
		allReplicas := true
		for _, k := range sel {
			p.Spec.ResourceSelectors = append(p.Spec.ResourceSelectors, resourceSelector{APIVersion: k.apiVersion, Kind: k.kind, LabelSelector: ls})
			allReplicas = allReplicas && k.replicas
		}
		for n := 1 + r.IntN(3); n > 0; n-- {
			tc, ok := targetCluster(r, c)
			p.Spec.OverrideRules = append(p.Spec.OverrideRules, rule{TargetCluster: tc, Overriders: genOverriders(r, allReplicas), matches: ok})
		}
		ps = append(ps, p)
	}
	return ps
}

// policySelector draws app=X (50 %), tier=Y (30 %) or app In (a, b[, c]).
func policySelector(r *rand.Rand, apps []app) (*labelSelector, string) {
	switch x := r.IntN(10); {
	case x < 5:
		a := apps[r.IntN(len(apps))].name
		return &labelSelector{MatchLabels: map[string]string{"app": a}}, a
	case x < 8:
		t := tiers[r.IntN(len(tiers))]
		return &labelSelector{MatchLabels: map[string]string{"tier": t}}, t
	default:
		var vals []string
		for _, k := range r.Perm(len(apps))[:2+r.IntN(2)] {
			vals = append(vals, apps[k].name)
		}
		slices.Sort(vals)
		return &labelSelector{MatchExpressions: []requirement{{Key: "app", Operator: "In", Values: vals}}}, "apps"
	}
}

// genOverriders draws 1–3 distinct overrider kinds for one rule.
func genOverriders(r *rand.Rand, replicas bool) overriders {
	var o overriders
	for _, k := range r.Perm(6)[:1+r.IntN(3)] {
		switch k {
		case 0:
			if r.IntN(2) == 0 {
				o.ImageOverrider = append(o.ImageOverrider, imageOverride{"Registry", "replace", pick(r, registries)})
			}
			if r.IntN(2) == 0 || len(o.ImageOverrider) == 0 {
				o.ImageOverrider = append(o.ImageOverrider, imageOverride{"Tag", "replace", pick(r, imageTags)})
			}
		case 1:
			o.CommandOverrider = []commandArgs{{pick(r, []string{"main", "sidecar"}), "add", []string{pick(r, commandAdds)}}}
		case 2:
			o.ArgsOverrider = []commandArgs{{pick(r, []string{"main", "sidecar"}), "add", []string{pick(r, argsAdds), pick(r, argsAdds)}}}
		case 3:
			o.LabelsOverrider = []labelAnnot{{"add", map[string]string{pick(r, labelKeys): pick(r, labelValues)}}}
		case 4:
			o.AnnotationsOverrider = []labelAnnot{{"add", map[string]string{pick(r, annotKeys): pick(r, annotValues), "bench.example/touched": "true"}}}
		case 5:
			if replicas {
				o.Plaintext = []plaintext{{"/spec/replicas", "replace", pick(r, replicaCount)}}
			} else {
				o.Plaintext = []plaintext{{"/metadata/annotations/bench.example~1plaintext", "add", pick(r, annotValues)}}
			}
		}
	}
	return o
}

// clusterPolicies are the two ClusterOverridePolicies: a registry mirror
// for every pod-template kind of every namespace, and annotations for the
// edge tiers.
func clusterPolicies(c cluster) []policy {
	podKinds := []resourceSelector{
		{APIVersion: "apps/v1", Kind: "Deployment"},
		{APIVersion: "apps/v1", Kind: "StatefulSet"},
		{APIVersion: "apps/v1", Kind: "DaemonSet"},
	}
	edge := &labelSelector{MatchExpressions: []requirement{{Key: "tier", Operator: "In", Values: []string{"frontend", "backend"}}}}
	return []policy{{
		APIVersion: "policy.karmada.io/v1alpha1",
		Kind:       "ClusterOverridePolicy",
		Metadata:   metadata{Name: "cop-0000-global-mirror"},
		Spec: policySpec{
			ResourceSelectors: podKinds,
			OverrideRules: []rule{{
				TargetCluster: &clusterAffinity{ClusterNames: []string{c.name}},
				Overriders: overriders{
					ImageOverrider:  []imageOverride{{"Registry", "replace", "mirror." + c.name + ".bench.example"}},
					LabelsOverrider: []labelAnnot{{"add", map[string]string{"bench.example/mirrored": "true"}}},
				},
				matches: true,
			}, {
				TargetCluster: &clusterAffinity{ClusterNames: []string{c.other}},
				Overriders:    overriders{ImageOverrider: []imageOverride{{"Registry", "replace", "mirror." + c.other + ".bench.example"}}},
			}},
		},
	}, {
		APIVersion: "policy.karmada.io/v1alpha1",
		Kind:       "ClusterOverridePolicy",
		Metadata:   metadata{Name: "cop-0001-edge-tiers"},
		Spec: policySpec{
			ResourceSelectors: []resourceSelector{
				{APIVersion: "apps/v1", Kind: "Deployment", LabelSelector: edge},
				{APIVersion: "v1", Kind: "ConfigMap", LabelSelector: edge},
				{APIVersion: "v1", Kind: "Service", LabelSelector: edge},
			},
			OverrideRules: []rule{{
				TargetCluster: &clusterAffinity{LabelSelector: &labelSelector{MatchLabels: map[string]string{"env": "prod"}}},
				Overriders: overriders{
					AnnotationsOverrider: []labelAnnot{{"add", map[string]string{"bench.example/edge": "true", "bench.example/owner": "edge-team"}}},
					Plaintext:            []plaintext{{"/metadata/annotations/bench.example~1edge-checked", "add", "yes"}},
				},
				matches: true,
			}, {
				TargetCluster: &clusterAffinity{LabelSelector: &labelSelector{MatchLabels: map[string]string{"env": "staging"}}},
				Overriders:    overriders{AnnotationsOverrider: []labelAnnot{{"add", map[string]string{"bench.example/edge": "staging"}}}},
			}},
		},
	}}
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// pickKinds draws 1–3 distinct kinds, sorted by kind.
func pickKinds(r *rand.Rand) []kindDef {
	order := r.Perm(len(kinds))
	sel := kinds[:0:0]
	for _, k := range order[:1+r.IntN(3)] {
		sel = append(sel, kinds[k])
	}
	slices.SortFunc(sel, func(a, b kindDef) int { return strings.Compare(a.kind, b.kind) })
	return sel
}
