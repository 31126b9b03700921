// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package policy

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLookalikeMisspelt(t *testing.T) {
	op := Lookalike{System: "Karmada", APIVersion: "policy.karmada.io/v1alpha1", Kind: "OverridePolicy", Name: "karmada"}
	cluster := Lookalike{System: "Karmada", APIVersion: "cluster.karmada.io/v1alpha1", Kind: "Cluster", Name: "karmada"}
	cp := Lookalike{System: "Kyverno", APIVersion: "kyverno.io/v1", Kind: "ClusterPolicy", Name: "kyverno"}
	p := Lookalike{System: "Kyverno", APIVersion: "kyverno.io/v1", Kind: "Policy", Name: "kyverno"}
	ack := Lookalike{System: "ACK One", APIVersion: "policy.one.alibabacloud.com/v1alpha1", Kind: "OverridePolicy", Name: "alibabacloud"}
	testCases := map[string]struct {
		l                Lookalike
		apiVersion, kind string
		want             string // "" = not a misspelling
	}{
		"exact":                         {op, "policy.karmada.io/v1alpha1", "OverridePolicy", ""},
		"label missing":                 {op, "karmada.io/v1alpha1", "OverridePolicy", "karmada.io/v1alpha1 OverridePolicy looks like a Karmada OverridePolicy, whose apiVersion is policy.karmada.io/v1alpha1: correct the apiVersion"},
		"label extra":                   {op, "policy.karmada.io.io/v1alpha1", "OverridePolicy", "whose apiVersion is policy.karmada.io/v1alpha1"},
		"typo":                          {op, "policy.karmda.io/v1alpha1", "OverridePolicy", "looks like a Karmada OverridePolicy"},
		"two typos":                     {op, "polcy.karmda.io/v1alpha1", "OverridePolicy", "looks like a Karmada OverridePolicy"},
		"case":                          {op, "Policy.Karmada.io/v1alpha1", "OverridePolicy", "looks like a Karmada OverridePolicy"},
		"contains the name":             {op, "policy.karmada.example.com/v1", "OverridePolicy", "looks like a Karmada OverridePolicy"},
		"no group":                      {op, "v1alpha1", "OverridePolicy", "looks like a Karmada OverridePolicy"},
		"other version":                 {cluster, "cluster.karmada.io/v1", "Cluster", "but cluster.karmada.io/v1 is not supported: the supported apiVersion is cluster.karmada.io/v1alpha1"},
		"kind case in own group":        {cp, "kyverno.io/v1", "Clusterpolicy", "kyverno.io/v1 Clusterpolicy looks like a Kyverno ClusterPolicy, whose kind is spelt ClusterPolicy"},
		"cel group":                     {cp, "policies.kyverno.io/v1alpha1", "ClusterPolicy", "whose apiVersion is kyverno.io/v1"},
		"ack one label missing":         {ack, "one.alibabacloud.com/v1alpha1", "OverridePolicy", "looks like an ACK One OverridePolicy"},
		"another project's OP":          {op, "policy.example.com/v1", "OverridePolicy", ""},
		"kubeadmiral's OP":              {op, "core.kubeadmiral.io/v1alpha1", "OverridePolicy", ""},
		"cluster api":                   {cluster, "cluster.x-k8s.io/v1beta1", "Cluster", ""},
		"old cluster api":               {cluster, "cluster.k8s.io/v1alpha1", "Cluster", ""},
		"rancher":                       {cluster, "management.cattle.io/v3", "Cluster", ""},
		"nvidia gpu operator":           {cp, "nvidia.com/v1", "ClusterPolicy", ""},
		"audit policy":                  {p, "audit.k8s.io/v1", "Policy", ""},
		"legacy scheduler policy":       {p, "v1", "Policy", ""},
		"policy group":                  {p, "policy/v1", "Policy", ""},
		"other kind in a near group":    {op, "karmada.io/v1alpha1", "PropagationPolicy", ""},
		"other kind, case, other group": {op, "karmada.io/v1alpha1", "overridepolicy", ""},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			err := tc.l.Misspelt(tc.apiVersion, tc.kind)
			if tc.want == "" {
				assert.NoError(t, err)
				return
			}
			if assert.Error(t, err) {
				assert.Contains(t, err.Error(), tc.want)
			}
		})
	}
}
