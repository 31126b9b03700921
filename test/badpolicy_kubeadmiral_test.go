// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package test

// kubeadmiralOP is KubeAdmiral OverridePolicy default/x (the Deployment is
// bound to it by label) with one rule whose overriders are the given YAML.
func kubeadmiralOP(overriders string) string {
	return `apiVersion: core.kubeadmiral.io/v1alpha1
kind: OverridePolicy
metadata:
  name: x
  namespace: default
spec:
  overrideRules:
  - targetClusters: {clusters: [member1]}
    overriders:
` + indent(overriders, 6) + `
---
apiVersion: core.kubeadmiral.io/v1alpha1
kind: ClusterOverridePolicy
metadata: {name: x}
spec: {}
`
}

const aRule = "spec.overrideRules[0].overriders."

var kubeadmiralBadPolicies = map[string]badPolicy{
	"image a map": {policies: kubeadmiralOP(`image: {operations: []}`),
		want: []string{kOP, aRule + `image: Invalid value: "object": must be of type array`}},
	"image containerNames a string": {policies: kubeadmiralOP(`image: [{containerNames: c, operations: [{imageComponent: Tag, value: "2"}]}]`),
		want: []string{kOP, aRule + `image[0].containerNames: ` + kArray}},
	"image operations a map": {policies: kubeadmiralOP(`image: [{operations: {imageComponent: Tag, value: "2"}}]`),
		want: []string{kOP, aRule + `image[0].operations: Invalid value: "object": must be of type array`}},
	"imageComponent a number": {policies: kubeadmiralOP(`image: [{operations: [{imageComponent: 1, value: "2"}]}]`),
		want: []string{kOP, aRule + `image[0].operations[0].imageComponent: Invalid value: "integer": must be of type string`}},
	"imagePath a list": {policies: kubeadmiralOP(`image: [{imagePath: [/spec/template/spec/containers/0/image], operations: [{imageComponent: Tag, value: "2"}]}]`),
		want: []string{kOP, aRule + `image[0].imagePath: Invalid value: "array": must be of type string`}},
	"command value a string": {policies: kubeadmiralOP(`command: [{containerName: c, operator: append, value: "--v=2"}]`),
		want: []string{kOP, aRule + `command[0].value: ` + kArray}},
	"args a string": {policies: kubeadmiralOP(`args: "--v=2"`),
		want: []string{kOP, aRule + `args: ` + kArray}},
	"envs value a map": {policies: kubeadmiralOP(`envs: [{containerName: c, value: {A: b}}]`),
		want: []string{kOP, aRule + `envs[0].value: Invalid value: "object": must be of type array`}},
	"env value a number": {policies: kubeadmiralOP(`envs: [{containerName: c, value: [{name: A, value: 3}]}]`),
		want: []string{kOP, aRule + `envs[0].value[0].value: Invalid value: "integer": must be of type string`}},
	"env item null": {policies: kubeadmiralOP("envs: [{containerName: c, value: [null]}]"),
		want: []string{kOP, aRule + `envs[0].value[0]: Invalid value: "null": must be of type object`}},
	"annotations value a list": {policies: kubeadmiralOP(`annotations: [{value: [a=b]}]`),
		want: []string{kOP, aRule + `annotations[0].value: Invalid value: "array": must be of type object`}},
	"labels value not a string": {policies: kubeadmiralOP(`labels: [{operator: addIfAbsent, value: {tier: 1}}]`),
		want: []string{kOP, aRule + `labels[0].value[tier]: Invalid value: "integer": must be of type string`}},
	"jsonpatch a map": {policies: kubeadmiralOP(`jsonpatch: {path: /spec/replicas, value: 2}`),
		want: []string{kOP, aRule + `jsonpatch: Invalid value: "object": must be of type array`}},
	"jsonpatch path a number": {policies: kubeadmiralOP(`jsonpatch: [{path: 3, value: 2}]`),
		want: []string{kOP, aRule + `jsonpatch[0].path: Invalid value: "integer": must be of type string`}},
	"jsonpatch operator a map": {policies: kubeadmiralOP(`jsonpatch: [{path: /spec/replicas, operator: {op: add}, value: 2}]`),
		want: []string{kOP, aRule + `jsonpatch[0].operator: Invalid value: "object": must be of type string`}},
	"clusters a string": {policies: "apiVersion: core.kubeadmiral.io/v1alpha1\nkind: ClusterOverridePolicy\nmetadata: {name: x}\nspec:\n  overrideRules:\n  - targetClusters: {clusters: member1}\n",
		want: []string{"ClusterOverridePolicy x: spec.overrideRules[0].targetClusters.clusters: " + kArray}},

	// Nulls are pruned as for Karmada.
	"jsonpatch path null": {policies: kubeadmiralOP(`jsonpatch: [{path: null, value: 2}]`),
		want: []string{kOP, aRule + `jsonpatch[0].path: Required value`}},
	"imageComponent null": {policies: kubeadmiralOP(`image: [{operations: [{imageComponent: null, value: "2"}]}]`),
		want: []string{kOP, aRule + `image[0].operations[0].imageComponent: Required value`}},
	"requirement values null": {policies: "apiVersion: core.kubeadmiral.io/v1alpha1\nkind: ClusterOverridePolicy\nmetadata: {name: x}\nspec:\n  overrideRules:\n  - targetClusters:\n      clusterAffinity: [{matchExpressions: [{key: env, operator: In, values: null}]}]\n",
		want: []string{"ClusterOverridePolicy x: spec.overrideRules[0].targetClusters.clusterAffinity[0].matchExpressions[0].values: Required value"}},

	// JSON pointers and values.
	"jsonpatch path without a slash": {policies: kubeadmiralOP(`jsonpatch: [{path: spec/replicas, value: 2}]`),
		want: []string{kOP, aRule + `jsonpatch[0].path: Invalid value: "spec/replicas": a JSON pointer starts with "/"`}},
	"jsonpatch bad escape": {policies: kubeadmiralOP(`jsonpatch: [{operator: add, path: /metadata/labels/a~2b, value: x}]`),
		want: []string{kOP, aRule + `jsonpatch[0].path: Invalid value: "/metadata/labels/a~2b"`, `"~" must be followed by "0" or "1"`}},
	"jsonpatch add past the end": {policies: kubeadmiralOP(`jsonpatch: [{operator: add, path: /spec/template/spec/containers/4, value: {name: s, image: s}}]`), file: "resources.yaml",
		want: []string{"OverridePolicy default/x", "apps/v1 Deployment default/web", "/spec/template/spec/containers/4"}},
	"repository with capitals": {policies: kubeadmiralOP(`image: [{operations: [{imageComponent: Repository, value: MyApp}]}]`),
		want: []string{kOP, aRule + `image[0].operations[0].value: Invalid value: "MyApp": a repository may hold only lowercase letters`}},
	"registry with a space": {policies: kubeadmiralOP(`image: [{operations: [{imageComponent: Registry, value: "my registry"}]}]`),
		want: []string{kOP, aRule + `image[0].operations[0].value: Invalid value: "my registry": an image registry must not contain white space`}},
	"invalid tag (upstream's check)": {policies: kubeadmiralOP(`image: [{operations: [{imageComponent: Tag, value: "1 0"}]}]`), file: "resources.yaml",
		want: []string{"OverridePolicy default/x " + aRule[:len(aRule)-1], "apps/v1 Deployment default/web", "invalid tag format after applying the overrider"}},
	"invalid label key": {policies: kubeadmiralOP(`labels: [{operator: addIfAbsent, value: {"-team": a}}]`),
		want: []string{kOP, aRule + `labels[0].value: Invalid value: "-team"`, "name part must consist of"}},
	"invalid annotation key": {policies: kubeadmiralOP(`annotations: [{operator: addIfAbsent, value: {"a b": x}}]`),
		want: []string{kOP, aRule + `annotations[0].value: Invalid value: "a b"`}},
}
