// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package corpus generates deterministic ResourceLists for benchmarks: R
// workload resources with comments across namespaces, and P Karmada
// OverridePolicies (plus a ClusterOverridePolicy) that exercise every
// overrider, for a cluster named member1.
package corpus

import (
	"fmt"
	"strings"
)

// ResourceList returns a ResourceList with r resources and p policies.
func ResourceList(r, p int) []byte {
	var b strings.Builder
	b.WriteString("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n")
	for i := 0; i < r; i++ {
		ns, app := fmt.Sprintf("ns-%02d", i%10), fmt.Sprintf("app-%03d", i%40)
		switch i % 3 {
		case 0:
			fmt.Fprintf(&b, `# Deployment %[1]s/%[2]s-%05[3]d
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: %[2]s-%05[3]d # the workload
    namespace: %[1]s
    labels:
      app: %[2]s
  spec:
    replicas: 2 # default
    template:
      spec:
        containers:
        - name: main
          image: registry.example.com/%[2]s:1.%[3]d # pinned
          args: ["--port=8080"]
        - name: sidecar
          image: envoy:1.30
`, ns, app, i)
		case 1:
			fmt.Fprintf(&b, `- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: %[2]s-%05[3]d
    namespace: %[1]s
    labels:
      app: %[2]s
  data:
    settings.json: '{"region":"default","ttl":60}' # embedded JSON
`, ns, app, i)
		default:
			fmt.Fprintf(&b, `- apiVersion: v1
  kind: Service
  metadata:
    name: %[2]s-%05[3]d
    namespace: %[1]s
  spec:
    selector:
      app: %[2]s
    ports:
    - port: 80 # http
`, ns, app, i)
		}
	}
	b.WriteString(`- apiVersion: policy.karmada.io/v1alpha1
  kind: ClusterOverridePolicy
  metadata:
    name: mirror
  spec:
    resourceSelectors:
    - apiVersion: apps/v1
      kind: Deployment
    overrideRules:
    - targetCluster:
        labelSelector:
          matchLabels:
            env: prod
      overriders:
        imageOverrider:
        - component: Registry
          operator: replace
          value: mirror.example.com
`)
	for i := 0; i < p; i++ {
		ns, app := fmt.Sprintf("ns-%02d", i%10), fmt.Sprintf("app-%03d", i%40)
		fmt.Fprintf(&b, `- apiVersion: policy.karmada.io/v1alpha1
  kind: OverridePolicy
  metadata:
    name: p-%04[3]d
    namespace: %[1]s
  spec:
    resourceSelectors:
    - apiVersion: apps/v1
      kind: Deployment
      labelSelector:
        matchLabels:
          app: %[2]s
    - apiVersion: v1
      kind: ConfigMap
      labelSelector:
        matchLabels:
          app: %[2]s
    overrideRules:
    - targetCluster:
        clusterNames: [member1]
      overriders:
        labelsOverrider:
        - operator: add
          value:
            policy: p-%04[3]d
        argsOverrider:
        - containerName: main
          operator: add
          value: ["--cache"]
        plaintext:
        - operator: add
          path: /metadata/annotations
          value:
            rendered: "true"
`, ns, app, i)
	}
	b.WriteString(`- apiVersion: cluster.karmada.io/v1alpha1
  kind: Cluster
  metadata:
    name: member1
    labels:
      env: prod
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: function-input
  data:
    cluster: member1
`)
	return []byte(b.String())
}
