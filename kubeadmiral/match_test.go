// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubeadmiral

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/apply-overrides/apply-overrides/policy"
)

func TestClusterMatches(t *testing.T) {
	member1 := &policy.Cluster{Name: "member1", Labels: map[string]string{"env": "prod", "gpus": "4"}}
	req := func(key, op string, values ...string) requirement {
		return requirement{Key: key, Operator: op, Values: values}
	}
	expr := func(r ...requirement) clusterSelectorTerm { return clusterSelectorTerm{MatchExpressions: r} }
	fieldsTerm := func(r ...requirement) clusterSelectorTerm { return clusterSelectorTerm{MatchFields: r} }
	testCases := map[string]struct {
		t       *targetClusters
		want    bool
		wantErr string
	}{
		"nil matches all":                {nil, true, ""},
		"empty matches all":              {&targetClusters{}, true, ""},
		"names":                          {&targetClusters{Clusters: []string{"member1"}}, true, ""},
		"names miss":                     {&targetClusters{Clusters: []string{"member2"}}, false, ""},
		"selector":                       {&targetClusters{ClusterSelector: map[string]string{"env": "prod"}}, true, ""},
		"selector needs every label":     {&targetClusters{ClusterSelector: map[string]string{"env": "prod", "x": "y"}}, false, ""},
		"invalid selector":               {&targetClusters{ClusterSelector: map[string]string{"bad key!": "x"}}, false, "failed to interpret clusterSelector"},
		"invalid selector short-circuit": {&targetClusters{Clusters: []string{"member2"}, ClusterSelector: map[string]string{"bad key!": "x"}}, false, ""},
		"affinity In":                    {&targetClusters{ClusterAffinity: []clusterSelectorTerm{expr(req("env", "In", "prod"))}}, true, ""},
		"affinity NotIn absent label":    {&targetClusters{ClusterAffinity: []clusterSelectorTerm{expr(req("zone", "NotIn", "a"))}}, true, ""},
		"affinity Gt":                    {&targetClusters{ClusterAffinity: []clusterSelectorTerm{expr(req("gpus", "Gt", "2"))}}, true, ""},
		"affinity empty term":            {&targetClusters{ClusterAffinity: []clusterSelectorTerm{{}}}, false, ""},
		"affinity terms ORed":            {&targetClusters{ClusterAffinity: []clusterSelectorTerm{expr(req("env", "In", "dev")), expr(req("env", "In", "prod"))}}, true, ""},
		"affinity first match wins":      {&targetClusters{ClusterAffinity: []clusterSelectorTerm{expr(req("env", "In", "prod")), expr(req("env", "In"))}}, true, ""},
		"affinity In without values":     {&targetClusters{ClusterAffinity: []clusterSelectorTerm{expr(req("env", "In"))}}, false, "values set can't be empty"},
		"affinity unknown operator":      {&targetClusters{ClusterAffinity: []clusterSelectorTerm{expr(req("env", "Like", "x"))}}, false, `"Like" is not a valid cluster selector operator`},
		"fields name":                    {&targetClusters{ClusterAffinity: []clusterSelectorTerm{fieldsTerm(req("metadata.name", "In", "member1"))}}, true, ""},
		"fields unknown key NotIn":       {&targetClusters{ClusterAffinity: []clusterSelectorTerm{fieldsTerm(req("spec.x", "NotIn", "a"))}}, true, ""},
		"fields Exists":                  {&targetClusters{ClusterAffinity: []clusterSelectorTerm{fieldsTerm(req("metadata.name", "Exists"))}}, false, `"Exists" is not a valid cluster field selector operator`},
		"fields two values":              {&targetClusters{ClusterAffinity: []clusterSelectorTerm{fieldsTerm(req("metadata.name", "In", "a", "b"))}}, false, "unexpected number of value (2)"},
		"expressions and fields ANDed": {&targetClusters{ClusterAffinity: []clusterSelectorTerm{{
			MatchExpressions: []requirement{req("env", "In", "prod")}, MatchFields: []requirement{req("metadata.name", "In", "member2")}}}}, false, ""},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			got, err := clusterMatches(member1, tc.t)
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}
