// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const depNamespace = "karmada-test"

func dep(kind, name string) dependency {
	return dependency{apiVersion: "v1", kind: kind, namespace: depNamespace, name: name}
}

// depPairs are testPairs of pkg/resourceinterpreter/default/native/
// dependencies_test.go, karmada v1.16.0: pod specs in flow YAML and the
// references each yields. The third has a volume with both a claim and an
// azureFile secret; both count, as the claim is read outside the visitor.
var depPairs = []struct {
	podSpec string
	want    []dependency
}{
	{`{serviceAccountName: test-serviceaccount, volumes: [
	    {name: initcontainer-volume-mount, configMap: {name: test-configmap}},
	    {name: cloud-secret-volume, secret: {secretName: cloud-secret}},
	    {name: container-volume-mount, persistentVolumeClaim: {claimName: test-pvc}}]}`,
		[]dependency{dep("ConfigMap", "test-configmap"), dep("Secret", "cloud-secret"),
			dep("ServiceAccount", "test-serviceaccount"), dep("PersistentVolumeClaim", "test-pvc")}},
	{`{serviceAccountName: test-serviceaccount, imagePullSecrets: [{name: test-secret}],
	   initContainers: [{envFrom: [{configMapRef: {name: initcontainer-envfrom-configmap}, secretRef: {name: test-secret}}],
	                     env: [{valueFrom: {secretKeyRef: {name: test-secret}}}]}]}`,
		[]dependency{dep("ConfigMap", "initcontainer-envfrom-configmap"), dep("Secret", "test-secret"),
			dep("ServiceAccount", "test-serviceaccount")}},
	{`{containers: [{envFrom: [{configMapRef: {name: test-configmap}}], env: [{valueFrom: {configMapKeyRef: {name: test-configmap}}}]}],
	   volumes: [{name: container-volume-mount, persistentVolumeClaim: {claimName: test-pvc}, azureFile: {secretName: test-secret}}]}`,
		[]dependency{dep("ConfigMap", "test-configmap"), dep("Secret", "test-secret"), dep("PersistentVolumeClaim", "test-pvc")}},
}

// Test_getDeploymentDependencies, Test_getReplicaSetDependencies,
// Test_getJobDependencies, Test_getCronJobDependencies,
// Test_getPodDependencies, Test_getDaemonSetDependencies and
// Test_getStatefulSetDependencies in
// pkg/resourceinterpreter/default/native/dependencies_test.go, karmada
// v1.16.0: each workload "without dependencies" and "with dependencies
// 1..3". Upstream's CronJob cases say batch/v1beta1 and one Pod case says
// batch/v1beta1 "pod"; they call the hook directly, which the GVK-keyed
// lookup never would, so they are written here with the GVK the hook is
// registered for.
func TestDependenciesUpstreamWorkloads(t *testing.T) {
	for _, w := range []struct {
		name, head, empty string
		wrap              func(spec string) string
	}{
		{"Deployment", "{apiVersion: apps/v1, kind: Deployment", "spec: {replicas: 3}",
			func(s string) string { return "spec: {replicas: 3, template: {spec: " + s + "}}" }},
		{"ReplicaSet", "{apiVersion: apps/v1, kind: ReplicaSet", "spec: {replicas: 3}",
			func(s string) string { return "spec: {replicas: 3, template: {spec: " + s + "}}" }},
		{"Job", "{apiVersion: batch/v1, kind: Job", "spec: {parallelism: 1}",
			func(s string) string { return "spec: {parallelism: 1, template: {spec: " + s + "}}" }},
		{"CronJob", "{apiVersion: batch/v1, kind: CronJob", "spec: {schedule: '*/1 * * * *'}",
			func(s string) string {
				return "spec: {schedule: '*/1 * * * *', jobTemplate: {spec: {template: {spec: " + s + "}}}}"
			}},
		{"Pod", "{apiVersion: v1, kind: Pod", "spec: {containers: [{name: example-container, image: busybox, command: [echo, 'Hello, World!']}]}",
			func(s string) string { return "spec: " + s }},
		{"DaemonSet", "{apiVersion: apps/v1, kind: DaemonSet", "spec: {selector: {matchLabels: {app: fake}}}",
			func(s string) string {
				return "spec: {selector: {matchLabels: {app: fake}}, template: {spec: " + s + "}}"
			}},
		{"StatefulSet", "{apiVersion: apps/v1, kind: StatefulSet", "spec: {serviceName: fake-service, selector: {matchLabels: {app: fake}}}",
			func(s string) string {
				return "spec: {serviceName: fake-service, selector: {matchLabels: {app: fake}}, template: {spec: " + s + "}}"
			}},
	} {
		head := w.head + ", metadata: {name: fake, namespace: " + depNamespace + "}, "
		t.Run(w.name+" without dependencies", func(t *testing.T) {
			got, err := dependencies(parseTemplate(t, head+w.empty+"}"))
			require.NoError(t, err)
			assert.Nil(t, got)
		})
		for i, pair := range depPairs {
			t.Run(w.name+" with dependencies "+string(rune('1'+i)), func(t *testing.T) {
				got, err := dependencies(parseTemplate(t, head+w.wrap(pair.podSpec)+"}"))
				require.NoError(t, err)
				assert.Equal(t, pair.want, got)
			})
		}
	}
}

// Test_getStatefulSetDependencies "statefulset with partial dependencies 4",
// karmada v1.16.0: a claim named by a volumeClaimTemplate is dropped.
func TestDependenciesStatefulSetClaimTemplates(t *testing.T) {
	got, err := dependencies(parseTemplate(t, `{apiVersion: apps/v1, kind: StatefulSet, metadata: {name: fake, namespace: `+depNamespace+`},
	  spec: {serviceName: fake-service, template: {spec: `+depPairs[0].podSpec+`}, volumeClaimTemplates: [{metadata: {name: test-pvc}}]}}`))
	require.NoError(t, err)
	assert.Equal(t, depPairs[0].want[:3], got)
}

// Test_getIngressDependencies and Test_getServiceImportDependencies in
// pkg/resourceinterpreter/default/native/dependencies_test.go, karmada
// v1.16.0, plus the empty and repeated secret names upstream passes on.
func TestDependenciesIngressAndServiceImport(t *testing.T) {
	got, err := dependencies(parseTemplate(t, `{apiVersion: networking.k8s.io/v1, kind: Ingress, metadata: {name: test-ingress, namespace: `+depNamespace+`},
	  spec: {tls: [{hosts: [foo2.*.bar.com], secretName: test-secret}, {hosts: [foo1.*.bar.com], secretName: cloud-secret}, {secretName: ""}, {secretName: test-secret}]}}`))
	require.NoError(t, err)
	assert.Equal(t, []dependency{dep("Secret", "cloud-secret"), dep("Secret", "test-secret")}, got)

	got, err = dependencies(parseTemplate(t, `{apiVersion: multicluster.x-k8s.io/v1alpha1, kind: ServiceImport, metadata: {name: fake-serviceImport, namespace: `+depNamespace+`},
	  spec: {type: ClusterSetIP, ports: [{port: 80, protocol: TCP}]}}`))
	require.NoError(t, err)
	assert.Equal(t, []dependency{
		{apiVersion: "v1", kind: "Service", namespace: depNamespace, name: "derived-fake-serviceImport"},
		{apiVersion: "discovery.k8s.io/v1", kind: "EndpointSlice", namespace: depNamespace,
			selector: map[string]string{"kubernetes.io/service-name": "derived-fake-serviceImport"}},
	}, got)
}

// Test_getAllDefaultDependenciesInterpreter in
// pkg/resourceinterpreter/default/native/dependencies_test.go, karmada
// v1.16.0: hooks exist for exactly nine GroupVersionKinds; near misses have
// none.
func TestDependenciesKinds(t *testing.T) {
	const volumes = ", metadata: {namespace: ns}, spec: {volumes: [{secret: {secretName: s}}], tls: [{secretName: s}], " +
		"template: {spec: {volumes: [{secret: {secretName: s}}]}}, jobTemplate: {spec: {template: {spec: {volumes: [{secret: {secretName: s}}]}}}}}}"
	for _, tc := range []struct {
		apiVersion, kind string
		has              bool
	}{
		{"apps/v1", "Deployment", true}, {"apps/v1", "ReplicaSet", true}, {"batch/v1", "Job", true},
		{"batch/v1", "CronJob", true}, {"v1", "Pod", true}, {"apps/v1", "DaemonSet", true},
		{"apps/v1", "StatefulSet", true}, {"networking.k8s.io/v1", "Ingress", true},
		{"batch/v1beta1", "CronJob", false}, {"batch/v1beta1", "pod", false}, {"extensions/v1beta1", "Ingress", false},
		{"v1", "ConfigMap", false},
	} {
		t.Run(tc.apiVersion+"/"+tc.kind, func(t *testing.T) {
			got, err := dependencies(parseTemplate(t, "{apiVersion: "+tc.apiVersion+", kind: "+tc.kind+volumes))
			require.NoError(t, err)
			if tc.has {
				assert.Equal(t, []dependency{{apiVersion: "v1", kind: "Secret", namespace: "ns", name: "s"}}, got)
			} else {
				assert.Nil(t, got)
			}
		})
	}
}

// TestGetSecretNames, TestGetConfigMapNames, TestGetPVCNames,
// TestGetDependenciesFromPodTemplate and Test_getServiceAccountNames in
// pkg/util/helper/pod_test.go, karmada v1.16.0: every place of a pod spec
// that names a Secret, ConfigMap, claim or service account.
func TestDependenciesUpstreamPodVisitors(t *testing.T) {
	names := func(kind string, names ...string) []dependency {
		var out []dependency
		for _, n := range names {
			out = append(out, dependency{apiVersion: "v1", kind: kind, namespace: "ns", name: n})
		}
		return out
	}
	envs := func(prefix, ref, keyRef string) string {
		return `{envFrom: [{` + ref + `: {name: ` + prefix + `-envfrom}}], env: [{valueFrom: {` + keyRef + `: {name: ` + prefix + `-env}}}]}`
	}
	for _, tc := range []struct {
		name, spec string
		want       []dependency
	}{
		{"get secret names from pod without secrets", `{}`, nil},
		{"get secret names from pod with secrets", `{imagePullSecrets: [{name: image-secret}],
		    initContainers: [` + envs("initcontainer", "secretRef", "secretKeyRef") + `],
		    containers: [` + envs("container", "secretRef", "secretKeyRef") + `],
		    ephemeralContainers: [` + envs("ephemeralcontainer", "secretRef", "secretKeyRef") + `],
		    volumes: [{azureFile: {secretName: azure-secret}}, {cephfs: {secretRef: {name: cephfs-secret}}},
		      {cinder: {secretRef: {name: cinder-secret}}}, {flexVolume: {secretRef: {name: flex-secret}}},
		      {projected: {sources: [{secret: {name: projected-secret}}]}}, {rbd: {secretRef: {name: rbd-secret}}},
		      {secret: {secretName: secret-config}}, {scaleIO: {secretRef: {name: scaleio-secret}}},
		      {iscsi: {secretRef: {name: iscsi-secret}}}, {storageos: {secretRef: {name: storageos-secret}}},
		      {csi: {nodePublishSecretRef: {name: csi-secret}}}]}`,
			names("Secret", "azure-secret", "cephfs-secret", "cinder-secret", "container-env", "container-envfrom", "csi-secret",
				"ephemeralcontainer-env", "ephemeralcontainer-envfrom", "flex-secret", "image-secret", "initcontainer-env",
				"initcontainer-envfrom", "iscsi-secret", "projected-secret", "rbd-secret", "scaleio-secret", "secret-config", "storageos-secret")},
		{"get configMap names from pod with configMaps", `{
		    initContainers: [` + envs("initcontainer", "configMapRef", "configMapKeyRef") + `],
		    containers: [` + envs("container", "configMapRef", "configMapKeyRef") + `],
		    ephemeralContainers: [` + envs("ephemeralcontainer", "configMapRef", "configMapKeyRef") + `],
		    volumes: [{projected: {sources: [{configMap: {name: projected-configmap}}]}}, {configMap: {name: configmap-config}}]}`,
			names("ConfigMap", "configmap-config", "container-env", "container-envfrom", "ephemeralcontainer-env",
				"ephemeralcontainer-envfrom", "initcontainer-env", "initcontainer-envfrom", "projected-configmap")},
		{"get pvc names from pod with pvcs", `{volumes: [{name: foo-name, persistentVolumeClaim: {claimName: fake-foo, readOnly: true}},
		    {name: bar-name, persistentVolumeClaim: {claimName: fake-bar, readOnly: true}}]}`,
			names("PersistentVolumeClaim", "fake-bar", "fake-foo")},
		{"get dependencies from PodTemplate with dependencies", `{serviceAccountName: fake-sa, volumes: [
		    {name: foo-name, configMap: {name: fake-foo}}, {name: bar-name, secret: {secretName: fake-bar}},
		    {name: pvc-name, persistentVolumeClaim: {claimName: fake-pvc}}]}`,
			append(append(append(names("ConfigMap", "fake-foo"), names("Secret", "fake-bar")...),
				names("ServiceAccount", "fake-sa")...), names("PersistentVolumeClaim", "fake-pvc")...)},
		{"get ServiceAccountName from pod", `{serviceAccountName: test}`, names("ServiceAccount", "test")},
		{"get default ServiceAccountName from pod", `{serviceAccountName: default}`, nil},
		// Beyond upstream's tests: the visitors' own rules.
		{"only a volume's first source is visited", `{volumes: [{azureFile: {secretName: ""}, secret: {secretName: hidden}},
		    {projected: {sources: [{configMap: {name: p}}]}, configMap: {name: hidden}}, {secret: {secretName: s}, configMap: {name: c}}]}`,
			append(names("ConfigMap", "c", "p"), names("Secret", "s")...)},
		{"null sources and references are skipped", `{volumes: [{cephfs: {secretRef: ~}, secret: {secretName: hidden}}, {csi: {}}, ~,
		    {projected: {sources: [~, {secret: {}}, {serviceAccountToken: {path: t}}]}}], containers: [{env: [{value: x}, {valueFrom: ~}]}],
		    imagePullSecrets: [{name: ""}], serviceAccount: legacy}`, nil},
		{"names are deduplicated and sorted", `{imagePullSecrets: [{name: b}, {name: a}], containers: [{envFrom: [{secretRef: {name: b}}]}],
		    volumes: [{persistentVolumeClaim: {claimName: z}}, {persistentVolumeClaim: {claimName: y}}, {persistentVolumeClaim: {claimName: z}}]}`,
			append(names("Secret", "a", "b"), names("PersistentVolumeClaim", "y", "z")...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := dependencies(parseTemplate(t, `{apiVersion: v1, kind: Pod, metadata: {name: p, namespace: ns}, spec: `+tc.spec+`}`))
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

// A field of the wrong type fails, naming it, as upstream's conversion does.
func TestDependenciesErrors(t *testing.T) {
	for _, tc := range []struct {
		name, yaml, want string
	}{
		{"namespace as a number", `{apiVersion: v1, kind: Pod, metadata: {namespace: 5}}`, `metadata.namespace: Invalid value: "5": must be a string`},
		{"spec as a string", `{apiVersion: apps/v1, kind: Deployment, spec: x}`, `spec: Invalid value: "x"`},
		{"volumes as a mapping", `{apiVersion: v1, kind: Pod, spec: {volumes: {}}}`, `spec.volumes: Invalid value: "object": must be an array`},
		{"a volume as a string", `{apiVersion: v1, kind: Pod, spec: {volumes: [x]}}`, `spec.volumes[0]: Invalid value: "x": must be an object`},
		{"a claim name as a number", `{apiVersion: v1, kind: Pod, spec: {volumes: [{persistentVolumeClaim: {claimName: 7}}]}}`,
			`spec.volumes[0].persistentVolumeClaim.claimName: Invalid value: "7": must be a string`},
		{"a secret source as a string", `{apiVersion: v1, kind: Pod, spec: {volumes: [{secret: x}]}}`, `spec.volumes[0].secret`},
		{"a secret name as a list", `{apiVersion: v1, kind: Pod, spec: {volumes: [{rbd: {secretRef: {name: []}}}]}}`, `spec.volumes[0].rbd.secretRef.name`},
		{"projected sources as a string", `{apiVersion: v1, kind: Pod, spec: {volumes: [{projected: {sources: x}}]}}`, `spec.volumes[0].projected.sources`},
		{"a projected secret as a string", `{apiVersion: v1, kind: Pod, spec: {volumes: [{projected: {sources: [{secret: x}]}}]}}`, `spec.volumes[0].projected.sources[0].secret`},
		{"a config map volume as a list", `{apiVersion: v1, kind: Pod, spec: {volumes: [{configMap: []}]}}`, `spec.volumes[0].configMap`},
		{"image pull secrets as a string", `{apiVersion: v1, kind: Pod, spec: {imagePullSecrets: x}}`, `spec.imagePullSecrets`},
		{"an image pull secret name as a boolean", `{apiVersion: v1, kind: Pod, spec: {imagePullSecrets: [{name: true}]}}`, `spec.imagePullSecrets[0].name`},
		{"containers as a string", `{apiVersion: v1, kind: Pod, spec: {ephemeralContainers: x}}`, `spec.ephemeralContainers`},
		{"a container as a string", `{apiVersion: v1, kind: Pod, spec: {containers: [x]}}`, `spec.containers[0]: Invalid value: "x"`},
		{"env as a mapping", `{apiVersion: v1, kind: Pod, spec: {initContainers: [{env: {}}]}}`, `spec.initContainers[0].env`},
		{"valueFrom as a string", `{apiVersion: v1, kind: Pod, spec: {containers: [{env: [{valueFrom: x}]}]}}`, `spec.containers[0].env[0].valueFrom`},
		{"service account as a list", `{apiVersion: v1, kind: Pod, spec: {serviceAccountName: []}}`, `spec.serviceAccountName`},
		{"claim templates as a string", `{apiVersion: apps/v1, kind: StatefulSet, spec: {volumeClaimTemplates: x}}`, `spec.volumeClaimTemplates`},
		{"a claim template name as a number", `{apiVersion: apps/v1, kind: StatefulSet, spec: {volumeClaimTemplates: [{metadata: {name: 1}}]}}`,
			`spec.volumeClaimTemplates[0].metadata.name`},
		{"a cron job's job template as a string", `{apiVersion: batch/v1, kind: CronJob, spec: {jobTemplate: x}}`, `spec.jobTemplate`},
		{"tls as a string", `{apiVersion: networking.k8s.io/v1, kind: Ingress, spec: {tls: x}}`, `spec.tls`},
		{"a tls secret as a number", `{apiVersion: networking.k8s.io/v1, kind: Ingress, spec: {tls: [{secretName: 1}]}}`, `spec.tls[0].secretName`},
		{"a service import name as a number", `{apiVersion: multicluster.x-k8s.io/v1alpha1, kind: ServiceImport, metadata: {name: 1}}`, `metadata.name`},
		{"not a mapping", `[]`, `a resource must be a YAML mapping`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := dependencies(parseTemplate(t, tc.yaml))
			assert.ErrorContains(t, err, tc.want)
		})
	}
}
