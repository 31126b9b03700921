// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package test

// karmadaOP is OverridePolicy default/x with one rule for member1 whose
// overriders are the given YAML.
func karmadaOP(overriders string) string {
	return `apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata:
  name: x
  namespace: default
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  overrideRules:
  - targetCluster: {clusterNames: [member1]}
    overriders:
` + indent(overriders, 6)
}

const (
	kOP    = "OverridePolicy default/x: "
	kRule  = "spec.overrideRules[0].overriders."
	kArray = `Invalid value: "string": must be of type array`
)

var karmadaBadPolicies = map[string]badPolicy{
	// Values of the wrong YAML type, one per overrider.
	"imageOverrider not a list": {policies: karmadaOP(`imageOverrider: {component: Registry, operator: replace, value: r.io}`),
		want: []string{kOP, kRule + `imageOverrider: Invalid value: "object": must be of type array`}},
	"imageOverrider value a map": {policies: karmadaOP(`imageOverrider: [{component: Registry, operator: replace, value: {host: r.io}}]`),
		want: []string{kOP, kRule + `imageOverrider[0].value: Invalid value: "object": must be of type string`}},
	"imageOverrider predicate a string": {policies: karmadaOP(`imageOverrider: [{component: Tag, operator: replace, value: "2", predicate: /spec/template/spec/containers/0/image}]`),
		want: []string{kOP, kRule + `imageOverrider[0].predicate: Invalid value: "string": must be of type object`}},
	"commandOverrider value a string": {policies: karmadaOP(`commandOverrider: [{containerName: c, operator: add, value: "--v=2"}]`),
		want: []string{kOP, kRule + `commandOverrider[0].value: ` + kArray}},
	"argsOverrider value items maps": {policies: karmadaOP(`argsOverrider: [{containerName: c, operator: add, value: [{v: 2}]}]`),
		want: []string{kOP, kRule + `argsOverrider[0].value[0]: Invalid value: "object": must be of type string`}},
	"labelsOverrider a string": {policies: karmadaOP(`labelsOverrider: "team=a"`),
		want: []string{kOP, kRule + `labelsOverrider: ` + kArray}},
	"labelsOverrider value a list": {policies: karmadaOP(`labelsOverrider: [{operator: add, value: [team=a]}]`),
		want: []string{kOP, kRule + `labelsOverrider[0].value: Invalid value: "array": must be of type object`}},
	"labelsOverrider value not a string": {policies: karmadaOP(`labelsOverrider: [{operator: add, value: {replicas: 3}}]`),
		want: []string{kOP, kRule + `labelsOverrider[0].value[replicas]: Invalid value: "number": must be of type string`}},
	"annotationsOverrider a map": {policies: karmadaOP(`annotationsOverrider: {operator: add, value: {a: b}}`),
		want: []string{kOP, kRule + `annotationsOverrider: Invalid value: "object": must be of type array`}},
	"fieldOverrider json a string": {policies: karmadaOP(`fieldOverrider: [{fieldPath: /data/x, json: "[{op: add}]"}]`),
		want: []string{kOP, kRule + `fieldOverrider[0].json: ` + kArray}},
	"plaintext a map": {policies: karmadaOP(`plaintext: {path: /spec/replicas, operator: replace, value: 2}`),
		want: []string{kOP, kRule + `plaintext: Invalid value: "object": must be of type array`}},
	"plaintext path a number": {policies: karmadaOP(`plaintext: [{path: 3, operator: replace, value: 2}]`),
		want: []string{kOP, kRule + `plaintext[0].path: Invalid value: "integer": must be of type string`}},
	"plaintext operator a list": {policies: karmadaOP(`plaintext: [{path: /spec/replicas, operator: [replace], value: 2}]`),
		want: []string{kOP, kRule + `plaintext[0].operator: Invalid value: "array": must be of type string`}},

	// An explicit null is pruned by the apiserver, then a required field is missing.
	"overriders followed by a comment": {policies: `apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: x, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  overrideRules:
  - targetCluster: {clusterNames: [member1]}
    overriders: # TODO: add the overriders
`, want: []string{kOP, `spec.overrideRules[0].overriders: Required value`}},
	"path null": {policies: karmadaOP(`plaintext: [{path: null, operator: replace, value: 2}]`),
		want: []string{kOP, kRule + `plaintext[0].path: Required value`}},
	"operator null": {policies: karmadaOP(`plaintext: [{path: /spec/replicas, operator: null, value: 2}]`),
		want: []string{kOP, kRule + `plaintext[0].operator: Required value`}},
	"component null": {policies: karmadaOP(`imageOverrider: [{component: null, operator: replace, value: r.io}]`),
		want: []string{kOP, kRule + `imageOverrider[0].component: Required value`}},
	"label value null": {policies: karmadaOP(`labelsOverrider: [{operator: add, value: null}]`),
		want: []string{kOP, kRule + `labelsOverrider[0].value: Required value`}},
	"plaintext item null": {policies: karmadaOP("plaintext:\n- # the patch\n"),
		want: []string{kOP, kRule + `plaintext[0]: Invalid value: "null": must be of type object`}},
	"spec null": {policies: "apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterOverridePolicy\nmetadata: {name: x}\nspec: null\n",
		want: []string{"ClusterOverridePolicy x: spec: Required value"}},
	"selector kind null": {policies: "apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterOverridePolicy\nmetadata: {name: x}\nspec:\n  resourceSelectors: [{apiVersion: v1, kind: null}]\n  overrideRules: []\n",
		want: []string{"ClusterOverridePolicy x: spec.resourceSelectors[0].kind: Required value"}},

	// JSON pointers.
	"plaintext path without a slash": {policies: karmadaOP(`plaintext: [{path: foo, operator: replace, value: 2}]`), file: "resources.yaml",
		want: []string{"OverridePolicy default/x " + kRule + "plaintext", "apps/v1 Deployment default/web", "doc is missing path: foo"}},
	"predicate path without a slash": {policies: karmadaOP(`imageOverrider: [{component: Tag, operator: replace, value: "2", predicate: {path: foo}}]`),
		want: []string{kOP, kRule + `imageOverrider[0].predicate.path: Invalid value: "foo": JSON pointer must be empty or start with a "/"`}},
	"bad escape in fieldPath": {policies: karmadaOP(`fieldOverrider: [{fieldPath: /a/~2, json: [{subPath: /x, operator: add, value: 1}]}]`),
		want: []string{kOP, kRule + `fieldOverrider[0].fieldPath: Invalid value: "/a/~2"`, `"~" must be followed by "0" or "1"`}},
	"bad escape in plaintext": {policies: karmadaOP(`plaintext: [{path: /metadata/labels/a~2b, operator: add, value: x}]`),
		want: []string{kOP, kRule + `plaintext[0].path: Invalid value: "/metadata/labels/a~2b"`, `"~" must be followed by "0" or "1"`}},
	"negative index out of range": {policies: karmadaOP(`plaintext: [{path: /spec/template/spec/containers/-5/image, operator: replace, value: x}]`), file: "resources.yaml",
		want: []string{"OverridePolicy default/x " + kRule + "plaintext", "apps/v1 Deployment default/web", "/spec/template/spec/containers/-5/image"}},
	"pod path on a deployment": {policies: karmadaOP(`plaintext: [{path: /spec/containers/-1/image, operator: replace, value: x}]`), file: "resources.yaml",
		want: []string{"OverridePolicy default/x " + kRule + "plaintext", "apps/v1 Deployment default/web", "doc is missing path: /spec/containers/-1/image"}},
	"add past the end of a list": {policies: karmadaOP(`plaintext: [{path: /spec/template/spec/containers/5, operator: add, value: {name: s, image: s}}]`), file: "resources.yaml",
		want: []string{"OverridePolicy default/x " + kRule + "plaintext", "apps/v1 Deployment default/web", "/spec/template/spec/containers/5"}},

	// Images and labels.
	"registry with a space": {policies: karmadaOP(`imageOverrider: [{component: Registry, operator: replace, value: "my registry.io"}]`),
		want: []string{kOP, kRule + `imageOverrider[0].value: Invalid value: "my registry.io"`, "registry"}},
	"repository with capitals": {policies: karmadaOP(`imageOverrider: [{component: Repository, operator: replace, value: MyApp}]`),
		want: []string{kOP, kRule + `imageOverrider[0].value: Invalid value: "MyApp"`, "lowercase"}},
	"tag with a space": {policies: karmadaOP(`imageOverrider: [{component: Tag, operator: replace, value: "1.0 beta"}]`),
		want: []string{kOP, kRule + `imageOverrider[0].value: Invalid value: "1.0 beta"`}},
	"invalid label key": {policies: karmadaOP(`labelsOverrider: [{operator: add, value: {"-team": a}}]`),
		want: []string{kOP, kRule + `labelsOverrider[0].value: Invalid value: "-team"`, "name part must consist of"}},
	"invalid label key, deprecated overriders": {policies: `apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: x, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  overriders:
    labelsOverrider: [{operator: add, value: {"team name": a}}]
`, want: []string{kOP, `spec.overriders.labelsOverrider[0].value: Invalid value: "team name"`}},
	"invalid annotation key": {policies: karmadaOP(`annotationsOverrider: [{operator: add, value: {"a/b/c": x}}]`),
		want: []string{kOP, kRule + `annotationsOverrider[0].value: Invalid value: "a/b/c"`}},
}
