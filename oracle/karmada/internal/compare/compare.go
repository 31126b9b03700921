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

	"github.com/apply-overrides/apply-overrides/oracle/karmada/internal/gen"
	"github.com/apply-overrides/apply-overrides/oracle/karmada/internal/oracle"
	"github.com/apply-overrides/apply-overrides/oracle/karmada/internal/rl"
)

// Disagreement is one difference between the oracle and the function.
type Disagreement struct {
	Cluster  string
	Resource string
	Field    string // presence, replicas, parallelism, completions, error
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
	// the placement depends on the capacity of Clusters without
	// status.resourceSummary (its documented behaviour: README "Placement").
	Declined []string
	// Decisions are the oracle's decisions for the resources that disagree.
	Decisions []oracle.Decision
}

// CapacityUnknown is the function's message when a placement depends on
// the capacity of Clusters that carry no status.resourceSummary.
const CapacityUnknown = "carry none: export the Cluster objects with their status"

// Agree reports whether oracle and function agree everywhere.
func (r *Report) Agree() bool { return r.OracleError == "" && len(r.Disagreements) == 0 }

// oracleMu serializes the oracle: Karmada's packages keep process-wide state
// (feature gates, metrics), and the function runs are where the time goes.
var oracleMu sync.Mutex

func runOracle(items []*unstructured.Unstructured) (res *oracle.Result, err error) {
	oracleMu.Lock()
	defer oracleMu.Unlock()
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic in Karmada's code: %v", p)
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
	for _, cluster := range clusters {
		got, err := runFunction(l, cluster, fn, timeout)
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
				for _, fld := range []struct {
					name string
					o, f *int64
				}{{"replicas", o.Replicas, f.Replicas}, {"parallelism", o.Parallelism, f.Parallelism}, {"completions", o.Completions, f.Completions}} {
					if fmtInt(fld.o) != fmtInt(fld.f) {
						rep.Disagreements = append(rep.Disagreements, Disagreement{cluster, k, fld.name, fmtInt(fld.o), fmtInt(fld.f)})
					}
				}
				continue
			}
			involved[k] = true
		}
	}
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
var ignoredGroups = []string{"policy.karmada.io/", "cluster.karmada.io/", "config.kubernetes.io/"}

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
		p.Parallelism = specInt(it, "parallelism")
		p.Completions = specInt(it, "completions")
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
