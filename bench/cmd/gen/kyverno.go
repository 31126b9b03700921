// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package main

import "strings"

// kyvernoPolicies are the two ClusterPolicies of the Kyverno benchmark
// (`make bench-kyverno`), written after the Karmada policies into
// resourcelist-kyverno.yaml and alone into kyverno/policies.yaml for
// `kyverno apply`:
//
//   - add-cost-center: a patchStrategicMerge with an add-if-not-present
//     +(cost-center) label whose value is a variable (the namespace), on
//     the corpus's six kinds: it applies to every resource;
//   - pod-defaults: a Pod rule that autogen turns into rules for the pod
//     controllers (and CronJobs), a foreach over the containers setting
//     imagePullPolicy and two +() securityContext fields, for the
//     frontend and backend tiers (a precondition: a label selector would
//     turn autogen off).
var kyvernoPolicies = []string{`apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: add-cost-center
  annotations:
    policies.kyverno.io/description: every resource is charged to its namespace unless it says otherwise
spec:
  background: false
  rules:
  - name: cost-center
    match:
      any:
      - resources:
          kinds: [Deployment, StatefulSet, DaemonSet, CronJob, ConfigMap, Service]
    mutate:
      patchStrategicMerge:
        metadata:
          labels:
            +(cost-center): "{{request.object.metadata.namespace}}" # the namespace pays`,
	`apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: pod-defaults
spec:
  background: false
  rules:
  - name: containers
    match:
      any:
      - resources:
          kinds: [Pod]
    preconditions:
      any:
      - key: "{{request.object.metadata.labels.tier || ''}}"
        operator: AnyIn
        value: [frontend, backend]
    mutate:
      foreach:
      - list: request.object.spec.containers
        patchStrategicMerge:
          spec:
            containers:
            - name: "{{element.name}}"
              imagePullPolicy: IfNotPresent
              securityContext:
                +(runAsNonRoot): true
                +(allowPrivilegeEscalation): false`,
}

// kyvernoDocs are the policies as ResourceList items, the first one with a
// head comment.
func kyvernoDocs() []doc {
	var ds []doc
	for i, p := range kyvernoPolicies {
		d := doc{body: strings.Split(p, "\n")}
		if i == 0 {
			d.head = []string{"# Kyverno ClusterPolicies (make bench-kyverno)"}
		}
		ds = append(ds, d)
	}
	return ds
}

// kyvernoStream is the policies as a YAML stream, for `kyverno apply`.
func kyvernoStream() []byte {
	var b strings.Builder
	for _, p := range kyvernoPolicies {
		b.WriteString("---\n" + p + "\n")
	}
	return []byte(b.String())
}
