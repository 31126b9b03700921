// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyverno

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/conformancetest"
	"github.com/apply-overrides/apply-overrides/internal/corpus"
	"github.com/apply-overrides/apply-overrides/internal/kyvernogen"
	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/kyverno/smp"
	"github.com/apply-overrides/apply-overrides/policy"
)

// fastChecker replaces tryFast while a test runs: every patchStrategicMerge
// the engine applies is applied by the fast path and by the general path
// to two copies of the resource, and wherever the fast path takes the
// patch, the two must agree on changed, on the JSON value and on the
// printed YAML (comments included). The engine then goes on with the
// general path, so one disagreement does not cascade.
type fastChecker struct {
	mu                 sync.Mutex
	calls, fast, fails int
	diffs              []string
}

func (c *fastChecker) try(n *yaml.RNode, patch any, _ *smp.Calm) (bool, bool, []smp.Edit) {
	a, b := n.Copy(), n.Copy()
	changedF, ok := smp.TryFast(a, patch)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	if !ok {
		if s, _ := a.String(); s != mustString(n) {
			c.diffs = append(c.diffs, fmt.Sprintf("declined but changed the resource; patch %v", patch))
		}
		return false, false, nil
	}
	c.fast++
	changedG, _, err := smp.ApplyJSON(b, nil, patch)
	where := func() string {
		return fmt.Sprintf("patch %v on\n%s", patch, mustString(n))
	}
	switch {
	case err != nil:
		c.diffs = append(c.diffs, fmt.Sprintf("general path failed (%v) where the fast path did not: %s", err, where()))
	case changedF != changedG:
		c.diffs = append(c.diffs, fmt.Sprintf("changed: fast %v, general %v: %s", changedF, changedG, where()))
	default:
		ja, errA := yamlnode.MarshalJSON(a.YNode())
		jb, errB := yamlnode.MarshalJSON(b.YNode())
		if errA != nil || errB != nil || string(ja) != string(jb) {
			c.diffs = append(c.diffs, fmt.Sprintf("JSON: fast %s, general %s: %s", ja, jb, where()))
		} else if sa, sb := mustString(a), mustString(b); sa != sb {
			c.diffs = append(c.diffs, fmt.Sprintf("YAML:\nfast:\n%s\ngeneral:\n%s\n%s", sa, sb, where()))
		}
	}
	return false, false, nil
}

func mustString(n *yaml.RNode) string {
	s, err := n.String()
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return s
}

// checkFast installs a fastChecker for the test.
func checkFast(t *testing.T) *fastChecker {
	c := &fastChecker{}
	saved := tryFast
	tryFast = c.try
	t.Cleanup(func() { tryFast = saved })
	return c
}

func (c *fastChecker) report(t *testing.T) {
	t.Helper()
	t.Logf("%d strategic merges, %d taken by the fast path", c.calls, c.fast)
	for i, d := range c.diffs {
		if i == 5 {
			t.Errorf("... and %d more", len(c.diffs)-5)
			break
		}
		t.Error(d)
	}
}

// renderAll applies the Kyverno policies among docs to the other documents
// in order, as policy.Apply does in a run; errors are the run's business.
func renderAll(t *testing.T, docs []*yaml.RNode) { renderAllInto(t, docs, nil) }

// renderAllInto is renderAll writing each resource after the policies, or
// its error, and the compile errors to out (when not nil).
func renderAllInto(t *testing.T, docs []*yaml.RNode, out *strings.Builder) {
	var objs, resources []*yaml.RNode
	for _, n := range docs {
		if claimed, _ := (Dialect{}).Claims(n.GetApiVersion(), n.GetKind()); claimed {
			objs = append(objs, n)
			continue
		}
		if n.GetApiVersion() == "v1" && n.GetKind() == "Namespace" {
			objs = append(objs, n)
		}
		resources = append(resources, n)
	}
	b, errs := policy.CompileFor(Dialect{}, objs, policy.Target{})
	for _, err := range errs {
		if out != nil {
			fmt.Fprintf(out, "compile: %v\n", err)
		}
		if !policy.IsWarning(err) {
			return
		}
	}
	for _, n := range resources {
		applied, err := policy.Apply(policy.NewResource(n), b.Sets) // renderAll: outcomes are compared per patch
		if out != nil {
			fmt.Fprintf(out, "---\napplied %d, error %v\n%s", applied, err, mustString(n))
		}
	}
}

func parseDocs(t *testing.T, text string) []*yaml.RNode {
	t.Helper()
	var out []*yaml.RNode
	for _, d := range strings.Split(text, "\n---\n") {
		if strings.TrimSpace(d) == "" {
			continue
		}
		n, err := yaml.Parse(d)
		require.NoError(t, err, d)
		out = append(out, n)
	}
	return out
}

// checkedInput is a set of inputs the fast-path and view tests render;
// each call of docs parses them afresh, one document list per input.
type checkedInput struct {
	name string
	docs func(t *testing.T) [][]*yaml.RNode
}

// checkedInputs are the Kyverno conformance cases, the generated
// differential scenarios, and the benchmark's two policies on resources
// shaped like the benchmark's (and the function's bench corpus).
var checkedInputs = []checkedInput{
	{"conformance", func(t *testing.T) (out [][]*yaml.RNode) {
		for _, cs := range conformancetest.Load(t, "../testdata/conformance", "kyverno") {
			out = append(out, conformancetest.Items(t, cs))
		}
		return out
	}},
	{"generated", func(t *testing.T) (out [][]*yaml.RNode) {
		for _, g := range kyvernogen.Generate(kyvernogen.DefaultSeed, 300) {
			out = append(out, parseDocs(t, strings.Join(append(g.Resources, g.Policies...), "\n---\n")))
		}
		return out
	}},
	{"bench", func(t *testing.T) [][]*yaml.RNode {
		docs := parseDocs(t, benchCorpusPolicies(t)+"\n---\n"+fastResources)
		rl, err := yaml.Parse(string(corpus.ResourceList(60, 0)))
		require.NoError(t, err)
		items, err := rl.Pipe(yaml.Lookup("items"))
		require.NoError(t, err)
		for _, it := range items.Content() {
			if n := yaml.NewRNode(it); !strings.Contains(n.GetApiVersion(), "karmada") {
				docs = append(docs, n)
			}
		}
		return [][]*yaml.RNode{docs}
	}},
}

// TestFastMatchesGeneral: the fast path agrees with the general path on
// every strategic merge of checkedInputs.
func TestFastMatchesGeneral(t *testing.T) {
	for _, in := range checkedInputs {
		t.Run(in.name, func(t *testing.T) {
			c := checkFast(t)
			for _, docs := range in.docs(t) {
				renderAll(t, docs)
			}
			c.report(t)
			if in.name == "bench" {
				assert.Greater(t, c.fast, c.calls*9/10, "the fast path takes the benchmark's patches")
			}
		})
	}
}

// TestFastDeclinesUntouched: where the fast path declines, the resource is
// as it was (the general path then runs on it).
func TestFastDeclines(t *testing.T) {
	for name, tc := range map[string]struct{ resource, patch string }{
		"null value":       {"kind: ConfigMap\nmetadata: {name: a}\n", `{"metadata": {"labels": null}}`},
		"number":           {"kind: ConfigMap\nmetadata: {name: a}\n", `{"metadata": {"generation": 2}}`},
		"conditional":      {"kind: ConfigMap\nmetadata:\n  name: a\n", `{"metadata": {"(name)": "a", "labels": {"x": "y"}}}`},
		"delete directive": {"kind: ConfigMap\nmetadata:\n  name: a\n", `{"metadata": {"$patch": "delete"}}`},
		"type mismatch":    {"kind: ConfigMap\nmetadata:\n  name: a\n  labels: x\n", `{"metadata": {"labels": {"x": "y"}}}`},
		"alias":            {"kind: ConfigMap\nmetadata:\n  name: &n a\n  labels: {a: *n}\n", `{"metadata": {"labels": {"x": "y"}}}`},
		"yaml 1.1 string":  {"kind: ConfigMap\nmetadata:\n  name: a\ndata:\n  on: yes\n", `{"metadata": {"labels": {"x": "y"}}}`},
		"null elsewhere":   {"kind: ConfigMap\nmetadata:\n  name: a\n  annotations: ~\n", `{"metadata": {"labels": {"x": "y"}}}`},
		"not the first container": {"apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\nspec:\n  containers:\n  - name: a\n  - name: b\n",
			`{"spec": {"containers": [{"name": "b", "image": "x"}]}}`},
	} {
		t.Run(name, func(t *testing.T) {
			n, err := yaml.Parse(tc.resource)
			require.NoError(t, err)
			before := mustString(n)
			var patch any
			require.NoError(t, yaml.Unmarshal([]byte(tc.patch), &patch))
			_, ok := smp.TryFast(n, patch)
			assert.False(t, ok)
			assert.Equal(t, before, mustString(n))
		})
	}
}

// benchCorpusPolicies reads the two ClusterPolicies of the benchmark
// (bench/cmd/gen/kyverno.go, a module of its own) from its source: the raw
// string literals that hold a kyverno.io object.
func benchCorpusPolicies(t *testing.T) string {
	src, err := os.ReadFile("../bench/cmd/gen/kyverno.go")
	require.NoError(t, err)
	var docs []string
	for i, part := range strings.Split(string(src), "`") {
		if i%2 == 1 && strings.HasPrefix(part, "apiVersion: kyverno.io/") {
			docs = append(docs, part)
		}
	}
	require.Len(t, docs, 2, "the benchmark's policies")
	return strings.Join(docs, "\n---\n")
}

// fastResources are resources shaped like the benchmark's, with the cases
// the fast path must get right or decline: comments everywhere, quoted
// values, fields already set, flow maps, a label already there, YAML 1.1
// strings, a container without securityContext beside one with.
const fastResources = `# head
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # the name
  namespace: shop
  labels:
    tier: frontend # served
    app: "web"
spec:
  replicas: 2
  template:
    metadata:
      labels: {tier: frontend}
    spec:
      containers:
      # the app
      - name: app
        image: nginx:1.27 # pinned
        imagePullPolicy: "Always"
        securityContext:
          runAsNonRoot: false # set on purpose
        ports:
        - containerPort: 80
          name: http
        env:
        - name: A
          value: "1"
      - name: "sidecar"
        image: envoy
        # trailing
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
  namespace: data
  labels:
    tier: backend
    cost-center: ops # already charged
spec:
  template:
    spec:
      containers:
      - name: db
        image: postgres
        imagePullPolicy: IfNotPresent
        securityContext: {}
---
apiVersion: batch/v1
kind: CronJob
metadata:
  name: nightly
  namespace: batch
  labels:
    tier: backend
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
          - name: job
            image: busybox
            args: ["sh", "-c", "true"]
            securityContext:
              allowPrivilegeEscalation: true
---
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
  namespace: infra
  labels: {tier: frontend}
spec:
  template:
    spec:
      containers:
      - name: agent
        image: agent:2
        securityContext:
          runAsNonRoot: true
          allowPrivilegeEscalation: false
      - name: helper
        image: helper:1
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: flags
  namespace: shop
data:
  enabled: yes
---
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: shop
  annotations:
    note: "quoted: yes"
spec:
  ports:
  - port: 80 # http
    name: http
  selector:
    app: web
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: nolabels
data:
  a: b
`
