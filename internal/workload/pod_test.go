// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package workload

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// podRefs reads the refs of a Pod whose spec is spec.
func podRefs(t *testing.T, spec string) (Refs, error) {
	t.Helper()
	o := parse(t, `{apiVersion: v1, kind: Pod, metadata: {name: p, namespace: ns}, spec: `+spec+`}`)
	s, p, err := o.ObjectAt(o.Root, nil, "spec")
	require.NoError(t, err)
	return o.PodRefs(s, p)
}

// refs builds the expected Refs; nil name lists are empty sets.
func refs(configMaps, secrets, claims []string, sa string) Refs {
	return Refs{ConfigMaps: sets.New(configMaps...), Secrets: sets.New(secrets...), Claims: sets.New(claims...), ServiceAccount: sa}
}

// The places of a pod spec that name an object, after the cases of
// Kubernetes' TestPodSecrets and TestPodConfigmaps (pkg/api/v1/pod), which
// Karmada's pkg/util/helper/pod_test.go repeats: each place is visited,
// names come out raw (empty ones and the "default" service account kept),
// and only a volume's first source in upstream's order counts.
func TestPodRefs(t *testing.T) {
	envs := func(prefix, ref, keyRef string) string {
		return `{envFrom: [{` + ref + `: {name: ` + prefix + `-envfrom}}], env: [{valueFrom: {` + keyRef + `: {name: ` + prefix + `-env}}}]}`
	}
	for _, tc := range []struct {
		name, spec string
		want       Refs
	}{
		{"an empty spec", `{}`, refs(nil, nil, nil, "")},
		{"an absent spec", `~`, refs(nil, nil, nil, "")},
		{"every place that names a secret", `{imagePullSecrets: [{name: image-secret}],
		    initContainers: [` + envs("init", "secretRef", "secretKeyRef") + `],
		    containers: [` + envs("container", "secretRef", "secretKeyRef") + `],
		    ephemeralContainers: [` + envs("ephemeral", "secretRef", "secretKeyRef") + `],
		    volumes: [{azureFile: {secretName: azure}}, {cephfs: {secretRef: {name: cephfs}}},
		      {cinder: {secretRef: {name: cinder}}}, {flexVolume: {secretRef: {name: flex}}},
		      {projected: {sources: [{secret: {name: projected}}]}}, {rbd: {secretRef: {name: rbd}}},
		      {secret: {secretName: secret}}, {scaleIO: {secretRef: {name: scaleio}}},
		      {iscsi: {secretRef: {name: iscsi}}}, {storageos: {secretRef: {name: storageos}}},
		      {csi: {nodePublishSecretRef: {name: csi}}}]}`,
			refs(nil, []string{"image-secret", "init-env", "init-envfrom", "container-env", "container-envfrom",
				"ephemeral-env", "ephemeral-envfrom", "azure", "cephfs", "cinder", "flex", "projected", "rbd", "secret",
				"scaleio", "iscsi", "storageos", "csi"}, nil, "")},
		{"every place that names a config map", `{
		    initContainers: [` + envs("init", "configMapRef", "configMapKeyRef") + `],
		    containers: [` + envs("container", "configMapRef", "configMapKeyRef") + `],
		    ephemeralContainers: [` + envs("ephemeral", "configMapRef", "configMapKeyRef") + `],
		    volumes: [{projected: {sources: [{configMap: {name: projected}}]}}, {configMap: {name: config}}]}`,
			refs([]string{"init-env", "init-envfrom", "container-env", "container-envfrom", "ephemeral-env",
				"ephemeral-envfrom", "projected", "config"}, nil, nil, "")},
		{"claims and the service account as written", `{serviceAccountName: default, volumes: [
		    {persistentVolumeClaim: {claimName: foo}}, {persistentVolumeClaim: {claimName: ""}}, {persistentVolumeClaim: {claimName: foo}},
		    {persistentVolumeClaim: ~}, {secret: {secretName: s}}]}`,
			refs(nil, []string{"s"}, []string{"foo", ""}, "default")},
		{"a claim without its name names the empty claim", `{volumes: [{persistentVolumeClaim: {readOnly: true}}]}`,
			refs(nil, nil, []string{""}, "")},
		{"only a volume's first source is visited", `{volumes: [{azureFile: {secretName: ""}, secret: {secretName: hidden}},
		    {projected: {sources: [{configMap: {name: p}}]}, configMap: {name: hidden}}, {secret: {secretName: s}, configMap: {name: c}}]}`,
			refs([]string{"p", "c"}, []string{"", "s"}, nil, "")},
		{"absent references name nothing, empty ones name the empty string", `{volumes: [{cephfs: {secretRef: ~}, secret: {secretName: hidden}},
		    {csi: {}}, ~, {projected: {sources: [~, {secret: {}}, {serviceAccountToken: {path: t}}]}}],
		    containers: [{env: [{value: x}, {valueFrom: ~}, {valueFrom: {fieldRef: {fieldPath: f}}}], envFrom: [{prefix: p}]}],
		    imagePullSecrets: [{name: ""}], serviceAccount: legacy}`,
			refs(nil, []string{""}, nil, "")},
		{"references without names", `{volumes: [{configMap: {}}, {cephfs: {secretRef: {}}}], containers: [{envFrom: [{configMapRef: {}}]}]}`,
			refs([]string{""}, []string{""}, nil, "")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := podRefs(t, tc.spec)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

// A field of the wrong type on the way fails, naming it, as the typed
// conversion before the visitors does; nothing half-read comes back.
func TestPodRefsErrors(t *testing.T) {
	for _, tc := range []struct {
		name, spec, want string
	}{
		{"volumes as a mapping", `{volumes: {}}`, `spec.volumes: Invalid value: "object": must be an array`},
		{"a volume as a string", `{volumes: [x]}`, `spec.volumes[0]: Invalid value: "x": must be an object`},
		{"a claim name as a number", `{volumes: [{persistentVolumeClaim: {claimName: 7}}]}`,
			`spec.volumes[0].persistentVolumeClaim.claimName: Invalid value: "7": must be a string`},
		{"a secret source as a string", `{volumes: [{secret: x}]}`, `spec.volumes[0].secret: Invalid value: "x": must be an object`},
		{"a secret name as a list", `{volumes: [{rbd: {secretRef: {name: []}}}]}`, `spec.volumes[0].rbd.secretRef.name: Invalid value: "array"`},
		{"projected sources as a string", `{volumes: [{projected: {sources: x}}]}`, `spec.volumes[0].projected.sources`},
		{"a projected secret as a string", `{volumes: [{projected: {sources: [{secret: x}]}}]}`, `spec.volumes[0].projected.sources[0].secret`},
		{"a config map volume as a list", `{volumes: [{configMap: []}]}`, `spec.volumes[0].configMap`},
		{"a config map name as a number", `{volumes: [{configMap: {name: 1}}]}`, `spec.volumes[0].configMap.name`},
		{"image pull secrets as a string", `{imagePullSecrets: x}`, `spec.imagePullSecrets`},
		{"an image pull secret name as a boolean", `{imagePullSecrets: [{name: true}]}`, `spec.imagePullSecrets[0].name: Invalid value: "true"`},
		{"containers as a string", `{ephemeralContainers: x}`, `spec.ephemeralContainers`},
		{"a container as a string", `{containers: [x]}`, `spec.containers[0]: Invalid value: "x"`},
		{"env as a mapping", `{initContainers: [{env: {}}]}`, `spec.initContainers[0].env`},
		{"valueFrom as a string", `{containers: [{env: [{valueFrom: x}]}]}`, `spec.containers[0].env[0].valueFrom`},
		{"service account as a list", `{serviceAccountName: []}`, `spec.serviceAccountName`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := podRefs(t, tc.spec)
			assert.ErrorContains(t, err, tc.want)
			assert.ErrorContains(t, err, "Pod ns/p: ", "the error names the resource")
			assert.Equal(t, Refs{}, got)
		})
	}
	o := parse(t, `{kind: Pod, spec: x}`)
	_, err := o.PodRefs(o.Root.Content[3], field.NewPath("spec"))
	assert.ErrorContains(t, err, `spec: Invalid value: "x": must be an object`, "the spec itself must be an object")
}
