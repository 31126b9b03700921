// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func parseTemplate(t *testing.T, s string) *yaml.RNode {
	t.Helper()
	n, err := yaml.Parse(s)
	require.NoError(t, err)
	return n
}

// requestStrings renders requests as name=quantity strings, so that tests compare
// values and formats rather than resource.Quantity's internals.
func requestStrings(r *requirements) map[string]string {
	if r == nil || r.Requests == nil {
		return nil
	}
	out := map[string]string{}
	for k, q := range r.Requests {
		out[k] = q.String()
	}
	return out
}

// nodeClaimSpec is the pod spec of upstream's replica tests: a node
// selector, a toleration and a required node affinity, and no requests.
const nodeClaimSpec = `{nodeSelector: {foo: foo1},
  tolerations: [{key: foo, operator: Exists, effect: NoSchedule}],
  affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchFields: [{key: foo, operator: Exists}]}]}}}}`

// Test_deployReplica, Test_statefulSetReplica, Test_replicaSetReplica,
// Test_jobReplica and Test_podReplica in
// pkg/resourceinterpreter/default/native/replica_test.go, karmada v1.16.0:
// the replica count, and requirements that carry the node claim (which this
// tool keeps only as "non-nil requirements without requests").
func TestInterpretWorkloadUpstreamReplicas(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		want       int32
	}{
		{"Test_deployReplica", `{apiVersion: apps/v1, kind: Deployment, spec: {replicas: 2, template: {spec: ` + nodeClaimSpec + `}}}`, 2},
		{"Test_statefulSetReplica", `{apiVersion: apps/v1, kind: StatefulSet, spec: {replicas: 2, template: {spec: ` + nodeClaimSpec + `}}}`, 2},
		{"Test_replicaSetReplica", `{apiVersion: apps/v1, kind: ReplicaSet, spec: {replicas: 3, template: {spec: ` + nodeClaimSpec + `}}}`, 3},
		{"Test_jobReplica", `{apiVersion: batch/v1, kind: Job, spec: {parallelism: 3, completions: 2, template: {spec: ` + nodeClaimSpec + `}}}`, 2},
		{"Test_podReplica", `{apiVersion: v1, kind: Pod, spec: ` + nodeClaimSpec + `}`, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, err := interpretWorkload(parseTemplate(t, tc.yaml))
			require.NoError(t, err)
			assert.Equal(t, tc.want, w.replicas)
			require.NotNil(t, w.req)
			assert.Nil(t, w.req.Requests)
		})
	}
}

// Test_getAllDefaultReplicaInterpreter in
// pkg/resourceinterpreter/default/native/replica_test.go, karmada v1.16.0:
// exactly these five GroupVersionKinds have a replica hook; the rest are
// added here to show that a near miss is not a workload.
func TestInterpretWorkloadKinds(t *testing.T) {
	for _, tc := range []struct {
		apiVersion, kind string
		want             int32
	}{
		{"apps/v1", "Deployment", 1},
		{"apps/v1", "ReplicaSet", 1},
		{"apps/v1", "StatefulSet", 1},
		{"batch/v1", "Job", 1},
		{"v1", "Pod", 1},
		{"apps/v1beta2", "Deployment", 0},
		{"apps/v1", "DaemonSet", 0},
		{"batch/v1", "CronJob", 0},
		{"v1", "Service", 0},
		{"example.com/v1", "Job", 0},
	} {
		t.Run(tc.apiVersion+"/"+tc.kind, func(t *testing.T) {
			w, err := interpretWorkload(parseTemplate(t, "apiVersion: "+tc.apiVersion+"\nkind: "+tc.kind+"\nspec:\n  nodeSelector: {a: b} # for the Pod\n  template:\n    spec:\n      nodeSelector: {a: b}\n"))
			require.NoError(t, err)
			assert.Equal(t, tc.want, w.replicas)
			assert.Equal(t, tc.want != 0, w.req != nil)
		})
	}
}

// The API server's defaults applied to the values
// read, and Job's min(parallelism, completions) from jobReplica.
func TestInterpretWorkloadDefaults(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		want       int32
	}{
		{"deployment without replicas", "apiVersion: apps/v1\nkind: Deployment\n", 1},
		{"deployment with null replicas", "apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: ~\n", 1},
		{"deployment with null spec", "apiVersion: apps/v1\nkind: Deployment\nspec:\n", 1},
		{"deployment scaled to zero", "apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: 0\n", 0},
		{"statefulset in hex", "apiVersion: apps/v1\nkind: StatefulSet\nspec:\n  replicas: 0x10\n", 16},
		{"job without either", "apiVersion: batch/v1\nkind: Job\nspec: {}\n", 1},
		{"job with completions only", "apiVersion: batch/v1\nkind: Job\nspec:\n  completions: 5\n", 1},
		{"job with zero completions only", "apiVersion: batch/v1\nkind: Job\nspec:\n  completions: 0\n", 0},
		{"work-queue job", "apiVersion: batch/v1\nkind: Job\nspec:\n  parallelism: 4\n", 4},
		{"job with fewer completions", "apiVersion: batch/v1\nkind: Job\nspec:\n  parallelism: 3\n  completions: 2\n", 2},
		{"job with more completions", "apiVersion: batch/v1\nkind: Job\nspec:\n  parallelism: 4\n  completions: 10\n", 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, err := interpretWorkload(parseTemplate(t, tc.yaml))
			require.NoError(t, err)
			assert.Equal(t, tc.want, w.replicas)
			assert.Nil(t, w.req)
		})
	}
}

func TestInterpretWorkloadUID(t *testing.T) {
	w, err := interpretWorkload(parseTemplate(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  uid: 6f2f1f6e-0000-4000-8000-000000000001\n"))
	require.NoError(t, err)
	assert.Equal(t, workload{uid: "6f2f1f6e-0000-4000-8000-000000000001"}, w)
	w, err = interpretWorkload(parseTemplate(t, "apiVersion: v1\nkind: ConfigMap\n"))
	require.NoError(t, err)
	assert.Equal(t, workload{}, w)
}

// TestGenerateReplicaRequirements in pkg/util/helper/binding_test.go,
// karmada v1.16.0.
func TestInterpretWorkloadUpstreamRequirements(t *testing.T) {
	for _, tc := range []struct {
		name, spec string
		want       *requirements
	}{
		{"nodeClaim and resource request are nil", `{}`, nil},
		{"has nodeClaim", nodeClaimSpec, &requirements{}},
		{"has resourceRequest", `{containers: [{resources: {limits: {cpu: 200m}}}]}`,
			&requirements{Requests: map[string]resource.Quantity{"cpu": *resource.NewMilliQuantity(200, resource.DecimalSI)}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, err := interpretWorkload(parseTemplate(t, `{apiVersion: v1, kind: Pod, spec: `+tc.spec+`}`))
			require.NoError(t, err)
			assert.Equal(t, tc.want == nil, w.req == nil)
			assert.Equal(t, requestStrings(tc.want), requestStrings(w.req))
		})
	}
}

// TestResource_AddPodTemplateRequest in pkg/util/resource_test.go, karmada
// v1.16.0: containers summed, limits filling missing requests, init
// containers as a maximum, overhead added.
func TestInterpretWorkloadUpstreamPodTemplateRequest(t *testing.T) {
	const spec = `
apiVersion: apps/v1
kind: Deployment
spec:
  template:
    spec:
      containers:
      - resources:
          requests: {cpu: 10m, memory: 10, test.karmada.io/foo: 10, test.karmada.io/bar: 10}
          limits: {memory: 99999, pods: 10, test.karmada.io/bar: 99999, test.karmada.io/baz: 10}
      initContainers:
      - resources:
          requests: {cpu: 5m, memory: 10, test.karmada.io/foo: 5, test.karmada.io/bar: 10}
          limits: {memory: 99999, pods: 20, test.karmada.io/bar: 99999, test.karmada.io/baz: 20}
      overhead: {cpu: 5m, memory: 5, ephemeral-storage: 5, pods: 5, test.karmada.io/foo: 5, test.karmada.io/bar: 5, test.karmada.io/baz: 5}
`
	w, err := interpretWorkload(parseTemplate(t, spec))
	require.NoError(t, err)
	assert.Equal(t, map[string]string{
		"cpu": "15m", "memory": "15", "ephemeral-storage": "5", "pods": "25",
		"test.karmada.io/foo": "15", "test.karmada.io/bar": "15", "test.karmada.io/baz": "25",
	}, requestStrings(w.req))
}

// Requests beyond upstream's tests: which names count, the formats
// util.Resource.ResourceList gives them, and the shapes YAML allows.
func TestInterpretWorkloadRequests(t *testing.T) {
	for _, tc := range []struct {
		name, spec string
		want       map[string]string
		claim      bool
	}{
		{"names the scheduler cannot count are dropped",
			`{containers: [{resources: {requests: {gpu: 1, requests.example.com/x: 1, example.com/Bad_: 1, nvidia.com/gpu: 2}}}]}`,
			map[string]string{"nvidia.com/gpu": "2"}, false},
		{"kubernetes.io, hugepages and attachable volumes count",
			`{containers: [{resources: {requests: {hugepages-2Mi: 4Mi, example.kubernetes.io/thing: 1, attachable-volumes-aws-ebs: 3}}}]}`,
			map[string]string{"hugepages-2Mi": "4Mi", "example.kubernetes.io/thing": "1", "attachable-volumes-aws-ebs": "3"}, false},
		{"memory and cpu formats", `{containers: [{resources: {requests: {cpu: 1, memory: 1Gi}}}, {resources: {requests: {cpu: 0.5, memory: 1000}}}]}`,
			map[string]string{"cpu": "1500m", "memory": "1073742824"}, false},
		{"values round up", `{containers: [{resources: {requests: {memory: 1500m, cpu: 0.0001}}}]}`,
			map[string]string{"memory": "2", "cpu": "1m"}, false},
		{"an init container larger than the sum wins", `{containers: [{resources: {requests: {cpu: 1}}}, {resources: {requests: {cpu: 1}}}], initContainers: [{resources: {requests: {cpu: 3}}}, {resources: {limits: {cpu: 1}}}]}`,
			map[string]string{"cpu": "3"}, false},
		{"a null request hides the limit", `{containers: [{resources: {requests: {cpu: ~}, limits: {cpu: 2, memory: 0x10}}}]}`,
			map[string]string{"memory": "16"}, false},
		{"zero totals are dropped", `{containers: [{resources: {requests: {cpu: 0, memory: "0"}}}]}`, nil, false},
		{"null containers and resources", `{containers: [~, {resources: ~}], initContainers: ~}`, nil, false},
		{"an empty node selector is a claim", `{nodeSelector: {}}`, nil, true},
		{"no tolerations is no claim", `{tolerations: [], affinity: {nodeAffinity: {}}}`, nil, false},
		{"a toleration is a claim", `{tolerations: [{operator: Exists}]}`, nil, true},
		{"the first of duplicate names counts", "{containers: [{resources: {requests: {cpu: 1, cpu: 2}}}]}", map[string]string{"cpu": "1"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, err := interpretWorkload(parseTemplate(t, `{apiVersion: v1, kind: Pod, spec: `+tc.spec+`}`))
			require.NoError(t, err)
			assert.Equal(t, tc.want, requestStrings(w.req))
			assert.Equal(t, tc.want != nil || tc.claim, w.req != nil)
		})
	}
}

// Fields of the wrong type fail the interpretation as upstream's typed
// conversion fails, naming the field.
func TestInterpretWorkloadErrors(t *testing.T) {
	for _, tc := range []struct {
		name, yaml, want string
	}{
		{"replicas as words", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec:\n  replicas: three\n",
			`Deployment shop/web: spec.replicas: Invalid value: "three": must be an integer, e.g. 3`},
		{"replicas quoted", "apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: \"3\"\n", `spec.replicas: Invalid value: "3": must be an integer`},
		{"replicas fractional", "apiVersion: apps/v1\nkind: ReplicaSet\nspec:\n  replicas: 3.0\n", `spec.replicas: Invalid value: "3.0"`},
		{"replicas negative", "apiVersion: apps/v1\nkind: StatefulSet\nspec:\n  replicas: -1\n", `spec.replicas: Invalid value: -1: must be between 0 and 2147483647`},
		{"replicas too large", "apiVersion: apps/v1\nkind: StatefulSet\nspec:\n  replicas: 2147483648\n", `spec.replicas: Invalid value: 2147483648`},
		{"replicas as a list", "apiVersion: apps/v1\nkind: StatefulSet\nspec:\n  replicas: [1]\n", `spec.replicas: Invalid value: "array"`},
		{"spec as a list", "apiVersion: apps/v1\nkind: Deployment\nspec: []\n", `Deployment: spec: Invalid value: "array": must be an object`},
		{"parallelism as a string", "apiVersion: batch/v1\nkind: Job\nspec:\n  parallelism: two\n", `spec.parallelism`},
		{"completions as a string", "apiVersion: batch/v1\nkind: Job\nspec:\n  completions: two\n", `spec.completions`},
		{"completions as a string beside parallelism", "apiVersion: batch/v1\nkind: Job\nspec:\n  parallelism: 1\n  completions: two\n", `spec.completions`},
		{"job template as a string", "apiVersion: batch/v1\nkind: Job\nspec:\n  template: x\n", `spec.template: Invalid value: "x"`},
		{"pod template spec as a string", "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec: x\n", `spec.template.spec`},
		{"pod spec as a string", "apiVersion: v1\nkind: Pod\nspec: x\n", `spec: Invalid value: "x"`},
		{"containers as a mapping", "apiVersion: v1\nkind: Pod\nspec:\n  containers: {}\n", `spec.containers: Invalid value: "object": must be an array`},
		{"container as a string", "apiVersion: v1\nkind: Pod\nspec:\n  containers: [x]\n", `spec.containers[0]: Invalid value: "x"`},
		{"resources as a list", "apiVersion: v1\nkind: Pod\nspec:\n  initContainers: [{resources: []}]\n", `spec.initContainers[0].resources`},
		{"requests as a string", "apiVersion: v1\nkind: Pod\nspec:\n  containers: [{resources: {requests: x}}]\n", `spec.containers[0].resources.requests`},
		{"limits as a string", "apiVersion: v1\nkind: Pod\nspec:\n  containers: [{resources: {limits: x}}]\n", `spec.containers[0].resources.limits`},
		{"a boolean quantity", "apiVersion: v1\nkind: Pod\nspec:\n  containers: [{resources: {requests: {cpu: true}}}]\n",
			`spec.containers[0].resources.requests[cpu]: Invalid value: "true": must be a quantity`},
		{"a malformed quantity", "apiVersion: v1\nkind: Pod\nspec:\n  containers: [{resources: {requests: {cpu: lots}}}]\n", `requests[cpu]: Invalid value: "lots"`},
		{"a quantity as a mapping", "apiVersion: v1\nkind: Pod\nspec:\n  overhead: {cpu: {}}\n", `spec.overhead[cpu]: Invalid value: "object"`},
		{"node selector as a list", "apiVersion: v1\nkind: Pod\nspec:\n  nodeSelector: []\n", `spec.nodeSelector`},
		{"tolerations as a mapping", "apiVersion: v1\nkind: Pod\nspec:\n  tolerations: {}\n", `spec.tolerations`},
		{"affinity as a string", "apiVersion: v1\nkind: Pod\nspec:\n  affinity: x\n", `spec.affinity`},
		{"required affinity as a string", "apiVersion: v1\nkind: Pod\nspec:\n  affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: x}}\n",
			`spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution`},
		{"uid as a mapping", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  uid: {}\n", `metadata.uid: Invalid value: "object": must be a string`},
		{"metadata as a string", "apiVersion: v1\nkind: ConfigMap\nmetadata: x\n", `metadata: Invalid value: "x"`},
		{"metadata as a string without a kind", "metadata: x\n", `: metadata: Invalid value: "x": must be an object: Karmada cannot read a resource whose`},
		{"not a mapping", "- a\n", "a resource must be a YAML mapping"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := interpretWorkload(parseTemplate(t, tc.yaml))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Contains(t, err.Error(), "correct", "the message says how to fix it")
		})
	}
	_, err := interpretWorkload(nil)
	assert.ErrorContains(t, err, "a resource must be a YAML mapping")
}

// reviseCase runs reviseReplicas and returns the result as YAML text.
func reviseCase(t *testing.T, in string, replicas int32, completions *int32) (string, bool, error) {
	t.Helper()
	n := parseTemplate(t, in)
	changed, err := reviseReplicas(n, replicas, completions)
	out, serr := n.String()
	require.NoError(t, serr)
	return out, changed, err
}

func ptr32(v int32) *int32 { return &v }

// TestReviseDeploymentReplica, TestReviseReplicaSetReplica,
// TestReviseStatefulSetReplica and TestReviseJobReplica in
// pkg/resourceinterpreter/default/native/revisereplica_test.go, karmada
// v1.16.0. Their "accessor error" case holds a Go int where ApplyReplica
// wants int64; the YAML counterpart is a value that is not an integer.
func TestReviseReplicasUpstream(t *testing.T) {
	for _, tc := range []struct {
		name, apiVersion, kind, field string
	}{
		{"TestReviseDeploymentReplica", "apps/v1", "Deployment", "replicas"},
		{"TestReviseReplicaSetReplica", "apps/v1", "ReplicaSet", "replicas"},
		{"TestReviseStatefulSetReplica", "apps/v1", "StatefulSet", "replicas"},
		{"TestReviseJobReplica", "batch/v1", "Job", "parallelism"},
	} {
		head := "apiVersion: " + tc.apiVersion + "\nkind: " + tc.kind + "\nmetadata:\n  name: fake\nspec:\n  " + tc.field + ": "
		t.Run(tc.name+"/accessor error", func(t *testing.T) {
			out, changed, err := reviseCase(t, head+"\"1\"\n", 3, nil)
			assert.ErrorContains(t, err, "spec."+tc.field)
			assert.False(t, changed)
			assert.Equal(t, head+"\"1\"\n", out)
		})
		t.Run(tc.name+"/revise", func(t *testing.T) {
			out, changed, err := reviseCase(t, head+"1\n", 3, nil)
			require.NoError(t, err)
			assert.True(t, changed)
			assert.Equal(t, head+"3\n", out)
		})
	}
}

// TestGetAllDefaultReviseReplicaInterpreter in
// pkg/resourceinterpreter/default/native/revisereplica_test.go, karmada
// v1.16.0: only those four GroupVersionKinds are revised; a Pod has no hook.
func TestReviseReplicasOtherKinds(t *testing.T) {
	for _, in := range []string{
		"apiVersion: v1\nkind: Pod\nspec:\n  replicas: 1\n",
		"apiVersion: apps/v1beta1\nkind: Deployment\nspec:\n  replicas: 1\n",
		"apiVersion: apps/v1\nkind: DaemonSet\nspec:\n  replicas: 1\n",
		"apiVersion: v1\nkind: ConfigMap\n",
	} {
		out, changed, err := reviseCase(t, in, 3, nil)
		require.NoError(t, err)
		assert.False(t, changed)
		assert.Equal(t, in, out)
	}
}

// Comments, key order and untouched spellings survive; only the value moves.
func TestReviseReplicasKeepsText(t *testing.T) {
	const in = `# the web tier
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # our shop
spec:
  # scaled by hand
  replicas: 10 # peak
  selector: {matchLabels: {app: web}}
  template:
    spec:
      containers:
      - name: web
        image: nginx
`
	out, changed, err := reviseCase(t, in, 4, nil)
	require.NoError(t, err)
	assert.True(t, changed)
	assert.Equal(t, strings.Replace(in, "replicas: 10 # peak", "replicas: 4 # peak", 1), out)

	const job = `apiVersion: batch/v1
kind: Job
spec:
  completions: 10 # all of them
  # at once
  parallelism: 4
  template: {}
`
	out, changed, err = reviseCase(t, job, 2, ptr32(5))
	require.NoError(t, err)
	assert.True(t, changed)
	assert.Equal(t, "apiVersion: batch/v1\nkind: Job\nspec:\n  completions: 5 # all of them\n  # at once\n  parallelism: 2\n  template: {}\n", out)
}

// Absent fields that the API server defaults exist in the object upstream
// revises, so they are written; the rest of the text stays.
func TestReviseReplicasDefaultedFields(t *testing.T) {
	for _, tc := range []struct {
		name, in    string
		replicas    int32
		completions *int32
		want        string
		changed     bool
	}{
		{"replicas absent", "apiVersion: apps/v1\nkind: Deployment\nspec:\n  selector: {}\n", 3, nil,
			"apiVersion: apps/v1\nkind: Deployment\nspec:\n  selector: {}\n  replicas: 3\n", true},
		{"replicas null keeps its comment", "apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: ~ # later\n", 3, nil,
			"apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: 3 # later\n", true},
		{"spec absent", "apiVersion: apps/v1\nkind: StatefulSet\n", 2, nil,
			"apiVersion: apps/v1\nkind: StatefulSet\nspec:\n  replicas: 2\n", true},
		{"spec null", "apiVersion: apps/v1\nkind: ReplicaSet\nspec:\n", 2, nil,
			"apiVersion: apps/v1\nkind: ReplicaSet\nspec:\n  replicas: 2\n", true},
		{"flow spec", "apiVersion: apps/v1\nkind: ReplicaSet\nspec: {}\n", 2, nil,
			"apiVersion: apps/v1\nkind: ReplicaSet\nspec: {replicas: 2}\n", true},
		{"same value", "apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: 3\n", 3, nil,
			"apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: 3\n", false},
		{"same value spelled in hex", "apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: 0x3\n", 3, nil,
			"apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: 0x3\n", false},
		{"job without either gets both", "apiVersion: batch/v1\nkind: Job\nspec:\n  template: {}\n", 1, ptr32(1),
			"apiVersion: batch/v1\nkind: Job\nspec:\n  template: {}\n  parallelism: 1\n  completions: 1\n", true},
		// Not divided: the stored object's defaulted completions stay in
		// the member manifest (confirmed by oracle/karmada, which reads
		// the Work Karmada's binding controller writes).
		{"job without either, completions not divided", "apiVersion: batch/v1\nkind: Job\nspec:\n  template: {}\n", 1, nil,
			"apiVersion: batch/v1\nkind: Job\nspec:\n  template: {}\n  parallelism: 1\n  completions: 1\n", true},
		{"work-queue job gets no completions", "apiVersion: batch/v1\nkind: Job\nspec:\n  parallelism: 4\n", 2, ptr32(3),
			"apiVersion: batch/v1\nkind: Job\nspec:\n  parallelism: 2\n", true},
		{"job with completions only", "apiVersion: batch/v1\nkind: Job\nspec:\n  completions: 8\n", 1, ptr32(4),
			"apiVersion: batch/v1\nkind: Job\nspec:\n  completions: 4\n  parallelism: 1\n", true},
		{"job already holding its share", "apiVersion: batch/v1\nkind: Job\nspec:\n  parallelism: 2\n  completions: 5\n", 2, ptr32(5),
			"apiVersion: batch/v1\nkind: Job\nspec:\n  parallelism: 2\n  completions: 5\n", false},
		{"another group's Job: completions only where present", "apiVersion: example.com/v1\nkind: Job\nspec:\n  parallelism: 4\n  completions: 10\n", 2, ptr32(5),
			"apiVersion: example.com/v1\nkind: Job\nspec:\n  parallelism: 4\n  completions: 5\n", true},
		{"another group's Job without completions", "apiVersion: example.com/v1\nkind: Job\nspec: {}\n", 2, ptr32(5),
			"apiVersion: example.com/v1\nkind: Job\nspec: {}\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, changed, err := reviseCase(t, tc.in, tc.replicas, tc.completions)
			require.NoError(t, err)
			assert.Equal(t, tc.changed, changed)
			assert.Equal(t, tc.want, out)
		})
	}
}

func TestReviseReplicasErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		completions    *int32
	}{
		{"spec as a string", "apiVersion: apps/v1\nkind: Deployment\nspec: x\n", "spec: Invalid value", nil},
		{"completions as a string", "apiVersion: batch/v1\nkind: Job\nspec:\n  completions: x\n", "spec.completions", ptr32(1)},
		{"parallelism as a string", "apiVersion: batch/v1\nkind: Job\nspec:\n  completions: 3\n  parallelism: x\n", "spec.parallelism", ptr32(1)},
		{"not a mapping", "x\n", "a resource must be a YAML mapping", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, changed, err := reviseCase(t, tc.in, 2, tc.completions)
			assert.ErrorContains(t, err, tc.want)
			assert.False(t, changed)
			assert.Equal(t, tc.in, out, "a failed revision leaves the node alone")
		})
	}
}

// Test_divideReplicasByJobCompletions in pkg/controllers/binding/common_test.go,
// karmada v1.16.0 ("completions found", "error in NestedInt64"), the example
// of ensureWork (pkg/controllers/binding/common.go), and the positional hand-out of v1.16.0.
func TestJobCompletions(t *testing.T) {
	const job = "apiVersion: batch/v1\nkind: Job\nspec:\n"
	for _, tc := range []struct {
		name, yaml string
		targets    []assignment
		uid        string
		want       map[string]int32
		wantErr    string
	}{
		{name: "completions found", yaml: job + "  completions: 10\n",
			targets: []assignment{{"cluster1", 5}, {"cluster2", 5}},
			want:    map[string]int32{"cluster1": 5, "cluster2": 5}},
		{name: "error in NestedInt64", yaml: "apiVersion: batch/v1\nkind: Job\nspec: invalid\n",
			targets: []assignment{{"cluster1", 5}, {"cluster2", 5}}, wantErr: `spec: Invalid value: "invalid"`},
		{name: "parallelism 4, completions 10 over a2 b2", yaml: job + "  parallelism: 4\n  completions: 10\n",
			targets: []assignment{{"a", 2}, {"b", 2}}, want: map[string]int32{"a": 5, "b": 5}},
		{name: "weights 3:1 in name order", yaml: job + "  completions: 8\n",
			targets: []assignment{{"a", 3}, {"b", 1}}, want: map[string]int32{"a": 6, "b": 2}},
		{name: "weights 3:1 out of name order: shares go by position", yaml: job + "  completions: 8\n",
			targets: []assignment{{"b", 1}, {"a", 3}}, want: map[string]int32{"b": 6, "a": 2}},
		{name: "a zero-replica target last", yaml: job + "  completions: 4\n",
			targets: []assignment{{"a", 1}, {"b", 1}, {"c", 0}}, want: map[string]int32{"a": 2, "b": 2, "c": 0}},
		{name: "a requiredBy target merged after the binding's", yaml: job + "  completions: 4\n",
			targets: []assignment{{"b", 1}, {"c", 1}, {"a", 0}}, want: map[string]int32{"b": 0, "c": 2, "a": 2}},
		{name: "tie with no uid goes to the smaller name", yaml: job + "  completions: 3\n",
			targets: []assignment{{"a", 1}, {"b", 1}}, want: map[string]int32{"a": 2, "b": 1}},
		{name: "tie with an odd uid goes to the larger name", yaml: job + "  completions: 3\n",
			targets: []assignment{{"a", 1}, {"b", 1}}, uid: "11111111-2222-3333-4444-555555555555",
			want: map[string]int32{"a": 1, "b": 2}},
		{name: "job without either has completions 1", yaml: job + "  template: {}\n",
			targets: []assignment{{"a", 1}}, want: map[string]int32{"a": 1}},
		{name: "work-queue job", yaml: job + "  parallelism: 2\n", targets: []assignment{{"a", 1}, {"b", 1}}},
		{name: "every weight zero", yaml: job + "  completions: 4\n", targets: []assignment{{"a", 0}, {"b", 0}}},
		{name: "no targets", yaml: job + "  completions: 4\n"},
		{name: "another group's Job counts by kind", yaml: "apiVersion: example.com/v1\nkind: Job\nspec:\n  completions: 4\n",
			targets: []assignment{{"a", 1}, {"b", 1}}, want: map[string]int32{"a": 2, "b": 2}},
		{name: "another group's Job is not defaulted", yaml: "apiVersion: example.com/v1\nkind: Job\nspec: {}\n",
			targets: []assignment{{"a", 1}}},
		{name: "not a Job", yaml: "apiVersion: apps/v1\nkind: Deployment\nspec:\n  completions: 4\n", targets: []assignment{{"a", 1}}},
		{name: "completions as a string", yaml: job + "  completions: ten\n", targets: []assignment{{"a", 1}}, wantErr: "spec.completions"},
		{name: "a target twice", yaml: job + "  completions: 4\n", targets: []assignment{{"a", 1}, {"a", 1}},
			wantErr: `cluster "a" is a target twice`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := jobCompletions(parseTemplate(t, tc.yaml), tc.targets, tc.uid)
			if tc.wantErr != "" {
				assert.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
	_, err := jobCompletions(nil, nil, "")
	assert.Error(t, err)
}
