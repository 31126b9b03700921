// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/resourcelist"
	"github.com/apply-overrides/apply-overrides/policy"
)

// renderOne renders one cluster of data as a single run does (the
// functionConfig's cluster replaced by name) and returns its items as
// written, without results.
func renderOne(t *testing.T, data []byte, name string) string {
	t.Helper()
	in, err := resourcelist.Parse(data, listOptions)
	require.NoError(t, err)
	require.NoError(t, in.FunctionConfig.PipeE(yaml.Lookup("spec"), yaml.SetField("cluster", yaml.NewStringRNode(name))))
	r := &run{rl: &framework.ResourceList{Items: in.Items, FunctionConfig: in.FunctionConfig}}
	out, ok := r.process()
	require.True(t, ok, "%v", r.rl.Results)
	var buf bytes.Buffer
	require.NoError(t, resourcelist.WriteList(&buf, in.APIVersion, in.Kind, listItems(in, out), nil, nil))
	return buf.String()
}

// TestFleetMatchesSingleRuns renders every cluster of the stdin example
// from one parse and holds each to a run of its own: the policies compile
// once and bind to each cluster, and each cluster overrides its own copy
// of the resources.
func TestFleetMatchesSingleRuns(t *testing.T) {
	data, err := os.ReadFile("../examples/stdin/resourcelist.yaml")
	require.NoError(t, err)
	names := []string{"member1", "member2"}

	in, err := resourcelist.Parse(data, listOptions)
	require.NoError(t, err)
	before := make([]string, len(in.Items))
	for i, it := range in.Items {
		before[i] = it.MustString()
	}
	r := &run{rl: &framework.ResourceList{Items: in.Items, FunctionConfig: in.FunctionConfig}}
	renders, ok := r.processFleet(names)
	require.True(t, ok, "%v", r.rl.Results)
	require.Len(t, renders, 2)
	for i, it := range in.Items {
		assert.Equal(t, before[i], it.MustString(), "the parsed items stay as read")
	}
	var outputs []string
	for i, rd := range renders {
		assert.Equal(t, names[i], rd.cluster.Name)
		var buf bytes.Buffer
		require.NoError(t, resourcelist.WriteList(&buf, in.APIVersion, in.Kind, listItems(in, rd.items), nil, nil))
		assert.Equal(t, renderOne(t, data, names[i]), buf.String(), names[i])
		outputs = append(outputs, buf.String())
	}
	assert.NotEqual(t, outputs[0], outputs[1], "the clusters' overrides differ")
	var infos []string
	for _, res := range r.rl.Results {
		infos = append(infos, res.Message)
	}
	assert.Equal(t, []string{
		"cluster member1: applied 3 override rule(s) to 2 resource(s)",
		"cluster member2: applied 0 override rule(s) to 0 resource(s)",
	}, infos)
}

// placeDialect is a dialect whose placement leaves ConfigMaps out of
// member2 and gives Deployments a share of 3 replicas on member2; whole
// says it decided from every resource at once.
type placeDialect struct{ whole bool }

func (placeDialect) Claims(apiVersion, kind string) (bool, error) { return false, nil }

func (d placeDialect) Compile([]*yaml.RNode) (policy.Policies, []error) {
	return placePolicies{d.whole}, nil
}

type placePolicies struct{ whole bool }

func (p placePolicies) For(t policy.Target) (policy.Binding, []error) {
	return policy.Binding{Placer: placer{t.Cluster.Name}, PlacesWhole: p.whole}, nil
}

type placer struct{ cluster string }

var placementRef = policy.Ref{APIVersion: "x.test/v1", Kind: "Placement", Name: "p"}

func (p placer) Place(res *policy.Resource) (policy.Placement, bool, error) {
	if p.cluster != "member2" {
		return policy.Placement{}, false, nil
	}
	switch res.Kind {
	case "ConfigMap":
		return policy.Placement{Placed: false, By: &placementRef, Reason: "not for member2"}, true, nil
	case "Deployment":
		three := int64(3)
		return policy.Placement{Placed: true, Replicas: &three, By: &placementRef,
			Revise: policy.Step{Field: "spec.replicas", Filter: yaml.FilterFunc(func(rn *yaml.RNode) (*yaml.RNode, error) {
				return rn.Pipe(yaml.Lookup("spec"), yaml.SetField("replicas", yaml.NewScalarRNode("3")))
			})}}, true, nil
	}
	return policy.Placement{}, false, nil
}

// withDialect adds d to the dialects for the test.
func withDialect(t *testing.T, d Dialect) {
	saved := Dialects
	Dialects = append(slices.Clone(Dialects), d)
	t.Cleanup(func() { Dialects = saved })
}

// TestPlaceBeforeOverride drives the PLACE step with a placer: a resource
// it leaves out is not written for that cluster and gets an info result
// (under keepPolicies it stays, as local configuration), and a revised
// replica count is written before the overrides run. A placer that decides
// on each resource alone streams, byte for byte as the whole list; one that
// decided from every resource at once hands the run to the whole list.
func TestPlaceBeforeOverride(t *testing.T) {
	data, err := os.ReadFile("../examples/stdin/resourcelist.yaml")
	require.NoError(t, err)
	for _, whole := range []bool{false, true} {
		for _, keep := range []bool{false, true} {
			for _, name := range []string{"member1", "member2"} {
				t.Run(fmt.Sprintf("%s whole=%v keep=%v", name, whole, keep), func(t *testing.T) {
					withDialect(t, placeDialect{whole: whole})
					in := bytes.Replace(data, []byte("cluster: member1"), []byte("cluster: "+name), 1)
					if keep {
						in = bytes.Replace(in, []byte("  spec:\n    cluster: "+name), []byte("  spec:\n    keepPolicies: true\n    cluster: "+name), 1)
						require.Contains(t, string(in), "keepPolicies: true")
					}
					parsed, err := resourcelist.Parse(in, listOptions)
					require.NoError(t, err)
					var list bytes.Buffer
					results, ok := executeList(parsed, &list)
					require.True(t, ok)
					var streamed bytes.Buffer
					streamedResults, ok := stream(in, &streamed)
					if whole {
						require.False(t, ok, "a placer that read every resource hands the run over")
						assert.Zero(t, streamed.Len())
					} else {
						require.True(t, ok)
						assert.Equal(t, list.String(), streamed.String())
						assert.Equal(t, results, streamedResults)
					}
					var infos []string
					for _, r := range results {
						infos = append(infos, r.Message)
					}
					out, err := yaml.Parse(list.String())
					require.NoError(t, err)
					items, err := out.Pipe(yaml.Lookup("items"))
					require.NoError(t, err)
					kinds := map[string]int{}
					replicas := map[string]string{}
					for _, it := range items.Content() {
						rn := yaml.NewRNode(it)
						kinds[rn.GetKind()]++
						if rn.GetKind() == "Deployment" {
							replicas[rn.GetName()] = yaml.GetValue(rn.Field("spec").Value.Field("replicas").Value)
						}
						if rn.GetKind() == "ConfigMap" && name == "member2" {
							assert.Equal(t, "true", rn.GetAnnotations()[localConfigAnnotation], "kept as local configuration")
						}
					}
					if name == "member1" {
						assert.Positive(t, kinds["ConfigMap"])
						return
					}
					assert.Contains(t, infos, "v1 ConfigMap shop/web-settings is not placed on cluster member2: not for member2")
					if keep {
						assert.Positive(t, kinds["ConfigMap"], "under keepPolicies what is left out stays")
					} else {
						assert.Zero(t, kinds["ConfigMap"], "placement left the ConfigMaps out")
					}
					require.NotEmpty(t, replicas)
					for dep, n := range replicas {
						assert.Equal(t, "3", n, "deployment %s: the revised count (no override of member2 sets replicas)", dep)
					}
				})
			}
		}
	}
}

// failingPlacer fails on every resource.
type failingPlacer struct{}

func (failingPlacer) Place(*policy.Resource) (policy.Placement, bool, error) {
	return policy.Placement{}, false, fmt.Errorf("placement failed")
}

func TestPlaceError(t *testing.T) {
	pl := &plan{placers: []policy.Placer{failingPlacer{}}, cluster: &policy.Cluster{Name: "member1"}}
	r := &run{}
	o := r.render(yaml.MustParse("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"), pl)
	require.Error(t, o.err)
	assert.True(t, strings.Contains(o.err.Error(), "placement failed"))
}
