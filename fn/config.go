// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/decode"
	"github.com/apply-overrides/apply-overrides/internal/resourcelist"
	"github.com/apply-overrides/apply-overrides/policy"
)

// The typed functionConfig's API.
const (
	ConfigAPIVersion = "apply-overrides.dev/v1alpha1"
	ConfigKind       = "ApplyOverrides"
)

// listOptions tells the ResourceList reader what the function takes as its
// functionConfig, for the message that rejects one that is not a mapping.
var listOptions = resourcelist.Options{FunctionConfig: "a mapping, a ConfigMap or an " + ConfigAPIVersion + " " + ConfigKind}

// Config is the function's configuration, from either form of functionConfig.
type Config struct {
	// Cluster names the member cluster to render, e.g. "member1".
	Cluster string
	// Clusters is the inline inventory; an entry replaces a Cluster object of
	// the same name from the input.
	Clusters []InlineCluster
	// KeepPolicies keeps policy and inventory objects in the output (needed
	// under `kpt fn render`, which writes the output back to the package).
	KeepPolicies bool
	// AdmissionPolicies scopes admission (Kyverno) policies to clusters;
	// without an entry naming it, a policy runs on every cluster.
	AdmissionPolicies []AdmissionScope
	// Placement says whether propagation policies decide what the cluster
	// receives: auto (the default: when the input holds any), enforce or
	// off.
	Placement policy.PlacementMode
	// Render, when set, renders several clusters in one run (fan-out)
	// instead of Cluster: one copy of each resource per cluster that
	// receives it, each under its own path.
	Render *Render
	// Explain adds an info result per resource and cluster naming each
	// policy step that changed it and the JSON pointers it changed, and one
	// per policy saying how many resources and clusters it changed.
	Explain bool
}

// Render is spec.render: which clusters a fan-out run renders and where
// each cluster's copies are written.
type Render struct {
	// Clusters names the clusters in the order they are rendered; ["*"] is
	// every cluster of the inventory, sorted by name.
	Clusters []string `yaml:"clusters"`
	// ClusterSelector keeps, of Clusters, those whose inventory labels it
	// selects.
	ClusterSelector *LabelSelector `yaml:"clusterSelector"`
	// PathTemplate is each copy's config.kubernetes.io/path: {cluster} is
	// the cluster's name and {path} the item's own path.
	PathTemplate string `yaml:"pathTemplate"`
}

// DefaultPathTemplate lays out one folder per cluster, each a copy of the
// package's files.
const DefaultPathTemplate = "{cluster}/{path}"

// allClusters, alone in spec.render.clusters, renders the whole inventory.
const allClusters = "*"

// AdmissionScope is one entry of spec.admissionPolicies: the policies it
// names run only on the clusters it selects (by name or labels).
type AdmissionScope struct {
	// Policies are name patterns: "name" for a ClusterPolicy or a
	// MutatingPolicy, "namespace/name" for a Policy or a
	// NamespacedMutatingPolicy; * and ? are wildcards.
	Policies        []string       `yaml:"policies" required:"true"`
	Clusters        []string       `yaml:"clusters"`
	ClusterSelector *LabelSelector `yaml:"clusterSelector"`
}

// LabelSelector is metav1.LabelSelector.
type LabelSelector struct {
	MatchLabels      map[string]string `yaml:"matchLabels"`
	MatchExpressions []struct {
		Key      string   `yaml:"key" required:"true"`
		Operator string   `yaml:"operator" required:"true"`
		Values   []string `yaml:"values"`
	} `yaml:"matchExpressions"`
}

// InlineCluster is one entry of spec.clusters.
type InlineCluster struct {
	Name     string            `yaml:"name,omitempty" required:"true"`
	Labels   map[string]string `yaml:"labels,omitempty"`
	Provider string            `yaml:"provider,omitempty"`
	Region   string            `yaml:"region,omitempty"`
	Zone     string            `yaml:"zone,omitempty"`
	Zones    []string          `yaml:"zones,omitempty"`
}

type typedConfig struct {
	APIVersion string     `yaml:"apiVersion"`
	Kind       string     `yaml:"kind"`
	Metadata   *yaml.Node `yaml:"metadata"`
	Spec       struct {
		Cluster           string           `yaml:"cluster"`
		Clusters          []InlineCluster  `yaml:"clusters"`
		KeepPolicies      bool             `yaml:"keepPolicies"`
		Placement         string           `yaml:"placement"`
		AdmissionPolicies []AdmissionScope `yaml:"admissionPolicies"`
		Render            *Render          `yaml:"render"`
		Explain           bool             `yaml:"explain"`
	} `yaml:"spec"`
}

// configMapKeys are the data keys a ConfigMap functionConfig may carry.
var configMapKeys = map[string]bool{"cluster": true, "explain": true, "keepPolicies": true, "placement": true, "render": true}

// placementModes are the values of spec.placement (data.placement).
var placementModes = []policy.PlacementMode{policy.PlacementAuto, policy.PlacementEnforce, policy.PlacementOff}

// placementMode reads a placement mode; "" is auto.
func placementMode(v string) (policy.PlacementMode, error) {
	if v == "" {
		return policy.PlacementAuto, nil
	}
	if !slices.Contains(placementModes, policy.PlacementMode(v)) {
		return "", fmt.Errorf("%q is not a placement mode: use auto (place when the input holds propagation policies), enforce or off", v)
	}
	return policy.PlacementMode(v), nil
}

// ParseConfig reads the functionConfig: a typed ApplyOverrides, a ConfigMap
// (what `kpt fn eval -- cluster=member1` sends) or nothing.
func ParseConfig(fc *yaml.RNode) (Config, error) {
	cfg := Config{Placement: policy.PlacementAuto}
	if fc == nil || fc.IsNilOrEmpty() {
		return cfg, nil
	}
	apiVersion, kind := fc.GetApiVersion(), fc.GetKind()
	switch {
	case apiVersion == ConfigAPIVersion && kind == ConfigKind:
		var tc typedConfig
		if errs := decode.Decode(fc.YNode(), nil, &tc); len(errs) > 0 {
			return cfg, fmt.Errorf("invalid functionConfig %s %s: %w", apiVersion, kind, errs.ToAggregate())
		}
		seen := map[string]bool{}
		for i, c := range tc.Spec.Clusters {
			if seen[c.Name] {
				return cfg, fmt.Errorf("invalid functionConfig %s %s: spec.clusters[%d].name: Duplicate value: %q", apiVersion, kind, i, c.Name)
			}
			seen[c.Name] = true
		}
		for i, a := range tc.Spec.AdmissionPolicies {
			if len(a.Policies) == 0 || (len(a.Clusters) == 0 && a.ClusterSelector == nil) {
				return cfg, fmt.Errorf("invalid functionConfig %s %s: spec.admissionPolicies[%d]: name at least one policy and select clusters with clusters or clusterSelector", apiVersion, kind, i)
			}
			if _, err := a.selector(); err != nil {
				return cfg, fmt.Errorf("invalid functionConfig %s %s: spec.admissionPolicies[%d].clusterSelector: %w", apiVersion, kind, i, err)
			}
		}
		mode, err := placementMode(tc.Spec.Placement)
		if err != nil {
			return cfg, fmt.Errorf("invalid functionConfig %s %s: spec.placement: %w", apiVersion, kind, err)
		}
		if err := checkRender(tc.Spec.Render, tc.Spec.Cluster != "", "spec"); err != nil {
			return cfg, fmt.Errorf("invalid functionConfig %s %s: %w", apiVersion, kind, err)
		}
		cfg = Config{Cluster: tc.Spec.Cluster, Clusters: tc.Spec.Clusters, KeepPolicies: tc.Spec.KeepPolicies, AdmissionPolicies: tc.Spec.AdmissionPolicies, Placement: mode, Render: tc.Spec.Render, Explain: tc.Spec.Explain}
	case apiVersion == "v1" && kind == "ConfigMap":
		data := fc.GetDataMap()
		var unknown []string
		for k := range data {
			if !configMapKeys[k] {
				unknown = append(unknown, k)
			}
		}
		if len(unknown) > 0 {
			sort.Strings(unknown)
			return cfg, fmt.Errorf("invalid functionConfig ConfigMap %s: unknown data key(s) %s: supported keys are cluster, explain, keepPolicies, placement and render",
				fc.GetName(), strings.Join(unknown, ", "))
		}
		cfg.Cluster = data["cluster"]
		if v, ok := data["keepPolicies"]; ok {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return cfg, fmt.Errorf("invalid functionConfig ConfigMap %s: data.keepPolicies: %q is not a boolean", fc.GetName(), v)
			}
			cfg.KeepPolicies = b
		}
		if v, ok := data["explain"]; ok {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return cfg, fmt.Errorf("invalid functionConfig ConfigMap %s: data.explain: %q is not a boolean", fc.GetName(), v)
			}
			cfg.Explain = b
		}
		mode, err := placementMode(data["placement"])
		if err != nil {
			return cfg, fmt.Errorf("invalid functionConfig ConfigMap %s: data.placement: %w", fc.GetName(), err)
		}
		cfg.Placement = mode
		if v, ok := data["render"]; ok {
			// The ConfigMap form lists the clusters as one string, which is
			// what `kpt fn eval -- render=member1,member2` can send.
			cfg.Render = &Render{}
			for _, name := range strings.Split(v, ",") {
				cfg.Render.Clusters = append(cfg.Render.Clusters, strings.TrimSpace(name))
			}
			if err := checkRender(cfg.Render, cfg.Cluster != "", "data"); err != nil {
				return cfg, fmt.Errorf("invalid functionConfig ConfigMap %s: %w", fc.GetName(), err)
			}
		}
	default:
		return cfg, fmt.Errorf("unsupported functionConfig %s %s: expected %s %s or v1 ConfigMap",
			apiVersion, kind, ConfigAPIVersion, ConfigKind)
	}
	return cfg, nil
}

// selector builds the entry's cluster selector (nil without one).
func (a AdmissionScope) selector() (labels.Selector, error) { return a.ClusterSelector.selector() }

// selector is the label selector as metav1.LabelSelector reads it; nil
// without one.
func (s *LabelSelector) selector() (labels.Selector, error) {
	if s == nil {
		return nil, nil
	}
	ls := &metav1.LabelSelector{MatchLabels: s.MatchLabels}
	for _, e := range s.MatchExpressions {
		ls.MatchExpressions = append(ls.MatchExpressions, metav1.LabelSelectorRequirement{Key: e.Key, Operator: metav1.LabelSelectorOperator(e.Operator), Values: e.Values})
	}
	return metav1.LabelSelectorAsSelector(ls)
}

// placeholderRE finds the {name} placeholders of a path template.
var placeholderRE = regexp.MustCompile(`\{[^{}]*\}`)

// checkRender validates spec.render (data.render under prefix "data") and
// fills in the default path template. hasCluster says whether the config
// also names a single cluster, which fan-out replaces.
func checkRender(rd *Render, hasCluster bool, prefix string) error {
	if rd == nil {
		return nil
	}
	field := prefix + ".render"
	if hasCluster {
		return fmt.Errorf("%s.cluster and %s are exclusive: %[1]s.cluster renders one cluster, %[2]s several in one run; keep one of them", prefix, field)
	}
	if prefix == "spec" {
		field += ".clusters"
	}
	if len(rd.Clusters) == 0 {
		return fmt.Errorf(`%s: name the clusters to render, or ["*"] for every cluster in the inventory`, field)
	}
	seen := map[string]bool{}
	for i, name := range rd.Clusters {
		switch {
		case name == "":
			return fmt.Errorf(`%s[%d]: empty cluster name: name a cluster of the inventory, or "*" for all of them`, field, i)
		case name == allClusters && len(rd.Clusters) > 1:
			return fmt.Errorf(`%s: "*" already renders every cluster of the inventory; leave it alone in the list, or name the clusters instead`, field)
		case seen[name]:
			return fmt.Errorf("%s[%d]: Duplicate value: %q: name each cluster once", field, i, name)
		}
		seen[name] = true
	}
	if _, err := rd.ClusterSelector.selector(); err != nil {
		return fmt.Errorf("%s.render.clusterSelector: %w", prefix, err)
	}
	if rd.PathTemplate == "" {
		rd.PathTemplate = DefaultPathTemplate
	}
	for _, p := range placeholderRE.FindAllString(rd.PathTemplate, -1) {
		if p != "{cluster}" && p != "{path}" {
			return fmt.Errorf("%s.render.pathTemplate: unknown placeholder %s in %q: use {cluster} and {path}", prefix, p, rd.PathTemplate)
		}
	}
	if strings.HasPrefix(rd.PathTemplate, "/") || slices.Contains(strings.Split(rd.PathTemplate, "/"), "..") {
		return fmt.Errorf("%s.render.pathTemplate: %q leaves the package (an absolute path or a .. segment): kpt writes the copies relative to the output directory; use e.g. %q", prefix, rd.PathTemplate, DefaultPathTemplate)
	}
	if !strings.Contains(rd.PathTemplate, "{cluster}") {
		return fmt.Errorf("%s.render.pathTemplate: %q has no {cluster}, so every cluster's copies would land on the same paths: put {cluster} in it, e.g. %q", prefix, rd.PathTemplate, DefaultPathTemplate)
	}
	return nil
}

// selects reports whether the entry selects cluster c.
func (a AdmissionScope) selects(c *policy.Cluster) bool {
	if slices.Contains(a.Clusters, c.Name) {
		return true
	}
	sel, err := a.selector()
	return err == nil && sel != nil && sel.Matches(labels.Set(c.Labels))
}

// scopeAdmission returns which admission policies cluster c runs; nil when
// nothing is scoped (all of them).
func scopeAdmission(c *policy.Cluster, scopes []AdmissionScope) (*policy.Selection, error) {
	if len(scopes) == 0 {
		return nil, nil
	}
	if c == nil {
		return nil, fmt.Errorf("spec.admissionPolicies scopes admission policies to clusters, so the functionConfig must name the cluster to render (spec.cluster)")
	}
	sel := &policy.Selection{}
	for _, a := range scopes {
		sel.Scoped = append(sel.Scoped, a.Policies...)
		if a.selects(c) {
			sel.Selected = append(sel.Selected, a.Policies...)
		}
	}
	return sel, nil
}
