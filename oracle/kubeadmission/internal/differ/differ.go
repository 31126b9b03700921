// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package differ compares the function binary with the oracle on one
// scenario: each resource the function emits (as a JSON object, after
// the same normalization as the oracle's) against the outcomes the API
// server's plugin may give it, and the resources admission denies against
// the function's failure.
package differ

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/apply-overrides/apply-overrides/oracle/harness/compare"
	"github.com/apply-overrides/apply-overrides/oracle/harness/rl"
	"github.com/apply-overrides/apply-overrides/oracle/harness/scenario"
	"github.com/apply-overrides/apply-overrides/oracle/kubeadmission/internal/oracle"
)

// oracleMu serializes the oracle: the API server's packages keep
// process-wide state (feature gates, metrics, klog).
var oracleMu sync.Mutex

func runOracle(items []*unstructured.Unstructured) (res *oracle.Result, err error) {
	oracleMu.Lock()
	defer oracleMu.Unlock()
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic in the API server's code: %v", p)
		}
	}()
	return oracle.Run(items)
}

// FunctionConfig is the functionConfig of the function's runs: no cluster,
// no placement, only the admission stage.
func FunctionConfig() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apply-overrides.dev/v1alpha1", "kind": "ApplyOverrides",
		"metadata": map[string]any{"name": "differential"}, "spec": map[string]any{},
	}}
}

// Scenario compares one scenario; fn is the function binary. The function
// runs on the whole scenario. A resource that admission may deny (in some
// evaluation order) agrees when the function's failure names it, or, when
// its errors name only other resources (it may stop at the first ones),
// when the function run on it alone fails or gives one of the oracle's
// objects. The function then runs once more without those resources, so
// that the others are compared too (admission of one resource does not
// depend on another's): each must equal one of its outcomes.
func Scenario(name string, l *rl.ResourceList, fn string, timeout time.Duration) *compare.Report {
	rep := &compare.Report{Name: name}
	if l.FunctionConfig != nil {
		rep.Seed = l.FunctionConfig.GetAnnotations()[scenario.SeedAnnotation]
	}
	want, err := runOracle(l.Items)
	if err != nil {
		rep.OracleError = err.Error()
		return rep
	}
	mayDeny := map[string]oracle.Admitted{}
	for _, a := range want.Resources {
		if anyDenied(a) {
			mayDeny[key(a.APIVersion, a.Kind, a.Namespace, a.Name)] = a
		}
	}
	items := l.Items
	if len(mayDeny) > 0 {
		got, failure := run(items, fn, timeout)
		for k, a := range mayDeny {
			switch {
			case failure == "":
				addObject(rep, k, a, got[k], l.Items)
			case strings.Contains(failure, ref(a)):
			default:
				alone, aloneFailure := run(only(l.Items, k, want), fn, timeout)
				if aloneFailure == "" {
					addObject(rep, k, a, alone[k], l.Items)
				}
			}
		}
		items = nil
		for _, it := range l.Items {
			if _, ok := mayDeny[key(it.GetAPIVersion(), it.GetKind(), it.GetNamespace(), it.GetName())]; !ok {
				items = append(items, it)
			}
		}
	}
	got, failure := run(items, fn, timeout)
	named := false
	for _, a := range want.Resources {
		k := key(a.APIVersion, a.Kind, a.Namespace, a.Name)
		if _, ok := mayDeny[k]; ok {
			continue
		}
		if failure != "" {
			if strings.Contains(failure, ref(a)) {
				named = true
				rep.Disagreements = append(rep.Disagreements, compare.Disagreement{Cluster: "-", Resource: k, Field: "error", Oracle: "admitted", Function: oneLine(failure)})
				rep.Decisions = append(rep.Decisions, decision(a))
			}
			continue
		}
		addObject(rep, k, a, got[k], l.Items)
		delete(got, k)
	}
	if failure != "" && !named {
		rep.Disagreements = append(rep.Disagreements, compare.Disagreement{Cluster: "-", Resource: "-", Field: "error", Oracle: "-", Function: oneLine(failure)})
	}
	for k := range got {
		rep.Disagreements = append(rep.Disagreements, compare.Disagreement{Cluster: "-", Resource: k, Field: "presence", Oracle: "absent", Function: "emitted"})
	}
	sortReport(rep)
	return rep
}

// ref is how the function's messages name a resource: namespace/name, or
// the name of a cluster-scoped one.
func ref(a oracle.Admitted) string {
	if a.Namespace == "" {
		return a.Name
	}
	return a.Namespace + "/" + a.Name
}

// addObject compares the object the function emitted for the resource
// with key k (nil: none) with the oracle's outcomes, and records where they
// disagree.
func addObject(rep *compare.Report, k string, a oracle.Admitted, obj *unstructured.Unstructured, items []*unstructured.Unstructured) {
	if obj == nil {
		rep.Disagreements = append(rep.Disagreements, compare.Disagreement{Cluster: "-", Resource: k, Field: "presence", Oracle: "admitted", Function: "absent"})
		return
	}
	d, bad := compareObject(a, obj, items)
	if bad {
		d.Resource = k
		rep.Disagreements = append(rep.Disagreements, d)
		rep.Decisions = append(rep.Decisions, decision(a))
	}
}

func sortReport(rep *compare.Report) {
	sort.SliceStable(rep.Disagreements, func(i, j int) bool { return rep.Disagreements[i].Resource < rep.Disagreements[j].Resource })
	sort.SliceStable(rep.Decisions, func(i, j int) bool { return rep.Decisions[i].Key() < rep.Decisions[j].Key() })
}

// only returns the items without the admitted resources other than the
// one with key k.
func only(items []*unstructured.Unstructured, k string, want *oracle.Result) []*unstructured.Unstructured {
	resources := map[string]bool{}
	for _, a := range want.Resources {
		if a.Kind != "ConfigMap" {
			resources[key(a.APIVersion, a.Kind, a.Namespace, a.Name)] = true
		}
	}
	var out []*unstructured.Unstructured
	for _, it := range items {
		ik := key(it.GetAPIVersion(), it.GetKind(), it.GetNamespace(), it.GetName())
		if ik == k || !resources[ik] {
			out = append(out, it)
		}
	}
	return out
}

// inputObject is the normalized input object with key k.
func inputObject(items []*unstructured.Unstructured, k string) map[string]any {
	for _, it := range items {
		if key(it.GetAPIVersion(), it.GetKind(), it.GetNamespace(), it.GetName()) == k {
			if norm, err := Normalize(it); err == nil {
				return norm
			}
		}
	}
	return nil
}

// anyDenied reports whether admission denies the resource in some order.
func anyDenied(a oracle.Admitted) bool {
	for _, o := range a.Outcomes {
		if o.Error != "" {
			return true
		}
	}
	return false
}

func decision(a oracle.Admitted) compare.Decision {
	d := compare.Decision{APIVersion: a.APIVersion, Kind: a.Kind, Namespace: a.Namespace, Name: a.Name, Policy: "MutatingAdmissionPolicy"}
	for i, o := range a.Outcomes {
		what := "object"
		if o.Error != "" {
			what = "denied: " + oneLine(o.Error)
		}
		orders := strings.Join(o.Orders, " | ")
		if len(a.Outcomes) == 1 {
			orders = fmt.Sprintf("all %d orders", len(o.Orders))
		}
		d.Details = append(d.Details, fmt.Sprintf("outcome%d[%s]=%s", i, orders, what))
	}
	return d
}

// compareObject compares the function's object with the oracle's outcomes:
// it agrees when it equals one of them (the live order is not fixed).
func compareObject(a oracle.Admitted, obj *unstructured.Unstructured, items []*unstructured.Unstructured) (compare.Disagreement, bool) {
	norm, err := Normalize(obj)
	if err != nil {
		return compare.Disagreement{Cluster: "-", Field: "schema", Oracle: "-", Function: oneLine(err.Error())}, true
	}
	var objects []map[string]any
	for _, o := range a.Outcomes {
		if o.Object == nil {
			continue
		}
		if reflect.DeepEqual(jsonRound(o.Object), norm) {
			return compare.Disagreement{}, false
		}
		objects = append(objects, o.Object)
	}
	if len(objects) == 0 {
		what := "admitted"
		var diffs []string
		diffAs("", inputObject(items, key(a.APIVersion, a.Kind, a.Namespace, a.Name)), norm, "input", &diffs)
		if len(diffs) > 0 {
			what = "admitted, changed: " + strings.Join(diffs, "; ")
		}
		return compare.Disagreement{Cluster: "-", Field: "error", Oracle: oneLine(a.Outcomes[0].Error), Function: oneLine(what)}, true
	}
	want := jsonRound(objects[0])
	var diffs []string
	Diff("", want, norm, &diffs)
	return compare.Disagreement{Cluster: "-", Field: "content", Oracle: "see diff", Function: oneLine(strings.Join(diffs, "; "))}, true
}

// Normalize renders the function's object the way the oracle renders the
// API server's: strictly typed (an unknown field is a disagreement), then
// as JSON without the typed structs' zero values. The annotations the KRM
// function protocol adds (config.kubernetes.io/…, internal.config.…) are
// dropped first.
func Normalize(u *unstructured.Unstructured) (map[string]any, error) {
	u = u.DeepCopy()
	if ann := u.GetAnnotations(); ann != nil {
		for k := range ann {
			if strings.HasPrefix(k, "config.kubernetes.io/") || strings.HasPrefix(k, "internal.config.kubernetes.io/") || strings.HasPrefix(k, "kustomize.config.k8s.io/") {
				delete(ann, k)
			}
		}
		if len(ann) == 0 {
			unstructured.RemoveNestedField(u.Object, "metadata", "annotations")
		} else {
			u.SetAnnotations(ann)
		}
	}
	typed, err := oracle.Typed(u)
	if err != nil {
		return nil, err
	}
	out, err := oracle.Normalize(typed)
	if err != nil {
		return nil, err
	}
	out["apiVersion"], out["kind"] = u.GetAPIVersion(), u.GetKind()
	return jsonRound(out), nil
}

func jsonRound(m map[string]any) map[string]any {
	data, _ := json.Marshal(m)
	var out map[string]any
	_ = json.Unmarshal(data, &out)
	return out
}

// Diff lists the JSON pointers where the oracle's object want and the
// function's got differ, with both values.
func Diff(path string, want, got any, out *[]string) { diffAs(path, want, got, "oracle", out) }

// diffAs is Diff with want named wantName.
func diffAs(path string, want, got any, wantName string, out *[]string) {
	wm, wok := want.(map[string]any)
	gm, gok := got.(map[string]any)
	if wok && gok {
		keys := map[string]bool{}
		for k := range wm {
			keys[k] = true
		}
		for k := range gm {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			diffAs(path+"/"+strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1"), wm[k], gm[k], wantName, out)
		}
		return
	}
	wl, wok := want.([]any)
	gl, gok := got.([]any)
	if wok && gok && len(wl) == len(gl) {
		for i := range wl {
			diffAs(fmt.Sprintf("%s/%d", path, i), wl[i], gl[i], wantName, out)
		}
		return
	}
	if !reflect.DeepEqual(want, got) {
		*out = append(*out, fmt.Sprintf("%s: %s=%s function=%s", path, wantName, show(want), show(got)))
	}
}

func show(v any) string {
	if v == nil {
		return "absent"
	}
	data, _ := json.Marshal(v)
	return string(data)
}

// run runs the function on the items and returns its resources (keyed,
// the policies and Namespaces left out), or its failure.
func run(items []*unstructured.Unstructured, fn string, timeout time.Duration) (map[string]*unstructured.Unstructured, string) {
	out, err := compare.Run(&rl.ResourceList{Items: items, FunctionConfig: FunctionConfig()}, fn, timeout)
	if err != nil {
		return nil, err.Error()
	}
	got := map[string]*unstructured.Unstructured{}
	for _, it := range out.Items {
		if it.GroupVersionKind().Group == oracle.Group || it.GetAPIVersion() == "v1" && it.GetKind() == "Namespace" {
			continue
		}
		got[key(it.GetAPIVersion(), it.GetKind(), it.GetNamespace(), it.GetName())] = it
	}
	return got, ""
}

func key(apiVersion, kind, ns, name string) string { return compare.Key(apiVersion, kind, ns, name) }

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 600 {
		s = s[:600] + "…"
	}
	return s
}
