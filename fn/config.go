// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/decode"
)

// The typed functionConfig's API.
const (
	ConfigAPIVersion = "apply-overrides.dev/v1alpha1"
	ConfigKind       = "ApplyOverrides"
)

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
		Cluster      string          `yaml:"cluster"`
		Clusters     []InlineCluster `yaml:"clusters"`
		KeepPolicies bool            `yaml:"keepPolicies"`
	} `yaml:"spec"`
}

// configMapKeys are the data keys a ConfigMap functionConfig may carry.
var configMapKeys = map[string]bool{"cluster": true, "keepPolicies": true}

// ParseConfig reads the functionConfig: a typed ApplyOverrides, a ConfigMap
// (what `kpt fn eval -- cluster=member1` sends) or nothing.
func ParseConfig(fc *yaml.RNode) (Config, error) {
	var cfg Config
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
		cfg = Config{Cluster: tc.Spec.Cluster, Clusters: tc.Spec.Clusters, KeepPolicies: tc.Spec.KeepPolicies}
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
			return cfg, fmt.Errorf("invalid functionConfig ConfigMap %s: unknown data key(s) %s: supported keys are cluster and keepPolicies",
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
	default:
		return cfg, fmt.Errorf("unsupported functionConfig %s %s: expected %s %s or v1 ConfigMap",
			apiVersion, kind, ConfigAPIVersion, ConfigKind)
	}
	return cfg, nil
}
