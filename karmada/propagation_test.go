// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

func decodePP(t *testing.T, kind, apiVersion, spec string) (*propagationPolicy, []error) {
	t.Helper()
	ns := "\n  namespace: default"
	if kind == KindClusterPropagationPolicy {
		ns = ""
	}
	obj := yaml.MustParse("apiVersion: " + apiVersion + "\nkind: " + kind + "\nmetadata:\n  name: pp" + ns + "\nspec:\n" + spec)
	return decodePropagation(obj, policy.RefOf(obj))
}

// TestValidatePropagation holds the validation to
// TestValidatePropagationSpec (karmada v1.16.0
// pkg/util/validation/validation_test.go), case by case, plus the CRD
// schema's checks.
func TestValidatePropagation(t *testing.T) {
	const sel = "  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]\n"
	for name, c := range map[string]struct{ spec, want string }{
		"valid spec": {sel + "  placement: {clusterAffinity: {clusterNames: [m1]}}\n", ""},
		"clusterAffinity.fieldSelector has unsupported key":          {sel + "  placement: {clusterAffinity: {fieldSelector: {matchExpressions: [{key: foo, operator: In, values: [a]}]}}}\n", `unsupported key "foo", must be provider, region, or zone`},
		"clusterAffinity.fieldSelector has unsupported operator":     {sel + "  placement: {clusterAffinity: {fieldSelector: {matchExpressions: [{key: region, operator: Exists}]}}}\n", `unsupported operator "Exists", must be In or NotIn`},
		"clusterAffinities cannot co-exist with clusterAffinity":     {sel + "  placement: {clusterAffinity: {}, clusterAffinities: [{affinityName: a}]}\n", "clusterAffinities cannot co-exist with clusterAffinity"},
		"clusterAffinities with the same affinityName":               {sel + "  placement: {clusterAffinities: [{affinityName: a}, {affinityName: a}]}\n", "each affinity term in a policy must have a unique name"},
		"clusterAffinities[i].fieldSelector has unsupported key":     {sel + "  placement: {clusterAffinities: [{affinityName: a, fieldSelector: {matchExpressions: [{key: foo, operator: In, values: [a]}]}}]}\n", `unsupported key "foo"`},
		"spreadConstraint spreadByLabel co-exist with spreadByField": {sel + "  placement: {spreadConstraints: [{spreadByField: cluster, spreadByLabel: team}]}\n", "spreadByLabel should not co-exist with spreadByField"},
		"spreadConstraint maxGroups lower than minGroups":            {sel + "  placement: {spreadConstraints: [{spreadByField: cluster, minGroups: 3, maxGroups: 2}]}\n", "maxGroups lower than minGroups is not allowed"},
		"spreadConstraint maxGroups lower than 0":                    {sel + "  placement: {spreadConstraints: [{spreadByField: cluster, maxGroups: -1}]}\n", "maxGroups lower than 0 is not allowed"},
		"spreadConstraint minGroups lower than 0":                    {sel + "  placement: {spreadConstraints: [{spreadByField: cluster, minGroups: -1}]}\n", "minGroups lower than 0 is not allowed"},
		"two cluster spread constraints":                             {sel + "  placement: {spreadConstraints: [{spreadByField: cluster}, {spreadByField: cluster}]}\n", "multiple cluster spread constraints are not allowed"},
		"spreadByFieldCluster must be included":                      {sel + "  placement: {spreadConstraints: [{spreadByField: region}]}\n", "the cluster spread constraint must be enabled"},
		"resourceSelector name is empty when preemption is Always":   {sel + "  preemption: Always\n", "name cannot be empty if preemption is Always"},
		"suspension dispatching with dispatchingOnClusters":          {sel + "  suspension: {dispatching: true, dispatchingOnClusters: {clusterNames: [m1]}}\n", "suspension dispatching cannot co-exist with dispatchingOnClusters.clusterNames"},
		"suspension dispatching alone is valid":                      {sel + "  suspension: {dispatching: true}\n", ""},
		"application failover needs propagateDeps":                   {sel + "  failover: {application: {decisionConditions: {tolerationSeconds: 30}}}\n", "application failover is set, propagateDeps must be true"},
		"gracePeriodSeconds only with Gracefully":                    {sel + "  propagateDeps: true\n  failover: {application: {decisionConditions: {}, purgeMode: Directly, gracePeriodSeconds: 10}}\n", "only takes effect when purgeMode is gracefully"},
		"gracePeriodSeconds must be positive":                        {sel + "  propagateDeps: true\n  failover: {application: {decisionConditions: {}, gracePeriodSeconds: 0}}\n", "must be greater than 0"},
		"application failover defaults":                              {sel + "  propagateDeps: true\n  failover: {application: {decisionConditions: {}}}\n", ""},
		// The CRD schema.
		"no resourceSelectors":         {"  placement: {}\n", "spec.resourceSelectors: Required value"},
		"preemption enum":              {sel + "  preemption: Sometimes\n", `spec.preemption: Unsupported value: "Sometimes"`},
		"replicaSchedulingType enum":   {sel + "  placement: {replicaScheduling: {replicaSchedulingType: Split}}\n", `spec.placement.replicaScheduling.replicaSchedulingType: Unsupported value: "Split"`},
		"static weight at least 1":     {sel + "  placement: {replicaScheduling: {weightPreference: {staticWeightList: [{targetCluster: {clusterNames: [m1]}, weight: 0}]}}}\n", "should be greater than or equal to 1"},
		"spreadByField enum":           {sel + "  placement: {spreadConstraints: [{spreadByField: rack}]}\n", `Unsupported value: "rack"`},
		"affinityName length":          {sel + "  placement: {clusterAffinities: [{affinityName: " + strings.Repeat("a", 33) + "}]}\n", "must be 1 to 32 characters long"},
		"excludeClusters is ACK One's": {sel + "  placement: {clusterAffinity: {excludeClusters: [m1]}}\n", `excludeClusters: Forbidden: unknown field: Karmada spells it "exclude"`},
		"unknown field":                {sel + "  placement: {clusterAfinity: {}}\n", "spec.placement.clusterAfinity: Forbidden: unknown field"},
	} {
		t.Run(name, func(t *testing.T) {
			_, errs := decodePP(t, KindPropagationPolicy, "policy.karmada.io/v1alpha1", c.spec)
			if c.want == "" {
				assert.Empty(t, errs)
				return
			}
			require.NotEmpty(t, errs)
			var msgs []string
			for _, e := range errs {
				msgs = append(msgs, e.Error())
			}
			assert.Contains(t, strings.Join(msgs, "\n"), c.want)
		})
	}
}

// TestDefaultPropagation holds the defaults of the CRD schema and the
// mutating webhook (karmada v1.16.0 pkg/webhook/propagationpolicy
// mutating_test.go TestMutatingAdmission_Handle, pkg/util/helper
// policy_test.go TestSetDefaultSpreadConstraints,
// TestSetReplicaDivisionPreferenceWeighted, TestCheckMatchServiceImport).
func TestDefaultPropagation(t *testing.T) {
	p, errs := decodePP(t, KindPropagationPolicy, "policy.karmada.io/v1alpha1", `  resourceSelectors:
  - {apiVersion: apps/v1, kind: Deployment}
  - {apiVersion: multicluster.x-k8s.io/v1alpha1, kind: ServiceImport, namespace: other}
  placement:
    spreadConstraints: [{maxGroups: 2}, {spreadByLabel: team}]
    replicaScheduling: {}
`)
	require.Empty(t, errs)
	assert.Equal(t, "default", p.selectors[0].Namespace, "an empty selector namespace is the policy's")
	assert.Equal(t, "other", p.selectors[1].Namespace)
	assert.True(t, p.propagateDeps, "a ServiceImport selector turns propagateDeps on")
	assert.Equal(t, defaultSchedulerName, p.schedulerName)
	assert.Equal(t, int32(0), p.priority)
	assert.Equal(t, []spreadConstraint{{SpreadByField: "cluster", MaxGroups: 2, MinGroups: 1}, {SpreadByLabel: "team", MinGroups: 1}}, p.placement.SpreadConstraints)
	assert.Equal(t, &replicaScheduling{ReplicaSchedulingType: schedulingDivided, ReplicaDivisionPreference: divisionWeighted}, p.placement.ReplicaScheduling)

	cp, errs := decodePP(t, KindClusterPropagationPolicy, "policy.one.alibabacloud.com/v1alpha1", `  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  priority: 5
  placement: {clusterAffinity: {excludeClusters: [m2]}}
`)
	require.Empty(t, errs)
	assert.Equal(t, "", cp.selectors[0].Namespace, "a cluster-wide policy keeps an empty namespace")
	assert.Equal(t, int32(5), cp.priority)
	assert.Equal(t, []string{"m2"}, cp.placement.ClusterAffinity.Exclude, "ACK One's excludeClusters is exclude")
}

func TestDecodePropagationMetadata(t *testing.T) {
	obj := yaml.MustParse("apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: pp}\nspec: {resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]}\n")
	_, errs := decodePropagation(obj, policy.RefOf(obj))
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Error(), "metadata.namespace: Required value: a PropagationPolicy propagates only resources of its own namespace")
}
