// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// idemDeployment is the resource every overrider of TestOverriderIdempotence
// edits.
const idemDeployment = `- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web
    namespace: default
    labels: {app: web}
    annotations: {note: x}
  spec:
    replicas: 1
    template:
      spec:
        containers:
        - name: web
          image: docker.io/library/nginx:1.0
          command: [serve]
          args: [--port=80]
          env:
          - {name: MODE, value: a}
`

// TestOverriderIdempotence applies each overrider to its own output, as a
// user would who renders an already rendered manifest without the
// keepPolicies marker (which makes a second run skip the resource). README.md
// ("Idempotence") lists the overriders that do not give the same manifest
// twice.
func TestOverriderIdempotence(t *testing.T) {
	karmada := func(overriders string) string {
		return "- apiVersion: policy.karmada.io/v1alpha1\n  kind: OverridePolicy\n  metadata: {name: op, namespace: default}\n  spec:\n" +
			"    resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]\n    overrideRules:\n    - overriders:\n" + indent(overriders, 8) +
			"- apiVersion: cluster.karmada.io/v1alpha1\n  kind: Cluster\n  metadata: {name: member1}\n"
	}
	kubeadmiral := func(overriders string) string {
		return "- apiVersion: core.kubeadmiral.io/v1alpha1\n  kind: ClusterOverridePolicy\n  metadata: {name: cop}\n  spec:\n" +
			"    overrideRules:\n    - targetClusters: {clusters: [member1]}\n      overriders:\n" + indent(overriders, 8) +
			"- apiVersion: core.kubeadmiral.io/v1alpha1\n  kind: FederatedCluster\n  metadata: {name: member1}\n"
	}
	kyverno := func(mutate string) string {
		return "- apiVersion: kyverno.io/v1\n  kind: ClusterPolicy\n  metadata: {name: kp}\n  spec:\n    rules:\n    - name: r\n" +
			"      match: {any: [{resources: {kinds: [Deployment]}}]}\n      mutate:\n" + indent(mutate, 8) +
			"- apiVersion: cluster.karmada.io/v1alpha1\n  kind: Cluster\n  metadata: {name: member1}\n"
	}
	// KubeAdmiral binds a resource to its policy by a label and strips
	// that label from what it renders, so a rendered manifest meets no
	// policy again; the label is put back to apply the overrider twice.
	const label = "labels: {app: web"
	const bound = "labels: {app: web, kubeadmiral.io/cluster-override-policy-name: cop"
	const (
		same    = "same"    // the second run changes nothing
		changes = "changes" // the second run changes the manifest again
		fails   = "fails"   // the second run is an error, as upstream's would be
	)
	for name, c := range map[string]struct {
		policy string
		again  string
	}{
		"karmada image registry replace": {karmada("imageOverrider: [{component: Registry, operator: replace, value: mirror.io}]\n"), same},
		"karmada image registry add":     {karmada("imageOverrider: [{component: Registry, operator: add, value: mirror.io}]\n"), changes},
		"karmada image registry remove":  {karmada("imageOverrider: [{component: Registry, operator: remove}]\n"), same},
		"karmada image repository add":   {karmada("imageOverrider: [{component: Repository, operator: add, value: mirror}]\n"), changes},
		"karmada image tag replace":      {karmada("imageOverrider: [{component: Tag, operator: replace, value: '2.0'}]\n"), same},
		"karmada command add":            {karmada("commandOverrider: [{containerName: web, operator: add, value: [--debug]}]\n"), changes},
		"karmada command remove":         {karmada("commandOverrider: [{containerName: web, operator: remove, value: [serve]}]\n"), same},
		"karmada args add":               {karmada("argsOverrider: [{containerName: web, operator: add, value: [--debug]}]\n"), changes},
		"karmada args remove":            {karmada("argsOverrider: [{containerName: web, operator: remove, value: [--port=80]}]\n"), same},
		"karmada labels add":             {karmada("labelsOverrider: [{operator: add, value: {team: a}}]\n"), same},
		"karmada labels replace":         {karmada("labelsOverrider: [{operator: replace, value: {app: web2}}]\n"), same},
		"karmada annotations remove":     {karmada("annotationsOverrider: [{operator: remove, value: {note: x}}]\n"), same},
		"karmada plaintext replace":      {karmada("plaintext: [{operator: replace, path: /spec/replicas, value: 3}]\n"), same},
		"karmada plaintext add key":      {karmada("plaintext: [{operator: add, path: /metadata/labels/tier, value: web}]\n"), same},
		"karmada plaintext add to list":  {karmada("plaintext: [{operator: add, path: /spec/template/spec/containers/0/env/-, value: {name: X, value: y}}]\n"), changes},
		"karmada plaintext remove":       {karmada("plaintext: [{operator: remove, path: /metadata/annotations/note}]\n"), fails},
		"kubeadmiral image overwrite":    {kubeadmiral("image: [{operations: [{imageComponent: Tag, operator: overwrite, value: '2.0'}]}]\n"), same},
		"kubeadmiral image addIfAbsent":  {kubeadmiral("image: [{operations: [{imageComponent: Digest, operator: addIfAbsent, value: 'sha256:0000000000000000000000000000000000000000000000000000000000000000'}]}]\n"), fails},
		"kubeadmiral command append":     {kubeadmiral("command: [{containerName: web, operator: append, value: [--debug]}]\n"), changes},
		"kubeadmiral args overwrite":     {kubeadmiral("args: [{containerName: web, operator: overwrite, value: [--port=81]}]\n"), same},
		"kubeadmiral args delete":        {kubeadmiral("args: [{containerName: web, operator: delete, value: [--port=80]}]\n"), same},
		"kubeadmiral envs addIfAbsent":   {kubeadmiral("envs: [{containerName: web, operator: addIfAbsent, value: [{name: NEW, value: b}]}]\n"), fails},
		"kubeadmiral envs overwrite":     {kubeadmiral("envs: [{containerName: web, operator: overwrite, value: [{name: MODE, value: b}]}]\n"), same},
		"kubeadmiral labels addIfAbsent": {kubeadmiral("labels: [{operator: addIfAbsent, value: {team: a}}]\n"), fails},
		"kubeadmiral jsonpatch replace":  {kubeadmiral("jsonpatch: [{path: /spec/replicas, value: 3}]\n"), same},
		"kubeadmiral jsonpatch add list": {kubeadmiral("jsonpatch: [{operator: add, path: /spec/template/spec/containers/0/args/-, value: --x}]\n"), changes},
		"kyverno patchStrategicMerge":    {kyverno("patchStrategicMerge: {metadata: {labels: {team: a}}}\n"), same},
		"kyverno add-if-absent anchor":   {kyverno("patchStrategicMerge: {spec: {template: {spec: {containers: [{(name): '*', +(imagePullPolicy): Always}]}}}}\n"), same},
		"kyverno json patch replace":     {kyverno("patchesJson6902: |-\n  - {op: replace, path: /spec/replicas, value: 3}\n"), same},
		"kyverno json patch add to list": {kyverno("patchesJson6902: |-\n  - {op: add, path: /spec/template/spec/containers/0/args/-, value: --x}\n"), changes},
	} {
		t.Run(name, func(t *testing.T) {
			resource := idemDeployment
			if strings.Contains(c.policy, "kubeadmiral") {
				resource = strings.Replace(resource, label, bound, 1)
			}
			first := renderResource(t, resource, c.policy)
			again := first
			if strings.Contains(c.policy, "kubeadmiral") {
				require.NotContains(t, first, "kubeadmiral.io/cluster-override-policy-name")
				require.Contains(t, first, label)
				again = strings.Replace(again, label, bound, 1)
			}
			second, ok := tryRenderResource(again, c.policy)
			got := fails
			switch {
			case ok && second == first:
				got = same
			case ok:
				got = changes
			}
			assert.Equal(t, c.again, got, "first:\n%s\nsecond:\n%s", first, second)
		})
	}
}

func indent(s string, n int) string {
	pad := strings.Repeat(" ", n)
	return pad + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n"+pad) + "\n"
}

// renderResource renders one resource item with the policy items for
// member1 and returns the rendered resource as an item of a list.
func renderResource(t *testing.T, resource, policy string) string {
	t.Helper()
	out, ok := tryRenderResource(resource, policy)
	require.True(t, ok, out)
	return out
}

func tryRenderResource(resource, policy string) (string, bool) {
	in := rlHead + "items:\n" + resource + policy + rlFC
	out, results := execute(strings.NewReader(in))
	if results.ExitCode() != 0 {
		return errorMessages(results), false
	}
	s := string(out)
	start := strings.Index(s, "items:\n") + len("items:\n")
	end := strings.Index(s, "functionConfig:")
	return s[start:end], true
}
