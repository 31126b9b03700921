// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/apply-overrides/apply-overrides/policy"
)

func TestClusterMatches(t *testing.T) {
	member1 := &policy.Cluster{Name: "member1", Labels: map[string]string{"env": "prod"},
		Provider: "aws", Region: "us-east-1", Zone: "us-east-1c", Zones: []string{"us-east-1a", "us-east-1b"}}
	bare := &policy.Cluster{Name: "bare"}
	req := func(key, op string, values ...string) requirement {
		return requirement{Key: key, Operator: op, Values: values}
	}
	fields := func(r ...requirement) *clusterAffinity {
		return &clusterAffinity{FieldSelector: &fieldSelector{MatchExpressions: r}}
	}
	testCases := map[string]struct {
		cluster *policy.Cluster
		a       *clusterAffinity
		want    bool
		wantErr string
	}{
		"empty affinity matches all":     {member1, &clusterAffinity{}, true, ""},
		"exclude wins over names":        {member1, &clusterAffinity{ClusterNames: []string{"member1"}, Exclude: []string{"member1"}}, false, ""},
		"names":                          {member1, &clusterAffinity{ClusterNames: []string{"member2", "member1"}}, true, ""},
		"names miss":                     {member1, &clusterAffinity{ClusterNames: []string{"member2"}}, false, ""},
		"label selector":                 {member1, &clusterAffinity{LabelSelector: &labelSelector{MatchLabels: map[string]string{"env": "prod"}}}, true, ""},
		"empty label selector":           {bare, &clusterAffinity{LabelSelector: &labelSelector{}}, true, ""},
		"invalid label selector":         {member1, &clusterAffinity{LabelSelector: &labelSelector{MatchExpressions: []requirement{req("env", "Bogus", "x")}}}, false, ""},
		"zone In overlaps":               {member1, fields(req("zone", "In", "us-east-1b", "eu-1")), true, ""},
		"zone In singular zone ignored":  {member1, fields(req("zone", "In", "us-east-1c")), false, ""},
		"zone In no zones":               {bare, fields(req("zone", "In", "x")), false, ""},
		"zone NotIn no zones":            {bare, fields(req("zone", "NotIn", "x")), true, ""},
		"zone NotIn overlapping":         {member1, fields(req("zone", "NotIn", "us-east-1a")), false, ""},
		"zone Exists":                    {member1, fields(req("zone", "Exists")), true, ""},
		"zone DoesNotExist":              {bare, fields(req("zone", "DoesNotExist")), true, ""},
		"zone unknown operator":          {member1, fields(req("zone", "Gt", "1")), false, ""},
		"provider In":                    {member1, fields(req("provider", "In", "aws")), true, ""},
		"region NotIn absent":            {bare, fields(req("region", "NotIn", "us-east-1")), true, ""},
		"region In absent":               {bare, fields(req("region", "In", "us-east-1")), false, ""},
		"unknown key NotIn matches":      {member1, fields(req("metadata.name", "NotIn", "member1")), true, ""},
		"unknown node selector operator": {member1, fields(req("provider", "Bogus", "aws")), false, ""},
		"fields ANDed":                   {member1, fields(req("provider", "In", "aws"), req("region", "In", "eu-west-1")), false, ""},
		"In without values is an error":  {member1, fields(req("provider", "In")), false, "values set can't be empty"},
		"selectors are ANDed":            {member1, &clusterAffinity{LabelSelector: &labelSelector{}, ClusterNames: []string{"member2"}}, false, ""},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			got, err := clusterMatches(tc.cluster, tc.a)
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

func TestSelectorPriority(t *testing.T) {
	res := &policy.Resource{Ref: policy.Ref{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "ns", Name: "web"},
		Labels: map[string]string{"app": "web"}}
	testCases := map[string]struct {
		rs   resourceSelector
		want int
	}{
		"kind only":                   {resourceSelector{APIVersion: "apps/v1", Kind: "Deployment"}, priorityMatchAll},
		"other version":               {resourceSelector{APIVersion: "apps/v1beta1", Kind: "Deployment"}, priorityMismatch},
		"name":                        {resourceSelector{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"}, priorityName},
		"name ignores label selector": {resourceSelector{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", LabelSelector: &labelSelector{MatchLabels: map[string]string{"app": "x"}}}, priorityName},
		"other name":                  {resourceSelector{APIVersion: "apps/v1", Kind: "Deployment", Name: "api"}, priorityMismatch},
		"empty label selector":        {resourceSelector{APIVersion: "apps/v1", Kind: "Deployment", LabelSelector: &labelSelector{}}, priorityLabelSelector},
		"label selector miss":         {resourceSelector{APIVersion: "apps/v1", Kind: "Deployment", LabelSelector: &labelSelector{MatchLabels: map[string]string{"app": "x"}}}, priorityMismatch},
		"namespace miss":              {resourceSelector{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "other"}, priorityMismatch},
		"invalid label selector":      {resourceSelector{APIVersion: "apps/v1", Kind: "Deployment", LabelSelector: &labelSelector{MatchLabels: map[string]string{"bad key!": "x"}}}, priorityMismatch},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			cs := compileSelector(tc.rs)
			assert.Equal(t, tc.want, cs.priority(res))
		})
	}
}
