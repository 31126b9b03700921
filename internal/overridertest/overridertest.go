// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package overridertest holds the test fixtures and checks that the tests
// and fuzz targets of Karmada's overriders (package overriders) and
// KubeAdmiral's (package kubeadmiral/overriders) share. Only tests import it.
package overridertest

import (
	"strings"
	"testing"

	"github.com/distribution/reference"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Indent prefixes every non-empty line of s with n spaces.
func Indent(s string, n int) string {
	pad := strings.Repeat(" ", n)
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			lines[i] = pad + l
		}
	}
	return strings.Join(lines, "")
}

// Node parses a YAML value for use in a patch operation.
func Node(t *testing.T, s string) *yaml.Node {
	t.Helper()
	rn, err := yaml.Parse(s)
	if err != nil {
		t.Fatalf("parse value %q: %v", s, err)
	}
	return rn.YNode()
}

// OddDocuments put every shape where an overrider expects another one.
var OddDocuments = []string{
	"kind: Pod\n",
	"kind: Pod\nspec: null\n",
	"kind: Pod\nspec: 3\n",
	"kind: Pod\nspec: [a]\n",
	"kind: Pod\nspec:\n  containers: null\n",
	"kind: Pod\nspec:\n  containers: x\n",
	"kind: Pod\nspec:\n  containers: [null, 1, [a], {}]\n",
	"kind: Pod\nspec:\n  containers:\n  - name: a\n    image: {a: b}\n    command: {a: b}\n    args: x\n",
	"kind: Deployment\nspec:\n  template: [a]\n",
	"kind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n      - &c {name: a, image: nginx, args: &a [x, 1, null, {k: v}]}\n      - *c\n      - {name: a, args: *a}\n",
	"kind: [Pod]\nmetadata: [a]\n",
	"kind: Job\nmetadata: null\n",
	"metadata:\n  labels: [a]\n  annotations: 5\n",
	"metadata:\n  labels: {a: [b], c: null}\n",
	"metadata: &m {labels: {a: b}}\nother: *m\n",
	"data:\n  c.json: '{\"a\": [1, 2]}'\n  c.yaml: 'a: [1'\n",
	"- a\n- b\n",
	"just a scalar\n",
	"",
}

// SameError reports whether a and b are both nil or have the same message.
func SameError(a, b error) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Error() == b.Error()
}

// CheckHostSplit checks a host/repository pair against reference's domain
// and path. SplitHostname looks only at the first "/" segment of the name:
// a host when it holds "." or ":" or is "localhost", else part of the
// repository. So the pair is reference's domain and path when that domain
// is such a host; no host and the whole name when the first segment is not
// (reference may still call it a domain: "ealen/echo"); and the first
// segment as host where reference's grammar refuses it as a domain but it
// holds a "." or ":" ("a_b.c/d": "_" is not allowed in a host name).
func CheckHostSplit(t *testing.T, s string, ref reference.Reference, host, repo string) {
	t.Helper()
	named, ok := ref.(reference.Named)
	if !ok {
		if host != "" || repo != "" {
			t.Fatalf("%q has no name, yet host %q repository %q", s, host, repo)
		}
		return
	}
	domain, path := reference.Domain(named), reference.Path(named)
	first, rest, found := strings.Cut(named.Name(), "/")
	firstIsHost := found && (strings.ContainsAny(first, ".:") || first == "localhost")
	switch {
	case firstIsHost && domain == first && host == domain && repo == path:
	case !firstIsHost && host == "" && repo == named.Name():
	case firstIsHost && domain == "" && host == first && repo == rest:
	default:
		t.Fatalf("%q: host %q repository %q; reference: domain %q path %q", s, host, repo, domain, path)
	}
}

// TagAndDigest are ref's tag and digest, "" when absent.
func TagAndDigest(ref reference.Reference) (tag, dgst string) {
	if tagged, ok := ref.(reference.Tagged); ok {
		tag = tagged.Tag()
	}
	if digested, ok := ref.(reference.Digested); ok {
		dgst = digested.Digest().String()
	}
	return tag, dgst
}

// BenchDeployment is the commented Deployment the overrider benchmarks
// edit: two containers, args, an env value holding JSON.
const BenchDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # the workload
  namespace: shop
  labels:
    app: web
spec:
  replicas: 2 # default
  template:
    spec:
      containers:
      - name: main
        image: registry.example.com/web:1.0 # pinned
        args: ["--port=8080"]
        env:
        - name: CONFIG
          value: '{"mode":"a"}'
      - name: sidecar
        image: envoy:1.30
`
