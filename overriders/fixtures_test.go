// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import "github.com/apply-overrides/apply-overrides/internal/overridertest"

const digest = "sha256:dbcc1c35ac38df41fd2f5e4130b32ffdb93ebae8b3dbe638c23575912276fc9c"

// workload renders a commented manifest of kind whose pod spec sits under
// spec.template.spec; spec is the pod spec's body.
func workload(kind, spec string) string {
	return `# head comment
apiVersion: apps/v1 # line comment
kind: ` + kind + `
metadata:
  name: web # name comment
spec:
  replicas: 1 # replicas comment
  template:
    spec:
` + overridertest.Indent(spec, 6) + `# foot comment
`
}

// deployment is workload("Deployment", spec).
func deployment(spec string) string { return workload("Deployment", spec) }

// pod renders a commented Pod whose spec body is spec.
func pod(spec string) string {
	return `# head comment
apiVersion: v1 # line comment
kind: Pod
metadata:
  name: web # name comment
spec:
` + overridertest.Indent(spec, 2) + `# foot comment
`
}

// cronJob renders a commented CronJob whose pod spec body is spec.
func cronJob(spec string) string {
	return `# head comment
apiVersion: batch/v1 # line comment
kind: CronJob
metadata:
  name: web # name comment
spec:
  schedule: '*/5 * * * *' # schedule comment
  jobTemplate:
    spec:
      template:
        spec:
` + overridertest.Indent(spec, 10) + `# foot comment
`
}

// withMeta renders a commented ConfigMap-like manifest whose metadata body
// (after the name) is meta.
func withMeta(meta string) string {
	return `# head comment
apiVersion: apps/v1 # line comment
kind: Deployment
metadata:
  name: web # name comment
` + overridertest.Indent(meta, 2) + `spec:
  replicas: 1 # replicas comment
  template:
    metadata:
      labels:
        app: web # template label
# foot comment
`
}

// configMap renders a commented ConfigMap whose data body is data.
func configMap(data string) string {
	return `# head comment
apiVersion: v1 # line comment
kind: ConfigMap
metadata:
  name: cfg # name comment
data:
` + overridertest.Indent(data, 2) + `# foot comment
`
}
