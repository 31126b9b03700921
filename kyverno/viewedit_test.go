// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyverno

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/kyverno/smp"
)

// viewChecker compares every view withEdits brings up to date with the
// node read again (jsonView), and counts the updates.
type viewChecker struct {
	mu                         sync.Mutex
	updates, taken, remembered int
	diffs                      []string
}

func (c *viewChecker) check(r *run) {
	fresh, err := jsonView(r.node)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.updates++
	switch {
	case err != nil:
		c.diffs = append(c.diffs, fmt.Sprintf("the node cannot be read again: %v", err))
	case !sameJSON(r.obj, fresh) || !sameJSON(fresh, r.obj):
		c.diffs = append(c.diffs, fmt.Sprintf("updated view %v, node read again %v, node:\n%s", r.obj, fresh, mustString(r.node)))
	}
}

// shared compares a view taken from the previous policy with the node
// read again, as asKyvernoSeesIt would have read it.
func (c *viewChecker) shared(n *yaml.RNode, view map[string]any, nsEmpty bool) {
	fresh, err := jsonView(n)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.taken++
	if err != nil {
		c.diffs = append(c.diffs, fmt.Sprintf("the node cannot be read again: %v", err))
		return
	}
	ns, _ := fresh["metadata"].(map[string]any)["namespace"].(string)
	if (ns == "") != nsEmpty {
		c.diffs = append(c.diffs, fmt.Sprintf("namespace %q, but the shared view says empty=%v", ns, nsEmpty))
	}
	defaultNamespace(fresh) // as asKyvernoSeesIt's caller does
	if !sameJSON(view, fresh) || !sameJSON(fresh, view) {
		c.diffs = append(c.diffs, fmt.Sprintf("shared view %v, node read again %v, node:\n%s", view, fresh, mustString(n)))
	}
}

// fast runs the fast path with the run's memory of calm parts and, on a
// copy, without it: the two must agree on whether they take the patch,
// on changed and on the printed resource.
func (c *viewChecker) fast(n *yaml.RNode, patch any, memo *smp.Calm) (bool, bool, []smp.Edit) {
	cp := n.Copy()
	changedA, okA, _ := smp.TryFastCalm(cp, patch, nil)
	changed, ok, edits := smp.TryFastCalm(n, patch, memo)
	c.mu.Lock()
	defer c.mu.Unlock()
	if memo != nil {
		c.remembered++
	}
	if okA != ok || changedA != changed || mustString(cp) != mustString(n) {
		c.diffs = append(c.diffs, fmt.Sprintf("with the calm memory: ok %v changed %v, without: ok %v changed %v; patch %v:\n%s\nwithout:\n%s", ok, changed, okA, changedA, patch, mustString(n), mustString(cp)))
	}
	return changed, ok, edits
}

func checkViews(t *testing.T) *viewChecker {
	c := &viewChecker{}
	savedView, savedShared, savedFast := checkView, checkShared, tryFast
	checkView, checkShared, tryFast = c.check, c.shared, c.fast
	t.Cleanup(func() { checkView, checkShared, tryFast = savedView, savedShared, savedFast })
	return c
}

func (c *viewChecker) report(t *testing.T) {
	t.Helper()
	t.Logf("%d views updated from the fast path's edits, %d taken from the previous policy, %d fast paths with a calm memory", c.updates, c.taken, c.remembered)
	for i, d := range c.diffs {
		if i == 5 {
			t.Errorf("... and %d more", len(c.diffs)-5)
			break
		}
		t.Error(d)
	}
}

// TestIncrementalView: wherever a view is brought up to date from the fast
// path's edits, or taken from the previous policy, instead of being read
// again, it equals the node read again, and the fast path decides as it
// would without its memory of calm parts (smp.Calm), on checkedInputs.
func TestIncrementalView(t *testing.T) {
	for _, in := range checkedInputs {
		t.Run(in.name, func(t *testing.T) {
			c := checkViews(t)
			for _, docs := range in.docs(t) {
				renderAll(t, docs)
			}
			c.report(t)
			if in.name == "bench" {
				assert.Greater(t, c.updates, 60, "the benchmark's patches update the view")
				assert.Greater(t, c.taken, 5, "the second policy takes the first one's view")
			}
		})
	}
}

// TestWithEdits: the view is updated where the edits say, the view it was
// made from stays as it was, and an edit that does not fit the view is
// refused.
func TestWithEdits(t *testing.T) {
	n, err := yaml.Parse("apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  labels: {x: v}\nspec:\n  containers:\n  - name: c\n    image: i\n  - name: d\n")
	require.NoError(t, err)
	before, err := jsonView(n)
	require.NoError(t, err)
	changed, ok, edits := smp.TryFastEdits(n, map[string]any{
		"metadata": map[string]any{"labels": map[string]any{"+(team)": "shop", "x": "z"}},
		"spec":     map[string]any{"containers": []any{map[string]any{"name": "c", "+(imagePullPolicy)": "Always", "securityContext": map[string]any{"+(runAsNonRoot)": true}}}},
	})
	require.True(t, ok)
	require.True(t, changed)
	after, ok := withEdits(before, edits)
	require.True(t, ok)
	fresh, err := jsonView(n)
	require.NoError(t, err)
	assert.Equal(t, fresh, after)
	assert.Equal(t, map[string]any{"x": "v"}, before["metadata"].(map[string]any)["labels"], "the earlier view is untouched")
	assert.Equal(t, before["kind"], after["kind"])

	_, ok = withEdits(map[string]any{"kind": "Pod"}, edits)
	assert.False(t, ok, "a path the view lacks")
}

// viewsTwoPolicies exercise what viewShare must get right: wire
// annotations taken off and put back between policies, a resource without
// namespace (defaulted, then restored), a policy that writes a wire
// annotation and one that writes the namespace.
const viewsTwoPolicies = `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: a-labels}
spec:
  rules:
  - name: label
    match: {any: [{resources: {kinds: [ConfigMap, Deployment]}}]}
    mutate:
      patchStrategicMerge:
        metadata:
          labels:
            +(ns): "{{request.object.metadata.namespace}}"
---
apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: b-wire}
spec:
  rules:
  - name: wire
    match: {any: [{resources: {kinds: [ConfigMap], names: [wire]}}]}
    mutate:
      patchStrategicMerge:
        metadata:
          annotations:
            config.kubernetes.io/index: "7"
            seen: "{{request.object.metadata.annotations || ` + "`{}`" + ` | keys(@) | join(',', @)}}"
---
apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: c-namespace}
spec:
  rules:
  - name: ns
    match: {any: [{resources: {kinds: [ConfigMap], names: [moved]}}]}
    mutate:
      patchStrategicMerge:
        metadata:
          namespace: elsewhere
---
apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: d-read}
spec:
  rules:
  - name: read
    match: {any: [{resources: {kinds: [ConfigMap, Deployment]}}]}
    mutate:
      patchStrategicMerge:
        metadata:
          annotations:
            +(saw): "{{request.object.metadata.namespace}}/{{request.object.metadata.labels.ns || 'none'}}/{{length(request.object.metadata.annotations || ` + "`{}`" + `)}}"
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: plain
  annotations:
    config.kubernetes.io/index: "0"
    internal.config.kubernetes.io/path: a.yaml
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: wire
  annotations:
    config.kubernetes.io/index: "1"
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: moved
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
  annotations:
    kustomize.config.k8s.io/id: "x"
spec:
  template:
    spec:
      containers:
      - name: app
        image: nginx
`

// TestViewsChangeNothing: updating views from the fast path's edits and
// handing them from policy to policy change no output and no error:
// viewsTwoPolicies and checkedInputs rendered with and without
// (keepViews) give the same resources, byte for byte.
func TestViewsChangeNothing(t *testing.T) {
	c := checkViews(t)
	render := func(t *testing.T, docs []*yaml.RNode, keep bool) string {
		saved := keepViews
		keepViews = keep
		defer func() { keepViews = saved }()
		var out strings.Builder
		renderAllInto(t, docs, &out)
		return out.String()
	}
	two := checkedInput{"viewsTwoPolicies", func(t *testing.T) [][]*yaml.RNode {
		return [][]*yaml.RNode{parseDocs(t, viewsTwoPolicies)}
	}}
	for _, in := range append([]checkedInput{two}, checkedInputs...) {
		with, without := in.docs(t), in.docs(t)
		for i := range with {
			require.Equal(t, render(t, without[i], false), render(t, with[i], true), "%s input %d", in.name, i)
		}
	}
	assert.Contains(t, render(t, parseDocs(t, viewsTwoPolicies), true), "saw: default/default/0")
	c.report(t)
}
