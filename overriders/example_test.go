// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders_test

import (
	"fmt"
	"log"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
	"github.com/apply-overrides/apply-overrides/overriders"
)

func ExampleImage() {
	rn := yaml.MustParse(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: app
        image: nginx:1.25 # pinned by the platform team
      - name: sidecar
        image: docker.io/envoyproxy/envoy:v1.30
`)
	// Karmada: imageOverrider {component: Registry, operator: replace, value: ...}
	mirror := overriders.Image{Component: "Registry", Operator: "replace", Value: "mirror.example.com"}
	if _, err := rn.Pipe(mirror); err != nil {
		log.Fatal(err)
	}
	fmt.Print(rn.MustString())
	// Output:
	// apiVersion: apps/v1
	// kind: Deployment
	// metadata:
	//   name: web
	// spec:
	//   template:
	//     spec:
	//       containers:
	//       - name: app
	//         image: mirror.example.com/nginx:1.25 # pinned by the platform team
	//       - name: sidecar
	//         image: mirror.example.com/envoyproxy/envoy:v1.30
}

func ExampleImage_predicate() {
	rn := yaml.MustParse(`apiVersion: batch/v1
kind: CronJob
metadata:
  name: report
spec:
  jobTemplate:
    spec:
      template:
        spec:
          containers:
          - name: report
            image: busybox:1.36
`)
	// CronJobs are not auto-detected; a predicate reaches any string field.
	path := "/spec/jobTemplate/spec/template/spec/containers/0/image"
	bump := overriders.Image{Predicate: &path, Component: "Tag", Operator: "replace", Value: "1.37"}
	if _, err := rn.Pipe(bump); err != nil {
		log.Fatal(err)
	}
	fmt.Println(rn.Field("spec").Value.MustString())

	// Upstream's own errors come back with the path they concern.
	bad := overriders.Image{Component: "Tag", Operator: "replace", Value: "x"}
	_, err := yaml.MustParse("kind: Pod\nspec:\n  containers:\n  - name: a\n").Pipe(bad)
	fmt.Println(err)
	// Output:
	// jobTemplate:
	//   spec:
	//     template:
	//       spec:
	//         containers:
	//         - name: report
	//           image: busybox:1.37
	//
	// /spec/containers/0/image: failed to parse image value(), error: repository name must have at least one component
}

func ExamplePlaintext() {
	rn := yaml.MustParse(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3 # default for all clusters
  template:
    spec:
      containers:
      - name: app
        image: nginx:1.25
`)
	value := func(s string) *yaml.Node { return yaml.MustParse(s).YNode() }
	// Karmada: one plaintext overrider list becomes one RFC 6902 patch.
	patch := overriders.Plaintext{Patch: yamlpatch.Patch{
		{Op: "replace", Path: "/spec/replicas", Value: value("1")},
		{Op: "add", Path: "/spec/template/spec/nodeSelector", Value: value("disktype: ssd")},
	}}
	if _, err := rn.Pipe(patch); err != nil {
		log.Fatal(err)
	}
	fmt.Print(rn.MustString())

	// A failing op leaves the resource untouched.
	_, err := rn.Pipe(overriders.Plaintext{Patch: yamlpatch.Patch{{Op: "remove", Path: "/spec/paused"}}})
	fmt.Println(err)
	// Output:
	// apiVersion: apps/v1
	// kind: Deployment
	// metadata:
	//   name: web
	// spec:
	//   replicas: 1 # default for all clusters
	//   template:
	//     spec:
	//       containers:
	//       - name: app
	//         image: nginx:1.25
	//       nodeSelector:
	//         disktype: ssd
	// error in remove for path: '/spec/paused': unable to remove nonexistent key: paused: missing value
}
