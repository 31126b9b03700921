// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"errors"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

const (
	digestA   = "sha256:aaaaf56b44807c64d294e6c8059b479f35350b454492398225034174808d1726"
	digestB   = "sha256:bbbbf56b44807c64d294e6c8059b479f35350b454492398225034174808d1726"
	echoImage = "docker.io/ealen/echo-server:latest@" + digestB
)

// imageOps is a shorthand for one overrider's operations.
func imageOps(ops ...ImageOperation) []ImageOperation { return ops }

// imageOp is one image operation.
func imageOp(component, operator, value string) ImageOperation {
	return ImageOperation{Component: component, Operator: operator, Value: value}
}

// twoByTwo is a pod spec with two init containers and two containers.
const twoByTwo = `initContainers:
- name: init-0 # first init
  image: busybox:1.36
- name: init-1
  image: busybox:1.36
containers:
- name: app # the app
  image: nginx:1.25 # pinned
- name: sidecar
  image: envoyproxy/envoy:v1.30
`

func TestImagesWorkload(t *testing.T) {
	tag := func(v string) Images {
		return Images{{Operations: imageOps(imageOp("Tag", "overwrite", v))}}
	}
	runPatchCases(t, map[string]patchCase{
		"all init containers and containers, sorted by path": {
			input:   deploymentYAML(twoByTwo),
			patcher: tag("2"),
			expected: []string{
				`replace /spec/template/spec/containers/0/image "nginx:2"`,
				`replace /spec/template/spec/containers/1/image "envoyproxy/envoy:2"`,
				`replace /spec/template/spec/initContainers/0/image "busybox:2"`,
				`replace /spec/template/spec/initContainers/1/image "busybox:2"`,
			},
		},
		"containerNames select init and regular containers of a pod": {
			input: podYAML(twoByTwo),
			patcher: Images{{
				ContainerNames: []string{"init-1", "app", "missing"},
				Operations:     imageOps(imageOp("Registry", "addIfAbsent", "mirror.io")),
			}},
			expected: []string{
				`replace /spec/containers/0/image "mirror.io/nginx:1.25"`,
				`replace /spec/initContainers/1/image "mirror.io/busybox:1.36"`,
			},
		},
		"containerNames that match nothing give nothing": {
			input:    podYAML(twoByTwo),
			patcher:  Images{{ContainerNames: []string{"nope"}, Operations: imageOps(imageOp("Tag", "", "2"))}},
			expected: nil,
		},
		"containerNames of empty names give nothing": {
			input:    podYAML(twoByTwo),
			patcher:  Images{{ContainerNames: []string{""}, Operations: imageOps(imageOp("Tag", "", "2"))}},
			expected: nil,
		},
		"empty list resolves nothing, even for an unknown kind": {
			input:    "apiVersion: argoproj.io/v1alpha1\nkind: Workflow\n",
			patcher:  Images{},
			expected: nil,
		},
		"no operations still emits the unchanged image": {
			input:    podYAML("containers:\n- name: a\n  image: nginx\n"),
			patcher:  Images{{}},
			expected: []string{`replace /spec/containers/0/image "nginx"`},
		},
		"an unchanged image is emitted": {
			input:    podYAML("containers:\n- name: a\n  image: nginx:1.0\n"),
			patcher:  tag("1.0"),
			expected: []string{`replace /spec/containers/0/image "nginx:1.0"`},
		},
		"overriders on the same container chain": {
			input: podYAML("containers:\n- name: server\n  image: " + echoImage + "\n"),
			patcher: Images{
				{Operations: imageOps(imageOp("Registry", "overwrite", "a.io"))},
				{ContainerNames: []string{"server"}, Operations: imageOps(imageOp("Tag", "delete", "ignored"))},
				{Operations: imageOps(imageOp("Digest", "overwrite", digestA))},
			},
			expected: []string{`replace /spec/containers/0/image "a.io/ealen/echo-server@` + digestA + `"`},
		},
		"all four components overwritten, tag and digest both kept": {
			input: workloadYAML("apps/v1", "StatefulSet", "containers:\n- name: s\n  image: "+echoImage+"\n"),
			patcher: Images{{Operations: imageOps(
				imageOp("Registry", "overwrite", "temp.io"),
				imageOp("Repository", "overwrite", "temp/echo-server"),
				imageOp("Tag", "overwrite", "1.0"),
				imageOp("Digest", "overwrite", digestA),
			)}},
			expected: []string{`replace /spec/template/spec/containers/0/image "temp.io/temp/echo-server:1.0@` + digestA + `"`},
		},
		"overwrite with empty value removes the component": {
			input: podYAML("containers:\n- name: s\n  image: " + echoImage + "\n"),
			patcher: Images{{Operations: imageOps(
				imageOp("Registry", "overwrite", ""), imageOp("Tag", "overwrite", ""),
			)}},
			expected: []string{`replace /spec/containers/0/image "ealen/echo-server@` + digestB + `"`},
		},
		"deleting everything yields an empty image": {
			input: podYAML("containers:\n- name: s\n  image: " + echoImage + "\n"),
			patcher: Images{{Operations: imageOps(
				imageOp("Registry", "delete", ""), imageOp("Repository", "delete", ""),
				imageOp("Tag", "delete", ""), imageOp("Digest", "delete", ""),
			)}},
			expected: []string{`replace /spec/containers/0/image ""`},
		},
		"deleting the repository only is not re-validated": {
			input:    podYAML("containers:\n- name: s\n  image: reg.io/app:v1\n"),
			patcher:  Images{{Operations: imageOps(imageOp("Repository", "delete", ""))}},
			expected: []string{`replace /spec/containers/0/image "reg.io/:v1"`},
		},
		"registry heuristic and no docker hub normalisation": {
			input: podYAML(`containers:
- {name: a, image: ealen/echo-server}
- {name: b, image: localhost:5000/foo/bar}
- {name: c, image: localhost/x}
- {name: d, image: nginx}
- {name: e, image: docker.io/library/nginx}
`),
			patcher: Images{{Operations: imageOps(imageOp("Registry", "overwrite", "r.io"))}},
			expected: []string{
				`replace /spec/containers/0/image "r.io/ealen/echo-server"`,
				`replace /spec/containers/1/image "r.io/foo/bar"`,
				`replace /spec/containers/2/image "r.io/x"`,
				`replace /spec/containers/3/image "r.io/nginx"`,
				`replace /spec/containers/4/image "r.io/library/nginx"`,
			},
		},
		"addIfAbsent sets absent components": {
			input: podYAML("containers:\n- name: a\n  image: nginx\n"),
			patcher: Images{{Operations: imageOps(
				imageOp("Registry", "addIfAbsent", "r.io"), imageOp("Tag", "addIfAbsent", "1.0"),
			)}},
			expected: []string{`replace /spec/containers/0/image "r.io/nginx:1.0"`},
		},
		"cronjob pod spec path": {
			input:    cronJobYAML("containers:\n- name: a\n  image: busybox\n"),
			patcher:  tag("1.36"),
			expected: []string{`replace /spec/jobTemplate/spec/template/spec/containers/0/image "busybox:1.36"`},
		},
		"any version of a known group and kind": {
			input:    workloadYAML("apps/v1beta2", "DaemonSet", "containers:\n- name: a\n  image: busybox\n"),
			patcher:  tag("1"),
			expected: []string{`replace /spec/template/spec/containers/0/image "busybox:1"`},
		},
		"a chained empty image is re-parsed and fails": {
			input: podYAML("containers:\n- name: a\n  image: nginx\n"),
			patcher: Images{
				{Operations: imageOps(imageOp("Repository", "delete", ""))},
				{Operations: imageOps(imageOp("Tag", "overwrite", "1"))},
			},
			expectedErr: "failed to parse image overriders: failed to apply image overrider: parse image failed(), error: repository name must have at least one component",
		},
		"a container without image fails to parse": {
			input:       podYAML("containers:\n- name: a\n"),
			patcher:     tag("1"),
			expectedErr: "failed to apply image overrider: parse image failed(), error: repository name must have at least one component",
		},
		"uppercase repository": {
			input:       podYAML("containers:\n- name: a\n  image: Nginx:1.0\n"),
			patcher:     tag("1"),
			expectedErr: "failed to parse image overriders: failed to apply image overrider: parse image failed(Nginx:1.0), error: repository name must be lowercase",
		},
		"image parsed even when the operation would not need it": {
			input:       podYAML("containers:\n- name: a\n  image: 'a b'\n"),
			patcher:     Images{{Operations: imageOps(imageOp("Registry", "delete", ""))}},
			expectedErr: "parse image failed(a b), error: invalid reference format",
		},
		"addIfAbsent on a present component is an error": {
			input:       podYAML("containers:\n- name: a\n  image: nginx:1.0\n"),
			patcher:     Images{{Operations: imageOps(imageOp("Tag", "addIfAbsent", "2"))}},
			expectedErr: "failed to apply image overrider: addIfAbsent is not allowed to operate on non-empty value",
		},
		"addIfAbsent needs a value, checked first": {
			input:       podYAML("containers:\n- name: a\n  image: nginx:1.0\n"),
			patcher:     Images{{Operations: imageOps(imageOp("Tag", "addIfAbsent", ""))}},
			expectedErr: "addIfAbsent operation needs value",
		},
		"invalid tag after the operation": {
			input:       podYAML("containers:\n- name: a\n  image: nginx:1.0\n"),
			patcher:     tag("-bad"),
			expectedErr: "invalid tag format after applying the overrider",
		},
		"invalid digest after the operation": {
			input:       podYAML("containers:\n- name: a\n  image: nginx:1.0\n"),
			patcher:     Images{{Operations: imageOps(imageOp("Digest", "", "sha256:xyz"))}},
			expectedErr: "invalid digest format after applying the overrider",
		},
		"a short digest is not checked by the overrider": {
			input:    podYAML("containers:\n- name: a\n  image: nginx:1.0\n"),
			patcher:  Images{{Operations: imageOps(imageOp("Digest", "", "sha256:0123456789abcdef0123456789abcdef"))}},
			expected: []string{`replace /spec/containers/0/image "nginx:1.0@sha256:0123456789abcdef0123456789abcdef"`},
		},
		"unsupported operator": {
			input:       podYAML("containers:\n- name: a\n  image: nginx:1.0\n"),
			patcher:     Images{{Operations: imageOps(imageOp("Tag", "merge", "2"))}},
			expectedErr: "failed to apply image overrider: unsupported operator: merge",
		},
		"unsupported component": {
			input:       podYAML("containers:\n- name: a\n  image: nginx:1.0\n"),
			patcher:     Images{{Operations: imageOps(imageOp("tag", "", "2"))}},
			expectedErr: "failed to apply image overrider: unsupported image component(tag)",
		},
		"unknown kind": {
			input:       "apiVersion: argoproj.io/v1alpha1\nkind: Workflow\nspec: {}\n",
			patcher:     tag("1"),
			expectedErr: "failed to parse image overriders: failed to get podSpec from sourceObj: unknown type to get pod spec: argoproj.io/v1alpha1, Kind=Workflow",
		},
		"kind in the wrong group": {
			input:       workloadYAML("extensions/v1beta1", "Deployment", "containers: []\n"),
			patcher:     tag("1"),
			expectedErr: "unknown type to get pod spec: extensions/v1beta1, Kind=Deployment",
		},
		"core kind without pod spec": {
			input:       "apiVersion: v1\nkind: ConfigMap\n",
			patcher:     tag("1"),
			expectedErr: "unknown type to get pod spec: /v1, Kind=ConfigMap",
		},
		"missing pod spec": {
			input:       "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template: null\n",
			patcher:     tag("1"),
			expectedErr: `failed to get podSpec from sourceObj: pod spec does not exist at path "spec.template.spec"`,
		},
		"pod spec that is not an object": {
			input:       "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec: x\n",
			patcher:     tag("1"),
			expectedErr: ".spec.template.spec accessor error: x is of the type string, expected map[string]interface{}",
		},
		"containers that are not a list": {
			input:       podYAML("containers: x\n"),
			patcher:     tag("1"),
			expectedErr: "failed to get podSpec from sourceObj: cannot restore slice from string",
		},
		"an image that is not a string": {
			input:       podYAML("containers:\n- name: a\n  image: 5\n"),
			patcher:     tag("1"),
			expectedErr: "failed to get podSpec from sourceObj: cannot convert int64 to string",
		},
		"a backslash escape in a value is decoded": {
			input:    podYAML("containers:\n- name: a\n  image: nginx\n"),
			patcher:  Images{{Operations: imageOps(imageOp("Registry", "", `r\u0041.io`))}},
			expected: []string{`replace /spec/containers/0/image "rA.io/nginx"`},
		},
	})
}

func TestImagesPath(t *testing.T) {
	const wf = `apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata:
  name: wf
spec:
  replicas: 2
  templates:
  - name: a
    container:
      image: nginx:1.0 # first
  - name: b
    container:
      image: busybox
  odd:
    a/b:
      image: x/y
`
	path := func(p string, ops ...ImageOperation) Image {
		return Image{ImagePath: p, Operations: ops}
	}
	runPatchCases(t, map[string]patchCase{
		"any kind, operator omitted": {
			input:    wf,
			patcher:  Images{path("/spec/templates/0/container/image", imageOp("Registry", "", "temp.io"), imageOp("Tag", "", "2"))},
			expected: []string{`replace /spec/templates/0/container/image "temp.io/nginx:2"`},
		},
		"two paths sorted, containerNames ignored": {
			input: wf,
			patcher: Images{
				{ImagePath: "/spec/templates/1/container/image", ContainerNames: []string{"zzz"}, Operations: imageOps(imageOp("Tag", "", "1"))},
				path("/spec/templates/0/container/image", imageOp("Tag", "", "3")),
			},
			expected: []string{
				`replace /spec/templates/0/container/image "nginx:3"`,
				`replace /spec/templates/1/container/image "busybox:1"`,
			},
		},
		"same path chains": {
			input: wf,
			patcher: Images{
				path("/spec/templates/0/container/image", imageOp("Tag", "", "3")),
				path("/spec/templates/0/container/image", imageOp("Registry", "addIfAbsent", "r.io")),
			},
			expected: []string{`replace /spec/templates/0/container/image "r.io/nginx:3"`},
		},
		"a chained empty value reads the original again": {
			input: wf,
			patcher: Images{
				path("/spec/templates/0/container/image", imageOp("Repository", "delete", ""), imageOp("Tag", "delete", "")),
				path("/spec/templates/0/container/image", imageOp("Registry", "", "r.io")),
			},
			expected: []string{`replace /spec/templates/0/container/image "r.io/nginx:1.0"`},
		},
		"trailing and doubled slashes are trimmed for reading, kept in the patch": {
			input:    wf,
			patcher:  Images{path("/spec/templates/1/container/image/", imageOp("Tag", "", "1"))},
			expected: []string{`replace /spec/templates/1/container/image/ "busybox:1"`},
		},
		"keys with a slash cannot be reached, ~1 is not unescaped": {
			input:       wf,
			patcher:     Images{path("/spec/odd/a~1b/image", imageOp("Tag", "", "1"))},
			expectedErr: `failed to parse image overriders: failed to parse image value from unstructured obj: spec/odd/a~1b accessor error: unknown type <nil>, expected map[string]interface{} or []interface{}`,
		},
		"no leading slash": {
			input:       wf,
			patcher:     Images{path("spec/templates/0/container/image", imageOp("Tag", "", "1"))},
			expectedErr: "failed to parse image overriders: image path should be start with /",
		},
		"index not a number": {
			input:       wf,
			patcher:     Images{path("/spec/templates/tt/container/image", imageOp("Tag", "", "1"))},
			expectedErr: `failed to parse image value from unstructured obj: slice found at path spec/templates, but the next path segment is not a number (found "tt")`,
		},
		"dash is not an index": {
			input:       wf,
			patcher:     Images{path("/spec/templates/-/container/image", imageOp("Tag", "", "1"))},
			expectedErr: `but the next path segment is not a number (found "-")`,
		},
		"negative index": {
			input:       wf,
			patcher:     Images{path("/spec/templates/-1/container/image", imageOp("Tag", "", "1"))},
			expectedErr: "index(-1) is negative or out of range",
		},
		"index out of range": {
			input:       wf,
			patcher:     Images{path("/spec/templates/2/container/image", imageOp("Tag", "", "1"))},
			expectedErr: "index(2) is negative or out of range",
		},
		"through a scalar": {
			input:       wf,
			patcher:     Images{path("/spec/replicas/x", imageOp("Tag", "", "1"))},
			expectedErr: "spec/replicas accessor error: unknown type int64, expected map[string]interface{} or []interface{}",
		},
		"not a string": {
			input:       wf,
			patcher:     Images{path("/spec/replicas", imageOp("Tag", "", "1"))},
			expectedErr: `"/spec/replicas" does not point to a string field`,
		},
		"the root": {
			input:       wf,
			patcher:     Images{path("/", imageOp("Tag", "", "1"))},
			expectedErr: `"/" does not point to a string field`,
		},
		"apply errors say override, not overrider": {
			input:       wf,
			patcher:     Images{path("/spec/templates/0/container/image", imageOp("Tag", "addIfAbsent", "1"))},
			expectedErr: "failed to parse image overriders: failed to apply image override: addIfAbsent is not allowed to operate on non-empty value",
		},
		"path and workload modes share a path": {
			input: podYAML("containers:\n- name: a\n  image: nginx\n"),
			patcher: Images{
				path("/spec/containers/0/image", imageOp("Tag", "", "1")),
				{Operations: imageOps(imageOp("Registry", "", "r.io"))},
			},
			expected: []string{`replace /spec/containers/0/image "r.io/nginx:1"`},
		},
		"an error in an earlier path overrider wins over the pod spec": {
			input: "apiVersion: v1\nkind: Secret\n",
			patcher: Images{
				path("x", imageOp("Tag", "", "1")),
				{Operations: imageOps(imageOp("Tag", "", "1"))},
			},
			expectedErr: "image path should be start with /",
		},
	})
}

func TestImagesUnmarshalableValue(t *testing.T) {
	obj := yaml.MustParse(podYAML("containers:\n- name: a\n  image: nginx\n")).YNode()
	_, err := Images{{Operations: imageOps(imageOp("Registry", "", `a"b`))}}.Patches(obj)
	var applyErr *ApplyError
	if !errors.As(err, &applyErr) {
		t.Fatalf("want a ApplyError, got %v", err)
	}
	const want = `json: error calling MarshalJSON for type v1.JSON: invalid character 'b' after top-level value`
	if err.Error() != want {
		t.Errorf("got %q, want %q", err.Error(), want)
	}
}

func TestWithGVK(t *testing.T) {
	// A Pod whose kind an earlier rule changed: upstream still uses the
	// template's GVK.
	obj := yaml.MustParse("apiVersion: v1\nkind: Changed\nspec:\n  containers:\n  - name: a\n    image: nginx\n").YNode()
	images := Images{{Operations: imageOps(imageOp("Tag", "", "1"))}}
	if _, err := images.Patches(obj); err == nil {
		t.Fatalf("the object's own kind should be unknown")
	}
	pinned := WithGVK{GVK: schema.GroupVersionKind{Version: "v1", Kind: "Pod"}, Patcher: images}
	patch, err := pinned.Patches(obj)
	if err != nil {
		t.Fatal(err)
	}
	if len(patch) != 1 || patch[0].Path != "/spec/containers/0/image" || patch[0].Value.Value != "nginx:1" {
		t.Errorf("unexpected patch %+v", patch)
	}
	// Patchers that read no pod spec pass through.
	labels := stringMaps{Field: "labels", Overriders: []StringMap{{Operator: "delete", Value: []KeyValue{{Key: "x"}}}}}
	if patch, err := (WithGVK{Patcher: labels}).Patches(obj); err != nil || len(patch) != 1 {
		t.Errorf("labels through WithGVK: %v %v", patch, err)
	}
	if patch, err := (WithGVK{}).Patches(obj); err != nil || patch != nil {
		t.Errorf("nil patcher: %v %v", patch, err)
	}
}
