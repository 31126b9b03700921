// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package conformancetest

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

// Case is one file of testdata/conformance (see
// testdata/conformance/FORMAT.md).
type Case struct {
	// ID is "<folder>/<file name without .yaml>", e.g. "karmada/image-registry-add".
	ID          string           `yaml:"-"`
	Name        string           `yaml:"name"`
	System      string           `yaml:"system"`
	Source      string           `yaml:"source"`
	Cluster     *Cluster         `yaml:"cluster"`
	Resources   []map[string]any `yaml:"resources"`
	Policies    []map[string]any `yaml:"policies"`
	Expected    []map[string]any `yaml:"expected"`
	ExpectError string           `yaml:"expectError"`
	Note        string           `yaml:"note"`

	// A placement case (testdata/conformance/placement) renders a fleet:
	// Clusters are the inventory's cluster objects as written, Placement
	// the functionConfig's spec.placement, and ExpectedClusters what each
	// cluster receives. Split turns it into one case per cluster.
	Clusters         []map[string]any            `yaml:"clusters"`
	Placement        string                      `yaml:"placement"`
	ExpectedClusters map[string][]map[string]any `yaml:"expectedClusters"`
	// Render is the cluster a split placement case renders.
	Render string `yaml:"-"`
}

// SplitAll is the runs of every case (Split).
func SplitAll(cases []*Case) []*Case {
	var out []*Case
	for _, c := range cases {
		out = append(out, c.Split()...)
	}
	return out
}

// Split is the runs of a case: the case itself, or for a placement case
// one case per cluster of ExpectedClusters (sorted), with the ID
// "<id>@<cluster>" and that cluster's expectation. An expectError
// placement case renders its first cluster.
func (c *Case) Split() []*Case {
	if c.Clusters == nil {
		return []*Case{c}
	}
	var names []string
	for n := range c.ExpectedClusters {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) == 0 {
		if name, ok := c.Clusters[0]["metadata"].(map[string]any)["name"].(string); ok {
			names = []string{name}
		}
	}
	out := make([]*Case, 0, len(names))
	for _, n := range names {
		rc := *c
		rc.ID, rc.Render, rc.Expected = c.ID+"@"+n, n, c.ExpectedClusters[n]
		if rc.Expected == nil {
			rc.Expected = []map[string]any{}
		}
		out = append(out, &rc)
	}
	return out
}

// Cluster is a case's member cluster.
type Cluster struct {
	Name        string            `yaml:"name"`
	Labels      map[string]string `yaml:"labels"`
	Provider    string            `yaml:"provider"`
	Region      string            `yaml:"region"`
	Zone        string            `yaml:"zone"`
	Zones       []string          `yaml:"zones"`
	APIEndpoint string            `yaml:"apiEndpoint"`
}

// Load reads the cases under dir (testdata/conformance), sorted by ID; with
// folders, only the cases of those folders (e.g. "karmada", "ack-one").
func Load(t testing.TB, dir string, folders ...string) []*Case {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "no conformance cases under %s", dir)
	var cases []*Case
	for _, f := range files {
		folder := filepath.Base(filepath.Dir(f))
		if len(folders) > 0 && !slices.Contains(folders, folder) {
			continue
		}
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		c := &Case{}
		require.NoError(t, yaml.Unmarshal(data, c), f)
		c.ID = folder + "/" + strings.TrimSuffix(filepath.Base(f), ".yaml")
		cases = append(cases, c)
	}
	require.NotEmpty(t, cases, "no conformance cases in %v under %s", folders, dir)
	sort.Slice(cases, func(i, j int) bool { return cases[i].ID < cases[j].ID })
	return cases
}

// Divergence is a case whose upstream behaviour apply-overrides
// deliberately does not reproduce.
type Divergence struct{ ExpectError, Why string }

// Divergences are the cases whose upstream behaviour apply-overrides
// deliberately does not reproduce (README "Kyverno", "Rejected"), keyed by
// system/name: the case stays as upstream recorded it, and the run must
// fail with the error that replaces the upstream outcome.
var Divergences = map[string]Divergence{
	"kyverno/match-userinfo-ignored-without-admission-info": {
		ExpectError: "user info criteria (subjects, roles, clusterRoles) are not supported",
		Why:         "kyverno apply drops user criteria from match filters when it has no --userinfo, so the rule applies to everyone; a render must not silently widen a rule meant for one user",
	},
	"kyverno/smp-equality-anchor-is-literal-key": {
		ExpectError: "equality anchor =(team) is not supported in a mutate patch",
		Why:         "Kyverno does not interpret =() and X() anchors in mutate patches and merges them into the resource as literal keys (kyverno issue #2109); the render rejects them instead of writing keys like \"=(team)\" into a manifest",
	},
	"karmada/spread-cluster-max-groups-by-name": {
		ExpectError: "PropagationPolicy default/web spec.placement.spreadConstraints: apps/v1 Deployment default/web: the placement depends on the clusters' available replicas, which Karmada reads from Cluster status.resourceSummary, and cluster(s) member1, member2, member3 carry none",
		Why:         "Karmada counts a Cluster without status.resourceSummary as full and then picks by name; an inventory kept in git usually has no status while the live clusters do, so the render asks for the status instead of picking the wrong clusters (README \"Placement\")",
	},
	"kyverno/match-namespace-selector-no-labels-offline": {
		ExpectError: "namespaceSelector needs the labels of namespace \"prod\"",
		Why:         "kyverno apply evaluates namespaceSelector against an empty label set offline, so the rule silently never applies; the render asks for the Namespace object instead",
	},
}

// Diverge replaces the expectation of a case listed in Divergences with
// the error that apply-overrides reports instead, and logs why.
func (c *Case) Diverge(t testing.TB) {
	t.Helper()
	if d, ok := Divergences[c.System+"/"+c.Name]; ok {
		t.Logf("diverges from upstream on purpose: %s", d.Why)
		c.Expected, c.ExpectError = nil, d.ExpectError
	}
}

// ResourceList builds the ResourceList FORMAT.md describes: the resources,
// the policies and the cluster object, each with kpt's wire annotations,
// and an ApplyOverrides functionConfig naming the cluster.
func ResourceList(t testing.TB, c *Case) []byte {
	t.Helper()
	var items []any
	addAll := func(objs []map[string]any, path string) {
		for i, o := range objs {
			items = append(items, WithWireAnnotations(o, path, i))
		}
	}
	addAll(c.Resources, "resources.yaml")
	addAll(c.Policies, "policies.yaml")
	fcSpec := map[string]any{}
	if c.Cluster != nil {
		addAll([]map[string]any{ClusterObject(c)}, "clusters.yaml")
		fcSpec["cluster"] = c.Cluster.Name
	}
	if c.Clusters != nil {
		addAll(c.Clusters, "clusters.yaml")
		fcSpec["cluster"] = c.Render
	}
	if c.Placement != "" {
		fcSpec["placement"] = c.Placement
	}
	rl := map[string]any{
		"apiVersion": "config.kubernetes.io/v1",
		"kind":       "ResourceList",
		"items":      items,
		"functionConfig": map[string]any{
			"apiVersion": "apply-overrides.dev/v1alpha1",
			"kind":       "ApplyOverrides",
			"metadata": map[string]any{
				"name":        "render",
				"annotations": map[string]any{"config.kubernetes.io/local-config": "true"},
			},
			"spec": fcSpec,
		},
	}
	b, err := yaml.Marshal(rl)
	require.NoError(t, err)
	return b
}

// Items is the items of the case's ResourceList, parsed, in order.
func Items(t testing.TB, c *Case) []*yaml.RNode {
	t.Helper()
	rl, err := yaml.Parse(string(ResourceList(t, c)))
	require.NoError(t, err)
	items, err := rl.Pipe(yaml.Lookup("items"))
	require.NoError(t, err)
	if items == nil {
		return nil
	}
	nodes, err := items.Elements()
	require.NoError(t, err)
	return nodes
}

// ClusterObject is the inventory object of the case's cluster: a Karmada
// Cluster, or for KubeAdmiral cases a FederatedCluster.
func ClusterObject(c *Case) map[string]any {
	meta := map[string]any{"name": c.Cluster.Name}
	if len(c.Cluster.Labels) > 0 {
		meta["labels"] = c.Cluster.Labels
	}
	spec := map[string]any{}
	for k, v := range map[string]string{"provider": c.Cluster.Provider, "region": c.Cluster.Region, "zone": c.Cluster.Zone, "apiEndpoint": c.Cluster.APIEndpoint} {
		if v != "" {
			spec[k] = v
		}
	}
	if len(c.Cluster.Zones) > 0 {
		spec["zones"] = c.Cluster.Zones
	}
	switch c.System {
	case "kubeadmiral":
		return map[string]any{"apiVersion": "core.kubeadmiral.io/v1alpha1", "kind": "FederatedCluster", "metadata": meta}
	case "kubefleet":
		return map[string]any{"apiVersion": "cluster.kubernetes-fleet.io/v1beta1", "kind": "MemberCluster", "metadata": meta}
	}
	return map[string]any{"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster", "metadata": meta, "spec": spec}
}

// PolicyCluster is what the function's inventory reads from ClusterObject:
// a FederatedCluster has only a name and labels. Nil without a cluster.
func PolicyCluster(c *Case) *policy.Cluster {
	if c.Cluster == nil {
		return nil
	}
	pc := &policy.Cluster{Name: c.Cluster.Name, Labels: c.Cluster.Labels}
	if c.System != "kubeadmiral" && c.System != "kubefleet" {
		pc.Provider, pc.Region, pc.Zone, pc.Zones = c.Cluster.Provider, c.Cluster.Region, c.Cluster.Zone, c.Cluster.Zones
	}
	return pc
}

// WithWireAnnotations returns a copy of o with the path and index
// annotations kpt sends.
func WithWireAnnotations(o map[string]any, path string, index int) map[string]any {
	out := map[string]any{}
	for k, v := range o {
		out[k] = v
	}
	meta := map[string]any{}
	if m, ok := o["metadata"].(map[string]any); ok {
		for k, v := range m {
			meta[k] = v
		}
	}
	annos := map[string]any{}
	if a, ok := meta["annotations"].(map[string]any); ok {
		for k, v := range a {
			annos[k] = v
		}
	}
	idx := strconv.Itoa(index)
	annos["config.kubernetes.io/index"] = idx
	annos["config.kubernetes.io/path"] = path
	annos["internal.config.kubernetes.io/index"] = idx
	annos["internal.config.kubernetes.io/path"] = path
	meta["annotations"] = annos
	out["metadata"] = meta
	return out
}
