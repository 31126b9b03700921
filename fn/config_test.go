// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

func TestParseConfig(t *testing.T) {
	testCases := map[string]struct {
		config  string
		want    Config
		wantErr string
	}{
		"none": {config: "", want: Config{Placement: policy.PlacementAuto}},
		"kpt eval placeholder": {config: `
apiVersion: v1
kind: ConfigMap
metadata: {name: function-input}
data: {}`, want: Config{Placement: policy.PlacementAuto}},
		"configmap": {config: `
apiVersion: v1
kind: ConfigMap
metadata: {name: function-input}
data: {cluster: member1, keepPolicies: "true"}`, want: Config{Cluster: "member1", KeepPolicies: true, Placement: policy.PlacementAuto}},
		"configmap placement": {config: `
apiVersion: v1
kind: ConfigMap
metadata: {name: function-input}
data: {cluster: member1, placement: "off"}`, want: Config{Cluster: "member1", Placement: policy.PlacementOff}},
		"configmap bad placement": {config: `
apiVersion: v1
kind: ConfigMap
metadata: {name: function-input}
data: {placement: strict}`, wantErr: `invalid functionConfig ConfigMap function-input: data.placement: "strict" is not a placement mode: use auto (place when the input holds propagation policies), enforce or off`},
		"typed placement": {config: `
apiVersion: apply-overrides.dev/v1alpha1
kind: ApplyOverrides
metadata: {name: render}
spec: {cluster: member1, placement: enforce}`, want: Config{Cluster: "member1", Placement: policy.PlacementEnforce}},
		"typed bad placement": {config: `
apiVersion: apply-overrides.dev/v1alpha1
kind: ApplyOverrides
metadata: {name: render}
spec: {placement: Off}`, wantErr: `invalid functionConfig apply-overrides.dev/v1alpha1 ApplyOverrides: spec.placement: "Off" is not a placement mode: use auto (place when the input holds propagation policies), enforce or off`},
		"configmap unknown key": {config: `
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg}
data: {cluster: member1, clsuter: x}`, wantErr: "unknown data key(s) clsuter"},
		"configmap explain": {config: `
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg}
data: {cluster: member1, explain: "true"}`, want: Config{Cluster: "member1", Explain: true, Placement: policy.PlacementAuto}},
		"configmap bad explain": {config: `
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg}
data: {explain: "verbose"}`, wantErr: `data.explain: "verbose" is not a boolean`},
		"typed explain": {config: `
apiVersion: apply-overrides.dev/v1alpha1
kind: ApplyOverrides
metadata: {name: cfg}
spec: {cluster: member1, explain: true}`, want: Config{Cluster: "member1", Explain: true, Placement: policy.PlacementAuto}},
		"configmap bad bool": {config: `
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg}
data: {keepPolicies: "maybe"}`, wantErr: `data.keepPolicies: "maybe" is not a boolean`},
		"typed": {config: `
apiVersion: apply-overrides.dev/v1alpha1
kind: ApplyOverrides
metadata:
  name: render
  annotations: {config.kubernetes.io/function: "exec: {path: x}"}
spec:
  cluster: member1
  keepPolicies: true
  clusters:
  - name: member1
    labels: {env: prod}
    provider: aws
    region: us-east-1
    zones: [us-east-1a]`, want: Config{Cluster: "member1", KeepPolicies: true, Placement: policy.PlacementAuto, Clusters: []InlineCluster{{
			Name: "member1", Labels: map[string]string{"env": "prod"}, Provider: "aws", Region: "us-east-1", Zones: []string{"us-east-1a"}}}}},
		"admission scope": {config: `
apiVersion: apply-overrides.dev/v1alpha1
kind: ApplyOverrides
metadata: {name: render}
spec:
  cluster: member1
  admissionPolicies:
  - policies: [prod-*]
    clusters: [member1]`, want: Config{Cluster: "member1", Placement: policy.PlacementAuto, AdmissionPolicies: []AdmissionScope{{Policies: []string{"prod-*"}, Clusters: []string{"member1"}}}}},
		"admission scope without clusters": {config: `
apiVersion: apply-overrides.dev/v1alpha1
kind: ApplyOverrides
metadata: {name: render}
spec:
  admissionPolicies:
  - policies: [prod-*]`, wantErr: "spec.admissionPolicies[0]: name at least one policy and select clusters with clusters or clusterSelector"},
		"admission scope bad selector": {config: `
apiVersion: apply-overrides.dev/v1alpha1
kind: ApplyOverrides
metadata: {name: render}
spec:
  admissionPolicies:
  - policies: [a]
    clusterSelector: {matchExpressions: [{key: env, operator: Sometimes}]}`, wantErr: "spec.admissionPolicies[0].clusterSelector: \"Sometimes\" is not a valid label selector operator"},
		"typed unknown field": {config: `
apiVersion: apply-overrides.dev/v1alpha1
kind: ApplyOverrides
metadata: {name: render}
spec: {cluster: member1, keepPolicy: true}`, wantErr: "spec.keepPolicy: Forbidden: unknown field"},
		"typed cluster without name": {config: `
apiVersion: apply-overrides.dev/v1alpha1
kind: ApplyOverrides
metadata: {name: render}
spec: {clusters: [{labels: {a: b}}]}`, wantErr: "spec.clusters[0].name: Required value"},
		"typed duplicate cluster": {config: `
apiVersion: apply-overrides.dev/v1alpha1
kind: ApplyOverrides
metadata: {name: render}
spec: {clusters: [{name: a}, {name: a}]}`, wantErr: `spec.clusters[1].name: Duplicate value: "a"`},
		"typed wrong type": {config: `
apiVersion: apply-overrides.dev/v1alpha1
kind: ApplyOverrides
metadata: {name: render}
spec: {keepPolicies: "yes"}`, wantErr: `spec.keepPolicies: Invalid value: "string": must be of type boolean`},
		"typed render": {config: `
apiVersion: apply-overrides.dev/v1alpha1
kind: ApplyOverrides
metadata: {name: render}
spec:
  render:
    clusters: [member2, member1]
    clusterSelector: {matchLabels: {env: prod}}`, want: Config{Placement: policy.PlacementAuto, Render: &Render{
			Clusters: []string{"member2", "member1"}, ClusterSelector: &LabelSelector{MatchLabels: map[string]string{"env": "prod"}}, PathTemplate: DefaultPathTemplate}}},
		"typed render template": {config: `
apiVersion: apply-overrides.dev/v1alpha1
kind: ApplyOverrides
metadata: {name: render}
spec: {render: {clusters: ["*"], pathTemplate: "clusters/{cluster}.yaml"}}`, want: Config{Placement: policy.PlacementAuto, Render: &Render{
			Clusters: []string{"*"}, PathTemplate: "clusters/{cluster}.yaml"}}},
		"configmap render": {config: `
apiVersion: v1
kind: ConfigMap
metadata: {name: function-input}
data: {render: "member1, member2"}`, want: Config{Placement: policy.PlacementAuto, Render: &Render{Clusters: []string{"member1", "member2"}, PathTemplate: DefaultPathTemplate}}},
		"configmap render all": {config: `
apiVersion: v1
kind: ConfigMap
metadata: {name: function-input}
data: {render: "*", keepPolicies: "true"}`, want: Config{Placement: policy.PlacementAuto, KeepPolicies: true, Render: &Render{Clusters: []string{"*"}, PathTemplate: DefaultPathTemplate}}},
		"configmap render and cluster": {config: `
apiVersion: v1
kind: ConfigMap
metadata: {name: function-input}
data: {render: "*", cluster: member1}`, wantErr: "invalid functionConfig ConfigMap function-input: data.cluster and data.render are exclusive: data.cluster renders one cluster, data.render several in one run; keep one of them"},
		"configmap render empty name": {config: `
apiVersion: v1
kind: ConfigMap
metadata: {name: function-input}
data: {render: "member1,"}`, wantErr: `data.render[1]: empty cluster name`},
		"typed render and cluster": {config: `
apiVersion: apply-overrides.dev/v1alpha1
kind: ApplyOverrides
metadata: {name: render}
spec: {cluster: member1, render: {clusters: ["*"]}}`, wantErr: "spec.cluster and spec.render are exclusive"},
		"typed render no clusters": {config: `
apiVersion: apply-overrides.dev/v1alpha1
kind: ApplyOverrides
metadata: {name: render}
spec: {render: {clusterSelector: {matchLabels: {env: prod}}}}`, wantErr: `spec.render.clusters: name the clusters to render, or ["*"] for every cluster in the inventory`},
		"typed render star and names": {config: `
apiVersion: apply-overrides.dev/v1alpha1
kind: ApplyOverrides
metadata: {name: render}
spec: {render: {clusters: ["*", member1]}}`, wantErr: `spec.render.clusters: "*" already renders every cluster`},
		"typed render duplicate": {config: `
apiVersion: apply-overrides.dev/v1alpha1
kind: ApplyOverrides
metadata: {name: render}
spec: {render: {clusters: [a, b, a]}}`, wantErr: `spec.render.clusters[2]: Duplicate value: "a"`},
		"typed render bad selector": {config: `
apiVersion: apply-overrides.dev/v1alpha1
kind: ApplyOverrides
metadata: {name: render}
spec: {render: {clusters: ["*"], clusterSelector: {matchExpressions: [{key: env, operator: Sometimes}]}}}`, wantErr: `spec.render.clusterSelector: "Sometimes" is not a valid label selector operator`},
		"typed render template without cluster": {config: `
apiVersion: apply-overrides.dev/v1alpha1
kind: ApplyOverrides
metadata: {name: render}
spec: {render: {clusters: ["*"], pathTemplate: "out/{path}"}}`, wantErr: `spec.render.pathTemplate: "out/{path}" has no {cluster}`},
		"typed render template leaving the package": {config: `
apiVersion: apply-overrides.dev/v1alpha1
kind: ApplyOverrides
metadata: {name: render}
spec: {render: {clusters: ["*"], pathTemplate: "../{cluster}/{path}"}}`, wantErr: `spec.render.pathTemplate: "../{cluster}/{path}" leaves the package (an absolute path or a .. segment)`},
		"typed render absolute template": {config: `
apiVersion: apply-overrides.dev/v1alpha1
kind: ApplyOverrides
metadata: {name: render}
spec: {render: {clusters: ["*"], pathTemplate: "/tmp/{cluster}/{path}"}}`, wantErr: `spec.render.pathTemplate: "/tmp/{cluster}/{path}" leaves the package`},
		"typed render template unknown placeholder": {config: `
apiVersion: apply-overrides.dev/v1alpha1
kind: ApplyOverrides
metadata: {name: render}
spec: {render: {clusters: ["*"], pathTemplate: "{cluster}/{file}"}}`, wantErr: `spec.render.pathTemplate: unknown placeholder {file} in "{cluster}/{file}": use {cluster} and {path}`},
		"typed render unknown field": {config: `
apiVersion: apply-overrides.dev/v1alpha1
kind: ApplyOverrides
metadata: {name: render}
spec: {render: {cluster: [a]}}`, wantErr: "spec.render.cluster: Forbidden: unknown field"},
		"other kind": {config: `
apiVersion: example.com/v1
kind: Labeler
metadata: {name: x}`, wantErr: "unsupported functionConfig example.com/v1 Labeler: expected apply-overrides.dev/v1alpha1 ApplyOverrides or v1 ConfigMap"},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			var fc *yaml.RNode
			if tc.config != "" {
				var err error
				fc, err = yaml.Parse(tc.config)
				require.NoError(t, err)
			}
			got, err := ParseConfig(fc)
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

func TestInventoryResolve(t *testing.T) {
	one := Inventory{"member1": nil}
	two, err := BuildInventory(nil, []InlineCluster{{Name: "b"}, {Name: "a"}})
	require.NoError(t, err)

	_, err = two.Resolve("c", true)
	assert.EqualError(t, err, `cluster "c" is not in the inventory; known clusters: a, b`)
	_, err = two.Resolve("", true)
	assert.ErrorContains(t, err, "the functionConfig names no cluster to render")
	c, err := two.Resolve("", false)
	assert.NoError(t, err)
	assert.Nil(t, c)
	_, err = Inventory{}.Resolve("x", true)
	assert.ErrorContains(t, err, "no clusters are known")
	_, err = one.Resolve("", true)
	assert.NoError(t, err, "the only known cluster is the default")
}

func TestScopeAdmission(t *testing.T) {
	prod := &policy.Cluster{Name: "member1", Labels: map[string]string{"env": "prod"}}
	staging := &policy.Cluster{Name: "member2", Labels: map[string]string{"env": "staging"}}
	scopes := []AdmissionScope{
		{Policies: []string{"prod-*"}, ClusterSelector: &LabelSelector{MatchLabels: map[string]string{"env": "prod"}}},
		{Policies: []string{"shop/canary"}, Clusters: []string{"member2"}},
	}
	got, err := scopeAdmission(prod, scopes)
	require.NoError(t, err)
	assert.Equal(t, &policy.Selection{Scoped: []string{"prod-*", "shop/canary"}, Selected: []string{"prod-*"}}, got)
	got, err = scopeAdmission(staging, scopes)
	require.NoError(t, err)
	assert.Equal(t, []string{"shop/canary"}, got.Selected)

	none, err := scopeAdmission(prod, nil)
	require.NoError(t, err)
	assert.Nil(t, none, "nothing scoped: every admission policy runs")
	_, err = scopeAdmission(nil, scopes)
	assert.ErrorContains(t, err, "must name the cluster to render")
}
