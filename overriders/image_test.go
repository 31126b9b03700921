// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import "testing"

// one renders a single commented container with the given image line.
func one(image string) string {
	return `containers:
# the app container
- name: app # app name
  image: ` + image + ` # pinned image
`
}

func TestImageByKind(t *testing.T) {
	reg := "fictional.registry.example/imagename:v1.0.0"
	runCases(t, map[string]filterCase{
		"registry add concatenates a suffix": {
			input:    deployment(one(reg)),
			filter:   Image{Component: "Registry", Operator: "add", Value: ".test"},
			expected: deployment(one("fictional.registry.example.test/imagename:v1.0.0")),
		},
		"registry add without host makes value the host": {
			input:    workload("Job", one("perl:5.34.0")),
			filter:   Image{Component: "Registry", Operator: "add", Value: "registry.k8s.io"},
			expected: workload("Job", one("registry.k8s.io/perl:5.34.0")),
		},
		"registry replace uses the host heuristic": {
			input: pod(`containers:
- name: a # org, not a host
  image: myorg/app:1.0 # a
- name: b
  image: localhost:5000/app:1.0 # b
- name: c
  image: localhost/tool:2 # c
- name: d
  image: docker.io/library/nginx:1.25 # d
- name: e
  image: nginx # e
`),
			filter: Image{Component: "Registry", Operator: "replace", Value: "registry.example.com"},
			expected: pod(`containers:
- name: a # org, not a host
  image: registry.example.com/myorg/app:1.0 # a
- name: b
  image: registry.example.com/app:1.0 # b
- name: c
  image: registry.example.com/tool:2 # c
- name: d
  image: registry.example.com/library/nginx:1.25 # d
- name: e
  image: registry.example.com/nginx # e
`),
		},
		"registry replace with empty value removes the registry": {
			input:    deployment(one(reg)),
			filter:   Image{Component: "Registry", Operator: "replace"},
			expected: deployment(one("imagename:v1.0.0")),
		},
		"registry replace with a path acts as a prefix": {
			input:    deployment(one(reg)),
			filter:   Image{Component: "Registry", Operator: "replace", Value: "mirror.example/cache"},
			expected: deployment(one("mirror.example/cache/imagename:v1.0.0")),
		},
		"registry remove ignores the value": {
			input:    deployment(one(reg)),
			filter:   Image{Component: "Registry", Operator: "remove", Value: "fictional.registry.us"},
			expected: deployment(one("imagename:v1.0.0")),
		},
		"repository add concatenates": {
			input:    deployment(one(reg)),
			filter:   Image{Component: "Repository", Operator: "add", Value: "/nginx"},
			expected: deployment(one("fictional.registry.example/imagename/nginx:v1.0.0")),
		},
		"repository replace on a pod": {
			input:    pod(one(reg)),
			filter:   Image{Component: "Repository", Operator: "replace", Value: "nginx"},
			expected: pod(one("fictional.registry.example/nginx:v1.0.0")),
		},
		"repository remove produces invalid images": {
			input: pod(`containers:
- name: a
  image: reg.example/app:v1.0.0 # a
- name: b
  image: app:v1.0.0 # b
- name: c
  image: app # c
`),
			filter: Image{Component: "Repository", Operator: "remove"},
			expected: pod(`containers:
- name: a
  image: reg.example/:v1.0.0 # a
- name: b
  image: :v1.0.0 # b
- name: c
  image: "" # c
`),
		},
		"a later overrider cannot parse what repository remove left": {
			input:       pod(one("reg.example/:v1.0.0")),
			filter:      Image{Component: "Tag", Operator: "replace", Value: "v2"},
			expectedErr: "/spec/containers/0/image: failed to parse image value(reg.example/:v1.0.0), error: invalid reference format",
		},
		"tag add appends a suffix": {
			input:    pod(one("nginx:1.25")),
			filter:   Image{Component: "Tag", Operator: "add", Value: "-alpine"},
			expected: pod(one("nginx:1.25-alpine")),
		},
		"tag add of a digest onto a tag is a silent no-op": {
			input:    deployment(one(reg)),
			filter:   Image{Component: "Tag", Operator: "add", Value: digest},
			expected: deployment(one(reg)),
		},
		"tag add on an untagged image sets the tag": {
			input:    pod(one("nginx")),
			filter:   Image{Component: "Tag", Operator: "add", Value: "1.25"},
			expected: pod(one("nginx:1.25")),
		},
		"tag and digest lose the digest under any overrider": {
			input:    pod(one("nginx:1.25@" + digest)),
			filter:   Image{Component: "Registry", Operator: "add", Value: "registry.example.com"},
			expected: pod(one("registry.example.com/nginx:1.25")),
		},
		"unknown operator still re-serialises and drops the digest": {
			input:    pod(one("nginx:1.25@" + digest)),
			filter:   Image{Component: "Tag", Operator: "merge", Value: "x"},
			expected: pod(one("nginx:1.25")),
		},
		"tag remove ignores the value": {
			input:    deployment(one(reg)),
			filter:   Image{Component: "Tag", Operator: "remove", Value: digest},
			expected: deployment(one("fictional.registry.example/imagename")),
		},
		"tag remove on a digest image removes the digest": {
			input:    pod(one("nginx@" + digest)),
			filter:   Image{Component: "Tag", Operator: "remove"},
			expected: pod(one("nginx")),
		},
		"tag replace with empty value is a no-op": {
			input:    pod(one("nginx:1.25")),
			filter:   Image{Component: "Tag", Operator: "replace"},
			expected: pod(one("nginx:1.25")),
		},
		"tag replace with @digest is a no-op": {
			input:    pod(one("nginx:1.25")),
			filter:   Image{Component: "Tag", Operator: "replace", Value: "@" + digest},
			expected: pod(one("nginx:1.25")),
		},
		"tag replace with a digest drops the tag": {
			input:    deployment(one(reg)),
			filter:   Image{Component: "Tag", Operator: "replace", Value: digest},
			expected: deployment(one("fictional.registry.example/imagename@" + digest)),
		},
		"tag replace on a digest image drops the digest": {
			input:    pod(one("nginx@" + digest)),
			filter:   Image{Component: "Tag", Operator: "replace", Value: "1.25"},
			expected: pod(one("nginx:1.25")),
		},
		"an unchanged image keeps its bytes and quoting": {
			input:    pod(one(`"nginx:1.25"`)),
			filter:   Image{Component: "Tag", Operator: "replace", Value: "1.25"},
			expected: pod(one(`"nginx:1.25"`)),
		},
		"a changed image keeps its quoting": {
			input:    pod(one(`'nginx:1.25'`)),
			filter:   Image{Component: "Tag", Operator: "replace", Value: "1.26"},
			expected: pod(one(`'nginx:1.26'`)),
		},
		"every container is rewritten, init containers never": {
			input: workload("StatefulSet", `initContainers:
- name: init # init
  image: busybox:1.36 # untouched
containers:
- name: a
  image: nginx:1.25 # a
- name: b
  image: envoy:v1.30 # b
`),
			filter: Image{Component: "Registry", Operator: "add", Value: "mirror.example"},
			expected: workload("StatefulSet", `initContainers:
- name: init # init
  image: busybox:1.36 # untouched
containers:
- name: a
  image: mirror.example/nginx:1.25 # a
- name: b
  image: mirror.example/envoy:v1.30 # b
`),
		},
		"replica set": {
			input:    workload("ReplicaSet", one(reg)),
			filter:   Image{Component: "Repository", Operator: "replace", Value: "nginx"},
			expected: workload("ReplicaSet", one("fictional.registry.example/nginx:v1.0.0")),
		},
		"daemon set": {
			input:    workload("DaemonSet", one(reg)),
			filter:   Image{Component: "Repository", Operator: "replace", Value: "nginx"},
			expected: workload("DaemonSet", one("fictional.registry.example/nginx:v1.0.0")),
		},
		"the kind alone decides, not the apiVersion": {
			input: `# a CRD that happens to be called Deployment
apiVersion: example.com/v1 # not apps
kind: Deployment
spec:
  template:
    spec:
      containers:
      - image: nginx:1.25 # a
# foot comment
`,
			filter: Image{Component: "Tag", Operator: "replace", Value: "1.26"},
			expected: `# a CRD that happens to be called Deployment
apiVersion: example.com/v1 # not apps
kind: Deployment
spec:
  template:
    spec:
      containers:
      - image: nginx:1.26 # a
# foot comment
`,
		},
		"cron jobs are not auto-detected": {
			input:    cronJob(one("busybox:1.36")),
			filter:   Image{Component: "Registry", Operator: "replace", Value: "registry.example.com"},
			expected: cronJob(one("busybox:1.36")),
		},
		"other kinds are not auto-detected": {
			input:    configMap("image: nginx:1.25 # not a container\n"),
			filter:   Image{Component: "Registry", Operator: "replace", Value: "registry.example.com"},
			expected: configMap("image: nginx:1.25 # not a container\n"),
		},
		"no containers is a no-op": {
			input:    deployment("containers: [] # none\n"),
			filter:   Image{Component: "Registry", Operator: "replace", Value: "registry.example.com"},
			expected: deployment("containers: [] # none\n"),
		},
		"no pod spec is a no-op": {
			input:    deployment("restartPolicy: Always # no containers key\n"),
			filter:   Image{Component: "Registry", Operator: "replace", Value: "registry.example.com"},
			expected: deployment("restartPolicy: Always # no containers key\n"),
		},
	})
}

func TestImageByKindErrors(t *testing.T) {
	add := Image{Component: "Registry", Operator: "add", Value: "registry.example.com"}
	runCases(t, map[string]filterCase{
		"a container without image fails the whole override": {
			input: deployment(`containers:
- name: a
  image: nginx:1.25 # would be rewritten
- name: no-image # no image
`),
			filter:      add,
			expectedErr: "/spec/template/spec/containers/1/image: failed to parse image value(), error: repository name must have at least one component",
		},
		"a null image is an empty image": {
			input:       pod(one("null")),
			filter:      add,
			expectedErr: "/spec/containers/0/image: failed to parse image value(), error: repository name must have at least one component",
		},
		"uppercase repository": {
			input:       pod(one("Nginx:1.0")),
			filter:      add,
			expectedErr: "failed to parse image value(Nginx:1.0), error: repository name must be lowercase",
		},
		"empty tag": {
			input:       pod(one("'nginx:'")),
			filter:      add,
			expectedErr: "failed to parse image value(nginx:), error: invalid reference format",
		},
		"uppercase digest": {
			input:       pod(one("nginx@sha256:DBCC1C35AC38DF41FD2F5E4130B32FFDB93EBAE8B3DBE638C23575912276FC9C")),
			filter:      add,
			expectedErr: "error: invalid checksum digest format",
		},
		"short digest": {
			input:       pod(one("nginx@sha256:dbcc1c35ac38df41fd2f5e4130b32ffd")),
			filter:      add,
			expectedErr: "error: invalid checksum digest length",
		},
		"unknown digest algorithm": {
			input:       pod(one("nginx@foo:dbcc1c35ac38df41fd2f5e4130b32ffdb93ebae8b3dbe638c23575912276fc9c")),
			filter:      add,
			expectedErr: "error: unsupported digest algorithm",
		},
		"unsupported component": {
			input:       pod(one("nginx:1.25")),
			filter:      Image{Component: "Digest", Operator: "replace", Value: "x"},
			expectedErr: "/spec/containers/0/image: unsupported image component(Digest)",
		},
		"the image is parsed before the component is checked": {
			input:       pod(one("''")),
			filter:      Image{Component: "Digest", Operator: "replace", Value: "x"},
			expectedErr: "failed to parse image value(), error: repository name must have at least one component",
		},
		"containers is not a list": {
			input:       deployment("containers: {name: a} # a map\n"),
			filter:      add,
			expectedErr: "/spec/template/spec/containers: failed to convert Deployment from unstructured object: cannot restore slice from map",
		},
		"a container is not an object": {
			input:       pod("containers:\n- nginx:1.25 # a string\n"),
			filter:      add,
			expectedErr: "/spec/containers/0: failed to convert Pod from unstructured object: cannot restore struct from: string",
		},
		"the pod spec is not an object": {
			input:       "kind: Deployment # d\nspec:\n  template:\n    spec:\n    - a list # not a pod spec\n",
			filter:      add,
			expectedErr: "/spec/template/spec: failed to convert Deployment from unstructured object: cannot restore struct from: slice",
		},
		"an int image": {
			input:       pod(one("1234")),
			filter:      add,
			expectedErr: "/spec/containers/0/image: failed to convert Pod from unstructured object: cannot convert int64 to string",
		},
		"a bool image": {
			input:       pod(one("true")),
			filter:      add,
			expectedErr: "/spec/containers/0/image: failed to convert Pod from unstructured object: unrecognized type: string",
		},
	})
}
