// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package compare runs one scenario through the oracle and through the
// apply-overrides binary, once per member cluster, and lists where they
// disagree.
package compare

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/apply-overrides/apply-overrides/oracle/kubeadmiral/internal/gen"
	"github.com/apply-overrides/apply-overrides/oracle/kubeadmiral/internal/oracle"
	"github.com/apply-overrides/apply-overrides/oracle/kubeadmiral/internal/rl"
)

// Disagreement is one difference between the oracle and the function.
type Disagreement struct {
	Cluster  string
	Resource string
	Field    string // presence, replicas, error
	Oracle   string
	Function string
}

func (d Disagreement) String() string {
	return fmt.Sprintf("cluster=%s resource=%q field=%s oracle=%s function=%s", d.Cluster, d.Resource, d.Field, d.Oracle, d.Function)
}

// Report is the comparison of one scenario.
type Report struct {
	Name          string
	Seed          string
	OracleError   string
	Disagreements []Disagreement
	// Declined lists the clusters whose render the function refused because
	// the placement depends on FederatedCluster status (capacity, conditions
	// or API types) the input does not carry, which it refuses to guess.
	Declined []string
	// Decisions are the oracle's decisions for the resources that disagree.
	Decisions []oracle.Decision
}

// CapacityUnknown is in the function's message when a placement depends on
// FederatedCluster status the input does not carry.
const CapacityUnknown = "export the FederatedCluster objects with their status"

// Agree reports whether oracle and function agree everywhere.
func (r *Report) Agree() bool { return r.OracleError == "" && len(r.Disagreements) == 0 }

// oracleMu serializes the oracle: KubeAdmiral's packages log through the
// process-wide klog, and the function runs are where the time goes.
var oracleMu sync.Mutex

func runOracle(items []*unstructured.Unstructured) (res *oracle.Result, err error) {
	oracleMu.Lock()
	defer oracleMu.Unlock()
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic in KubeAdmiral's code: %v", p)
		}
	}()
	return oracle.Run(items)
}

// Scenario compares one scenario; fn is the function binary.
func Scenario(name string, l *rl.ResourceList, fn string, timeout time.Duration) *Report {
	rep := &Report{Name: name}
	if l.FunctionConfig != nil {
		rep.Seed = l.FunctionConfig.GetAnnotations()[gen.SeedAnnotation]
	}
	want, err := runOracle(l.Items)
	if err != nil {
		rep.OracleError = err.Error()
		return rep
	}
	clusters := make([]string, 0, len(want.Clusters))
	for c := range want.Clusters {
		clusters = append(clusters, c)
	}
	sort.Strings(clusters)
	involved := map[string]bool{}
	functionViews := map[string]map[string]oracle.Placed{}
	for _, cluster := range clusters {
		got, err := runFunction(l, cluster, fn, timeout)
		if err == nil {
			functionViews[cluster] = got
		}
		if err != nil && strings.Contains(err.Error(), CapacityUnknown) {
			rep.Declined = append(rep.Declined, cluster)
			continue
		}
		if err != nil {
			rep.Disagreements = append(rep.Disagreements, Disagreement{Cluster: cluster, Resource: "-", Field: "error", Oracle: "-", Function: oneLine(err.Error())})
			continue
		}
		oracleSet := map[string]oracle.Placed{}
		for _, p := range want.Clusters[cluster] {
			oracleSet[p.Key()] = p
		}
		keys := map[string]bool{}
		for k := range oracleSet {
			keys[k] = true
		}
		for k := range got {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			o, inO := oracleSet[k]
			f, inF := got[k]
			switch {
			case inO && !inF:
				rep.Disagreements = append(rep.Disagreements, Disagreement{cluster, k, "presence", "present", "absent"})
			case !inO && inF:
				rep.Disagreements = append(rep.Disagreements, Disagreement{cluster, k, "presence", "absent", "present"})
			default:
				if fmtInt(o.Replicas) != fmtInt(f.Replicas) {
					rep.Disagreements = append(rep.Disagreements, Disagreement{cluster, k, "replicas", fmtInt(o.Replicas), fmtInt(f.Replicas)})
				}
				continue
			}
			involved[k] = true
		}
	}
	rep.Disagreements = acceptAlternatives(rep.Disagreements, want, functionViews)
	for _, d := range rep.Disagreements {
		involved[d.Resource] = true
	}
	for _, d := range want.Resources {
		if involved[oracle.Placed{APIVersion: d.APIVersion, Kind: d.Kind, Namespace: d.Namespace, Name: d.Name}.Key()] {
			rep.Decisions = append(rep.Decisions, d)
		}
	}
	return rep
}

func fmtInt(p *int64) string {
	if p == nil {
		return "absent"
	}
	return fmt.Sprint(*p)
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 400 {
		s = s[:400] + "…"
	}
	return s
}

// ignoredGroups are the API groups of the control plane's own objects,
// which the function drops from its output by default.
var ignoredGroups = []string{"core.kubeadmiral.io/", "config.kubernetes.io/"}

// runFunction renders the scenario for one cluster with the binary and
// returns what it outputs, keyed like oracle.Placed.Key.
func runFunction(l *rl.ResourceList, cluster, fn string, timeout time.Duration) (map[string]oracle.Placed, error) {
	in := &rl.ResourceList{Items: l.Items}
	fc := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "placement"}}}
	if l.FunctionConfig != nil {
		fc = l.FunctionConfig.DeepCopy()
	}
	if err := unstructured.SetNestedField(fc.Object, cluster, "data", "cluster"); err != nil {
		return nil, err
	}
	in.FunctionConfig = fc
	data, err := rl.Encode(in)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, fn)
	cmd.Stdin = bytes.NewReader(data)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("function failed (%v): %s%s", err, tail(stderr.String()), errorResults(stdout.Bytes()))
	}
	out, err := rl.Decode(stdout.Bytes())
	if err != nil {
		return nil, fmt.Errorf("function output: %w", err)
	}
	got := map[string]oracle.Placed{}
	for _, it := range out.Items {
		ignored := false
		for _, g := range ignoredGroups {
			if strings.HasPrefix(it.GetAPIVersion(), g) {
				ignored = true
			}
		}
		if ignored {
			continue
		}
		p := oracle.Placed{APIVersion: it.GetAPIVersion(), Kind: it.GetKind(), Namespace: it.GetNamespace(), Name: it.GetName()}
		p.Replicas = specInt(it, "replicas")
		got[p.Key()] = p
	}
	return got, nil
}

func specInt(u *unstructured.Unstructured, field string) *int64 {
	v, ok, err := unstructured.NestedFieldNoCopy(u.Object, "spec", field)
	if !ok || err != nil {
		return nil
	}
	switch n := v.(type) {
	case int64:
		return &n
	case float64:
		i := int64(n)
		return &i
	}
	return nil
}

func tail(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 300 {
		s = "…" + s[len(s)-300:]
	}
	return s
}

// errorResults digs the error results out of a ResourceList the function
// printed before failing.
func errorResults(stdout []byte) string {
	var msgs []string
	for _, line := range strings.Split(string(stdout), "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "- message:") || strings.HasPrefix(t, "message:") {
			msgs = append(msgs, strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(t, "- "), "message:")))
		}
	}
	if len(msgs) == 0 {
		return ""
	}
	if len(msgs) > 3 {
		msgs = append(msgs[:3], "…")
	}
	return " results: " + strings.Join(msgs, " | ")
}

// acceptAlternatives drops the disagreements on a resource whose scheduling
// upstream itself leaves to Go map order (oracle.Decision.Alternatives) when
// what the function rendered for it, over every cluster it rendered, is one
// of those alternatives.
func acceptAlternatives(ds []Disagreement, want *oracle.Result, views map[string]map[string]oracle.Placed) []Disagreement {
	if len(ds) == 0 {
		return ds
	}
	accepted := map[string]bool{}
	for _, d := range want.Resources {
		if len(d.Alternatives) == 0 {
			continue
		}
		k := oracle.Placed{APIVersion: d.APIVersion, Kind: d.Kind, Namespace: d.Namespace, Name: d.Name}.Key()
		got := map[string]string{}
		for c, view := range views {
			if p, ok := view[k]; ok {
				got[c] = fmtInt(p.Replicas)
			}
		}
		for _, alt := range d.Alternatives {
			exp := map[string]string{}
			for _, t := range alt {
				if _, ok := views[t.Name]; ok {
					exp[t.Name] = fmtInt(t.Replicas)
				}
			}
			if fmt.Sprint(exp) == fmt.Sprint(got) {
				accepted[k] = true
			}
		}
	}
	out := ds[:0]
	for _, d := range ds {
		if !accepted[d.Resource] {
			out = append(out, d)
		}
	}
	return out
}
