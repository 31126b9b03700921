// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package compare runs one scenario through an oracle and through the
// apply-overrides binary, once per member cluster, and lists where they
// disagree. The oracle is any function from the scenario's items to an
// Outcome; the oracle modules adapt their own results to it.
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

	"github.com/apply-overrides/apply-overrides/oracle/harness/rl"
	"github.com/apply-overrides/apply-overrides/oracle/harness/scenario"
)

// Oracle describes one placement oracle to the comparison.
type Oracle struct {
	// Name names the control plane whose code the oracle runs, as in
	// "panic in Karmada's code".
	Name string
	// Run computes the oracle's outcome for a scenario's items.
	Run func(items []*unstructured.Unstructured) (*Outcome, error)
	// Fields are the integer spec fields compared on every resource both
	// sides place, in the order their disagreements are listed.
	Fields []string
	// IgnoredGroups are the apiVersion prefixes (such as
	// "policy.karmada.io/") of the control plane's own objects, which the
	// function drops from its output by default.
	IgnoredGroups []string
	// Content, when set, renders a placed object for comparison: the
	// function's output and the oracle's Placed.Content are compared as
	// field "content" on every resource both sides place.
	Content func(u *unstructured.Unstructured) string
	// Declined is a part of the function's message when it refuses to
	// render a cluster whose placement depends on status the input does not
	// carry; such a cluster counts as declined, not as a disagreement.
	Declined string
}

// Placed is one resource a member cluster receives.
type Placed struct {
	APIVersion string
	Kind       string
	Namespace  string
	Name       string
	// Fields holds the values of Oracle.Fields under spec, nil (or no
	// entry) where the field is absent.
	Fields map[string]*int64
	// Content is the object as Oracle.Content renders it, when set.
	Content string
}

// Key is the resource's identity, as Disagreement.Resource names it.
func (p Placed) Key() string { return Key(p.APIVersion, p.Kind, p.Namespace, p.Name) }

// Key is the identity of the resource with these coordinates.
func Key(apiVersion, kind, ns, name string) string {
	return apiVersion + " " + kind + " " + ns + "/" + name
}

// Decision is the oracle's account of one resource template, printed for
// the resources that disagree.
type Decision struct {
	APIVersion string
	Kind       string
	Namespace  string
	Name       string
	// Policy names the policy that claimed it, or is "" when none did.
	Policy string
	// Details are the oracle's own facts about it ("scheduled=…"), each
	// printed after a space.
	Details []string
	// Reason says why it went nowhere, when it did.
	Reason string
}

// Key is the identity of the decision's resource.
func (d Decision) Key() string { return Key(d.APIVersion, d.Kind, d.Namespace, d.Name) }

// String renders the decision on one line.
func (d Decision) String() string {
	pol := d.Policy
	if pol == "" {
		pol = "none"
	}
	line := fmt.Sprintf("%s %s %s/%s policy=%s", d.APIVersion, d.Kind, d.Namespace, d.Name, pol)
	for _, x := range d.Details {
		line += " " + x
	}
	if d.Reason != "" {
		line += " reason=" + d.Reason
	}
	return line
}

// Outcome is what an oracle says about one scenario.
type Outcome struct {
	// Clusters maps each member cluster to the resources it receives.
	Clusters map[string][]Placed
	// Decisions are the oracle's decisions per resource template, in the
	// order the report lists them.
	Decisions []Decision
	// Accept, when set, returns the resources whose disagreements do not
	// count, given the function's renders (cluster → Placed.Key →
	// resource) of the clusters it rendered without error: for instance
	// those where the function chose one of several answers the control
	// plane itself may give.
	Accept func(views map[string]map[string]Placed) map[string]bool
	// Errors are the member clusters for which the control plane fails
	// (an override that cannot be applied), with its message; the
	// function must fail for exactly these (compared by presence).
	Errors map[string]string
}

// Clusters converts an oracle's resources per member cluster, each with
// place, to the comparison's Outcome.Clusters; every cluster stays, with
// or without resources.
func Clusters[P any](clusters map[string][]P, place func(P) Placed) map[string][]Placed {
	out := make(map[string][]Placed, len(clusters))
	for cluster, placed := range clusters {
		list := make([]Placed, 0, len(placed))
		for _, p := range placed {
			list = append(list, place(p))
		}
		out[cluster] = list
	}
	return out
}

// Disagreement is one difference between the oracle and the function.
type Disagreement struct {
	Cluster  string
	Resource string
	Field    string // presence, error or one of Oracle.Fields
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
	// Declined lists the clusters whose render the function refused with
	// the Oracle.Declined message: the placement depends on cluster status
	// the input does not carry, which the function does not guess.
	Declined []string
	// Decisions are the oracle's decisions for the resources that disagree.
	Decisions []Decision
}

// Agree reports whether oracle and function agree everywhere.
func (r *Report) Agree() bool { return r.OracleError == "" && len(r.Disagreements) == 0 }

// oracleMu serializes the oracles: the control planes' packages keep
// process-wide state (feature gates, metrics, klog), and the function runs
// are where the time goes.
var oracleMu sync.Mutex

func (o *Oracle) run(items []*unstructured.Unstructured) (res *Outcome, err error) {
	oracleMu.Lock()
	defer oracleMu.Unlock()
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic in %s's code: %v", o.Name, p)
		}
	}()
	return o.Run(items)
}

// Scenario compares one scenario; fn is the function binary.
func (o *Oracle) Scenario(name string, l *rl.ResourceList, fn string, timeout time.Duration) *Report {
	rep := &Report{Name: name}
	if l.FunctionConfig != nil {
		rep.Seed = l.FunctionConfig.GetAnnotations()[scenario.SeedAnnotation]
	}
	want, err := o.run(l.Items)
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
	views := map[string]map[string]Placed{}
	for _, cluster := range clusters {
		got, err := o.runFunction(l, cluster, fn, timeout)
		if err == nil {
			views[cluster] = got
		}
		if msg, ok := want.Errors[cluster]; ok {
			if err == nil {
				rep.Disagreements = append(rep.Disagreements, Disagreement{Cluster: cluster, Resource: "-", Field: "error", Oracle: oneLine(msg), Function: "-"})
			}
			continue
		}
		if err != nil && o.Declined != "" && strings.Contains(err.Error(), o.Declined) {
			rep.Declined = append(rep.Declined, cluster)
			continue
		}
		if err != nil {
			rep.Disagreements = append(rep.Disagreements, Disagreement{Cluster: cluster, Resource: "-", Field: "error", Oracle: "-", Function: oneLine(err.Error())})
			continue
		}
		oracleSet := map[string]Placed{}
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
			op, inO := oracleSet[k]
			fp, inF := got[k]
			switch {
			case inO && !inF:
				rep.Disagreements = append(rep.Disagreements, Disagreement{cluster, k, "presence", "present", "absent"})
			case !inO && inF:
				rep.Disagreements = append(rep.Disagreements, Disagreement{cluster, k, "presence", "absent", "present"})
			default:
				for _, fld := range o.Fields {
					if Int(op.Fields[fld]) != Int(fp.Fields[fld]) {
						rep.Disagreements = append(rep.Disagreements, Disagreement{cluster, k, fld, Int(op.Fields[fld]), Int(fp.Fields[fld])})
					}
				}
				if o.Content != nil && op.Content != fp.Content {
					rep.Disagreements = append(rep.Disagreements, Disagreement{cluster, k, "content", op.Content, fp.Content})
				}
				continue
			}
			involved[k] = true
		}
	}
	if want.Accept != nil && len(rep.Disagreements) > 0 {
		accepted := want.Accept(views)
		kept := rep.Disagreements[:0]
		for _, d := range rep.Disagreements {
			if !accepted[d.Resource] {
				kept = append(kept, d)
			}
		}
		rep.Disagreements = kept
	}
	for _, d := range rep.Disagreements {
		involved[d.Resource] = true
	}
	for _, d := range want.Decisions {
		if involved[d.Key()] {
			rep.Decisions = append(rep.Decisions, d)
		}
	}
	return rep
}

// Int renders an optional integer as the reports show it: the number, or
// "absent".
func Int(p *int64) string {
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

// runFunction renders the scenario for one cluster with the binary and
// returns what it outputs, keyed by Placed.Key.
func (o *Oracle) runFunction(l *rl.ResourceList, cluster, fn string, timeout time.Duration) (map[string]Placed, error) {
	in := &rl.ResourceList{Items: l.Items}
	fc := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "placement"}}}
	if l.FunctionConfig != nil {
		fc = l.FunctionConfig.DeepCopy()
	}
	if err := unstructured.SetNestedField(fc.Object, cluster, "data", "cluster"); err != nil {
		return nil, err
	}
	in.FunctionConfig = fc
	out, err := Run(in, fn, timeout)
	if err != nil {
		return nil, err
	}
	got := map[string]Placed{}
	for _, it := range out.Items {
		ignored := false
		for _, g := range o.IgnoredGroups {
			if strings.HasPrefix(it.GetAPIVersion(), g) {
				ignored = true
			}
		}
		if ignored {
			continue
		}
		p := Placed{APIVersion: it.GetAPIVersion(), Kind: it.GetKind(), Namespace: it.GetNamespace(), Name: it.GetName(), Fields: map[string]*int64{}}
		for _, fld := range o.Fields {
			p.Fields[fld] = rl.SpecInt(it, fld)
		}
		if o.Content != nil {
			p.Content = o.Content(it)
		}
		got[p.Key()] = p
	}
	return got, nil
}

// Run runs the function binary fn on a ResourceList and returns its
// output; its failure's error quotes the end of its stderr and the error
// results it printed.
func Run(in *rl.ResourceList, fn string, timeout time.Duration) (*rl.ResourceList, error) {
	data, err := rl.Encode(in)
	if err != nil {
		return nil, err
	}
	stdout, stderr, err := Exec(fn, data, timeout)
	if err != nil {
		return nil, fmt.Errorf("function failed (%v): %s%s", err, Tail(string(stderr)), errorResults(stdout))
	}
	out, err := rl.Decode(stdout)
	if err != nil {
		return nil, fmt.Errorf("function output: %w", err)
	}
	return out, nil
}

// Exec runs the command bin with stdin and a time limit, and returns what
// it wrote to stdout and stderr.
func Exec(bin string, stdin []byte, timeout time.Duration) (stdout, stderr []byte, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.Bytes(), errOut.Bytes(), err
}

// Tail is the end of a command's stderr, at most 300 bytes, as the
// reports quote it.
func Tail(s string) string {
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
