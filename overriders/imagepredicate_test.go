// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import "testing"

const twoContainers = `initContainers:
- name: init # init
  image: busybox:1.36 # init image
containers:
# the app container
- name: app # app name
  image: fictional.registry.example/imagename:v1.0.0 # pinned image
  env:
  - name: SIDECAR_IMAGE
    value: envoy:v1.30 # env image
- name: sidecar # sidecar name
  image: registry.k8s.io/nginx-slim:0.8 # sidecar image
`

func TestImagePredicate(t *testing.T) {
	runCases(t, map[string]filterCase{
		"selects one container": {
			input:  deployment(twoContainers),
			filter: Image{Predicate: ptr("/spec/template/spec/containers/1/image"), Component: "Repository", Operator: "replace", Value: "nginx"},
			expected: deployment(`initContainers:
- name: init # init
  image: busybox:1.36 # init image
containers:
# the app container
- name: app # app name
  image: fictional.registry.example/imagename:v1.0.0 # pinned image
  env:
  - name: SIDECAR_IMAGE
    value: envoy:v1.30 # env image
- name: sidecar # sidecar name
  image: registry.k8s.io/nginx:0.8 # sidecar image
`),
		},
		"reaches init containers": {
			input:  deployment(twoContainers),
			filter: Image{Predicate: ptr("/spec/template/spec/initContainers/0/image"), Component: "Tag", Operator: "replace", Value: "1.37"},
			expected: deployment(`initContainers:
- name: init # init
  image: busybox:1.37 # init image
containers:
# the app container
- name: app # app name
  image: fictional.registry.example/imagename:v1.0.0 # pinned image
  env:
  - name: SIDECAR_IMAGE
    value: envoy:v1.30 # env image
- name: sidecar # sidecar name
  image: registry.k8s.io/nginx-slim:0.8 # sidecar image
`),
		},
		"reaches any string field": {
			input:  deployment(twoContainers),
			filter: Image{Predicate: ptr("/spec/template/spec/containers/0/env/0/value"), Component: "Registry", Operator: "add", Value: "mirror.example"},
			expected: deployment(`initContainers:
- name: init # init
  image: busybox:1.36 # init image
containers:
# the app container
- name: app # app name
  image: fictional.registry.example/imagename:v1.0.0 # pinned image
  env:
  - name: SIDECAR_IMAGE
    value: mirror.example/envoy:v1.30 # env image
- name: sidecar # sidecar name
  image: registry.k8s.io/nginx-slim:0.8 # sidecar image
`),
		},
		"cron job with a predicate": {
			input:    cronJob(one("busybox:1.36")),
			filter:   Image{Predicate: ptr("/spec/jobTemplate/spec/template/spec/containers/0/image"), Component: "Registry", Operator: "replace", Value: "registry.example.com"},
			expected: cronJob(one("registry.example.com/busybox:1.36")),
		},
		"job with a predicate": {
			input:    workload("Job", one("perl:5.34.0")),
			filter:   Image{Predicate: ptr("/spec/template/spec/containers/0/image"), Component: "Registry", Operator: "add", Value: "registry.k8s.io"},
			expected: workload("Job", one("registry.k8s.io/perl:5.34.0")),
		},
		"a predicate on a kind that is never auto-detected": {
			input:    configMap("image: nginx:1.25 # the image\n"),
			filter:   Image{Predicate: ptr("/data/image"), Component: "Tag", Operator: "replace", Value: "1.26"},
			expected: configMap("image: nginx:1.26 # the image\n"),
		},
		"an unchanged value keeps its bytes": {
			input:    configMap("image: \"nginx:1.25\" # quoted\n"),
			filter:   Image{Predicate: ptr("/data/image"), Component: "Tag", Operator: "replace", Value: "1.25"},
			expected: configMap("image: \"nginx:1.25\" # quoted\n"),
		},
		"a doubled leading slash reads the image, the write is lost": {
			// The walker trims the slashes; evanphx resolves the empty
			// segment to a fresh copy of the document and patches that.
			input:    configMap("image: nginx:1.25 # the image\n"),
			filter:   Image{Predicate: ptr("//data/image"), Component: "Tag", Operator: "replace", Value: "1.26"},
			expected: configMap("image: nginx:1.25 # the image\n"),
		},
		"the walker reads ~1 literally, the write decodes it": {
			input: withMeta(`annotations:
  example.com~1image: nginx:1.25 # read from here
  example.com/image: busybox:1.36 # written here
`),
			filter: Image{Predicate: ptr("/metadata/annotations/example.com~1image"), Component: "Tag", Operator: "replace", Value: "1.26"},
			expected: withMeta(`annotations:
  example.com~1image: nginx:1.25 # read from here
  example.com/image: nginx:1.26 # written here
`),
		},
	})
}

func TestImagePredicateErrors(t *testing.T) {
	add := Image{Component: "Registry", Operator: "add", Value: "registry.example.com"}
	with := func(path string) Image { i := add; i.Predicate = &path; return i }
	runCases(t, map[string]filterCase{
		"a missing intermediate key": {
			input:       deployment(one("nginx:1.25")),
			filter:      with("/spec/template/spec/initContainers/0/image"),
			expectedErr: "failed to obtain imageValue with predicate path(/spec/template/spec/initContainers/0/image), error: path(initContainers) of rawObj's type is not map[string]interface{} and []interface{}",
		},
		"a scalar intermediate": {
			input:       deployment(one("nginx:1.25")),
			filter:      with("/spec/replicas/x"),
			expectedErr: "error: path(replicas) of rawObj's type is not map[string]interface{} and []interface{}",
		},
		"a non-number index": {
			input:       deployment(one("nginx:1.25")),
			filter:      with("/spec/template/spec/containers/first/image"),
			expectedErr: "error: path(first) of rawObj's is not number",
		},
		"a missing final key": {
			input:       deployment(one("nginx:1.25")),
			filter:      with("/spec/template/spec/containers/0/img"),
			expectedErr: "error: failed to convert path(img) to string",
		},
		"a path ending at a list element": {
			input:       deployment(one("nginx:1.25")),
			filter:      with("/spec/template/spec/containers/0"),
			expectedErr: "error: failed to convert path(0) to string",
		},
		"a non-string final value": {
			input:       deployment(one("nginx:1.25")),
			filter:      with("/spec/replicas"),
			expectedErr: "failed to obtain imageValue with predicate path(/spec/replicas), error: failed to convert path(replicas) to string",
		},
		"an empty path": {
			input:       deployment(one("nginx:1.25")),
			filter:      with(""),
			expectedErr: "failed to obtain imageValue with predicate path(), error: failed to convert path() to string",
		},
		"an index past the end (upstream panics)": {
			input:       deployment(one("nginx:1.25")),
			filter:      with("/spec/template/spec/containers/5/image"),
			expectedErr: "failed to obtain imageValue with predicate path(/spec/template/spec/containers/5/image), error: path(containers) of rawObj's index 5 is out of range",
		},
		"a negative index (upstream panics)": {
			input:       deployment(one("nginx:1.25")),
			filter:      with("/spec/template/spec/containers/-1/image"),
			expectedErr: "error: path(containers) of rawObj's index -1 is out of range",
		},
		"a list element that is not an object (upstream panics)": {
			input:       deployment("containers:\n- name: a\n  image: nginx:1.25\n  args: [x] # args\n"),
			filter:      with("/spec/template/spec/containers/0/args/0/image"),
			expectedErr: "error: path(args/0) of rawObj's type is not map[string]interface{}",
		},
		"a path without a leading slash": {
			input:       deployment(one("nginx:1.25")),
			filter:      with("spec/template/spec/containers/0/image"),
			expectedErr: "spec/template/spec/containers/0/image: imagePath should be start with / character",
		},
		"a trailing slash reads the image but cannot write it": {
			input:       deployment(one("nginx:1.25")),
			filter:      with("/spec/template/spec/containers/0/image/"),
			expectedErr: "replace operation does not apply: doc is missing path: /spec/template/spec/containers/0/image/: missing value",
		},
		"an escaped key the write cannot find": {
			input:       withMeta("annotations:\n  example.com~1image: nginx:1.25 # only this one\n"),
			filter:      with("/metadata/annotations/example.com~1image"),
			expectedErr: "replace operation does not apply: doc is missing key: /metadata/annotations/example.com~1image: missing value",
		},
		"a parse error names the path": {
			input:       pod(one("Nginx")),
			filter:      with("/spec/containers/0/image"),
			expectedErr: "/spec/containers/0/image: failed to parse image value(Nginx), error: repository name must be lowercase",
		},
	})
}
