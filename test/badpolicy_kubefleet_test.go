// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package test

// kubefleetRO is KubeFleet ResourceOverride default/x selecting the
// Deployment, with one rule whose body is the given YAML.
func kubefleetRO(rule string) string {
	return `apiVersion: placement.kubernetes-fleet.io/v1beta1
kind: ResourceOverride
metadata: {name: x, namespace: default}
spec:
  resourceSelectors:
  - {group: apps, version: v1, kind: Deployment, name: web}
  policy:
    overrideRules:
    - ` + indent(rule, 6)[6:] + "\n"
}

// kubefleetCRP is KubeFleet ClusterResourcePlacement x with the given spec.
func kubefleetCRP(spec string) string {
	return "apiVersion: placement.kubernetes-fleet.io/v1beta1\nkind: ClusterResourcePlacement\nmetadata: {name: x}\nspec:\n" + indent(spec, 2) + "\n"
}

const fleetRule = "spec.policy.overrideRules[0]"

var kubefleetBadPolicies = map[string]badPolicy{
	"op not an enum": {policies: kubefleetRO("clusterSelector: {clusterSelectorTerms: []}\njsonPatchOverrides: [{op: move, path: /spec/replicas}]"),
		want: []string{"ResourceOverride default/x", fleetRule + ".jsonPatchOverrides[0].op", `Unsupported value: "move"`}},
	"path status": {policies: kubefleetRO("clusterSelector: {clusterSelectorTerms: []}\njsonPatchOverrides: [{op: remove, path: /status}]"),
		want: []string{fleetRule + ".jsonPatchOverrides[0].path", "cannot override status fields"}},
	"path kind": {policies: kubefleetRO("clusterSelector: {clusterSelectorTerms: []}\njsonPatchOverrides: [{op: replace, path: /kind, value: X}]"),
		want: []string{fleetRule + ".jsonPatchOverrides[0].path", "cannot override typeMeta fields"}},
	"path empty segment": {policies: kubefleetRO("clusterSelector: {clusterSelectorTerms: []}\njsonPatchOverrides: [{op: add, path: /spec//x, value: 1}]"),
		want: []string{fleetRule + ".jsonPatchOverrides[0].path", "path cannot contain empty string"}},
	"remove with value": {policies: kubefleetRO("clusterSelector: {clusterSelectorTerms: []}\njsonPatchOverrides: [{op: remove, path: /spec/replicas, value: 1}]"),
		want: []string{fleetRule + ".jsonPatchOverrides[0].value", "remove operation cannot have value"}},
	"no patches": {policies: kubefleetRO("clusterSelector: {clusterSelectorTerms: []}\noverrideType: JSONPatch"),
		want: []string{fleetRule + ".jsonPatchOverrides", "JSONPatchOverrides cannot be empty"}},
	"override type": {policies: kubefleetRO("clusterSelector: {clusterSelectorTerms: []}\noverrideType: Merge\njsonPatchOverrides: [{op: add, path: /x, value: 1}]"),
		want: []string{fleetRule + ".overrideType", `Unsupported value: "Merge"`}},
	"property selector in override": {policies: kubefleetRO("clusterSelector: {clusterSelectorTerms: [{propertySelector: {matchExpressions: [{name: a, operator: Eq, values: ['1']}]}}]}\njsonPatchOverrides: [{op: add, path: /x, value: 1}]"),
		want: []string{fleetRule + ".clusterSelector.clusterSelectorTerms[0]", "only labelSelector is supported"}},
	"patches a string": {policies: kubefleetRO("clusterSelector: {clusterSelectorTerms: []}\njsonPatchOverrides: add"),
		want: []string{fleetRule + ".jsonPatchOverrides", "must be of type array"}},
	"missing label variable": {policies: kubefleetRO("clusterSelector: {clusterSelectorTerms: []}\njsonPatchOverrides: [{op: add, path: /metadata/labels/r, value: '${MEMBER-CLUSTER-LABEL-KEY-region}'}]"),
		want: []string{"ResourceOverride default/x", fleetRule + ".jsonPatchOverrides", "apps/v1 Deployment default/web", "label key region not found on cluster member1"}, file: "resources.yaml"},
	"unclosed label variable": {policies: kubefleetRO("clusterSelector: {clusterSelectorTerms: []}\njsonPatchOverrides: [{op: add, path: /metadata/labels/r, value: '${MEMBER-CLUSTER-LABEL-KEY-env'}]"),
		want: []string{fleetRule + ".jsonPatchOverrides", "missing the closing bracket"}, file: "resources.yaml"},
	"patch fails": {policies: kubefleetRO("clusterSelector: {clusterSelectorTerms: []}\njsonPatchOverrides: [{op: replace, path: /spec/paused, value: true}]"),
		want: []string{fleetRule + ".jsonPatchOverrides", "apps/v1 Deployment default/web", "replace operation does not apply"}, file: "resources.yaml"},
	"two overrides select one resource": {policies: kubefleetRO("clusterSelector: {clusterSelectorTerms: []}\njsonPatchOverrides: [{op: add, path: /x, value: 1}]") +
		"---\n" + `apiVersion: placement.kubernetes-fleet.io/v1beta1
kind: ResourceOverride
metadata: {name: y, namespace: default}
spec:
  resourceSelectors:
  - {group: apps, version: v1, kind: Deployment, name: web}
  policy:
    overrideRules:
    - clusterSelector: {clusterSelectorTerms: []}
      jsonPatchOverrides: [{op: add, path: /x, value: 1}]
`, want: []string{"ResourceOverride default/y", "spec.resourceSelectors[0]", "selected by both y and x"}},
	"ro version": {policies: "apiVersion: placement.kubernetes-fleet.io/v2\nkind: ResourceOverride\nmetadata: {name: x, namespace: default}\nspec: {}\n",
		want: []string{"placement.kubernetes-fleet.io/v2 ResourceOverride is not served by KubeFleet", "v1, v1alpha1, v1beta1"}},
	"cro namespaced placement": {policies: `apiVersion: placement.kubernetes-fleet.io/v1beta1
kind: ClusterResourceOverride
metadata: {name: x}
spec:
  placement: {name: p, scope: Namespaced}
  clusterResourceSelectors: [{group: "", version: v1, kind: Namespace, name: default}]
  policy: {overrideRules: [{clusterSelector: {clusterSelectorTerms: []}, jsonPatchOverrides: [{op: add, path: /x, value: 1}]}]}
`, want: []string{"ClusterResourceOverride x", "spec.placement.scope", "cannot be Namespaced scope"}},
	"pickn without number": {policies: kubefleetCRP("resourceSelectors: [{group: \"\", version: v1, kind: Namespace, name: default}]\npolicy: {placementType: PickN}"),
		want: []string{"ClusterResourcePlacement x", "spec.policy.numberOfClusters", "number of cluster cannot be nil for policy type PickN"}},
	"pickfixed tolerations": {policies: kubefleetCRP("resourceSelectors: [{group: \"\", version: v1, kind: Namespace, name: default}]\npolicy: {placementType: PickFixed, clusterNames: [member1], tolerations: [{key: a, operator: Exists}]}"),
		want: []string{"spec.policy.tolerations", "tolerations needs to be empty for policy type PickFixed"}},
	"crp selects a namespaced kind": {policies: kubefleetCRP("resourceSelectors: [{group: apps, version: v1, kind: Deployment, name: web}]"),
		want: []string{"ClusterResourcePlacement x", "spec.resourceSelectors[0]", "cannot select namespace-scoped resource Deployment in a clusterResourcePlacement"}},
	"crp selects a reserved namespace": {policies: kubefleetCRP("resourceSelectors: [{group: \"\", version: v1, kind: Namespace, name: kube-system}]"),
		want: []string{"spec.resourceSelectors[0]", "namespace kube-system is not allowed to propagate"}},
	"topology spread action": {policies: kubefleetCRP("resourceSelectors: [{group: \"\", version: v1, kind: Namespace, name: default}]\npolicy: {placementType: PickN, numberOfClusters: 1, topologySpreadConstraints: [{topologyKey: zone, whenUnsatisfiable: Never}]}"),
		want: []string{"spec.policy.topologySpreadConstraints[0].whenUnsatisfiable", `Unsupported value: "Never"`}},
	"property sorter without status": {policies: kubefleetCRP("resourceSelectors: [{group: \"\", version: v1, kind: Namespace, name: default}]\npolicy:\n  placementType: PickN\n  numberOfClusters: 1\n  affinity: {clusterAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 10, preference: {propertySorter: {name: kubernetes-fleet.io/node-count, sortOrder: Descending}}}]}}"),
		want: []string{"preferredDuringSchedulingIgnoredDuringExecution[0].preference.propertySorter", "no cluster reports property kubernetes-fleet.io/node-count"}},
}
