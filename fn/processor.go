// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"errors"
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/parallel"
	"github.com/apply-overrides/apply-overrides/karmada"
	"github.com/apply-overrides/apply-overrides/kubeadmiral"
	"github.com/apply-overrides/apply-overrides/kyverno"
	"github.com/apply-overrides/apply-overrides/policy"
)

// ClusterAnnotation records, with keepPolicies, the cluster a resource was
// rendered for, so that a second run (kpt fn render runs on its own output)
// does not apply the same overrides twice.
const ClusterAnnotation = "apply-overrides.dev/cluster"

// noCluster is ClusterAnnotation's value for a render without a cluster
// (Kyverno policies only).
const noCluster = "-"

const localConfigAnnotation = "config.kubernetes.io/local-config"

// Dialect decodes one family of policy objects into policy Sets. A dialect
// that owns cluster objects too implements clusterSource (fn/inventory.go).
type Dialect interface {
	// Claims reports whether an object belongs to the dialect's control plane
	// (and so never reaches a member cluster); an error marks an object of a
	// known kind in an unsupported version.
	Claims(apiVersion, kind string) (bool, error)
	// Compile decodes and validates the claimed objects and returns the
	// ordered Sets for the target.
	Compile(objs []*yaml.RNode, t policy.Target) ([]policy.Set, []error)
}

// Dialects lists the dialects in the order their Sets run. Every dialect
// compiles, even without policies: KubeAdmiral must still report a resource
// that names a missing policy.
var Dialects = []Dialect{karmada.Dialect{}, kubeadmiral.Dialect{}, kyverno.Dialect{}}

// observer is a Dialect that also reads some workload objects, which stay
// resources (Kyverno reads Namespace labels).
type observer interface {
	Observes(apiVersion, kind string) bool
}

// clusterless is a Dialect whose policies need no cluster to be named.
type clusterless interface {
	Clusterless() bool
}

// item is one entry of the ResourceList with its role.
type item struct {
	node    *yaml.RNode
	dialect int // index into Dialects, or -1
	inv     bool
	local   bool
}

// run is one render of a checked input (see Main): rl holds its items,
// functionConfig and results.
type run struct {
	rl  *framework.ResourceList
	cfg Config
}

func (r *run) fail(res *framework.Result) { r.rl.Results = append(r.rl.Results, res) }

// process renders the items: out is what goes to the output, in input
// order; ok is false when an error result was reported (the run then writes
// no items). Resources are edited in place.
func (r *run) process() (out []outItem, ok bool) {
	pl, ok := r.prepare()
	if !ok {
		return nil, false
	}
	out = make([]outItem, 0, len(pl.items))
	var work []int // indexes into out
	for i, it := range pl.items {
		if !r.output(it) {
			continue
		}
		out = append(out, outItem{node: it.node, index: i})
		if it.resource() {
			work = append(work, len(out)-1)
		}
	}
	outcomes := make([]outcome, len(work))
	parallel.ForEach(len(work), func(i int) { outcomes[i] = r.override(out[work[i]].node, pl) })
	var total tally
	for i, o := range outcomes {
		if o.err != nil {
			r.fail(errorResult(o.err))
			continue
		}
		out[work[i]].touched = o.touched()
		total.add(o)
	}
	if len(r.rl.Results) > 0 {
		return nil, false
	}
	r.summarize(pl, total)
	return out, true
}

// outItem is an item of the output: its node, its index in the input, and
// whether an override changed it (an untouched item can be written as it
// came).
type outItem struct {
	node    *yaml.RNode
	index   int
	touched bool
}

// plan is what a run settles before it touches a resource.
type plan struct {
	items   []item
	cluster *policy.Cluster
	sets    []policy.Set
	// warnings are reported with the run's results when it succeeds.
	warnings []*framework.Result
}

// output reports whether an item goes to the output: control-plane objects
// never reach the member cluster, unless kept or local configuration.
func (r *run) output(it item) bool {
	return !((it.dialect >= 0 || it.inv) && !it.local && !r.cfg.KeepPolicies)
}

// resource reports whether an item is a workload resource to override.
func (it item) resource() bool { return it.dialect < 0 && !it.inv && !it.local }

// prepare reads the functionConfig, sorts the items, builds the inventory,
// resolves the cluster and compiles every dialect's Sets. ok is false when
// it reported an error.
func (r *run) prepare() (pl *plan, ok bool) {
	cfg, err := ParseConfig(r.rl.FunctionConfig)
	if err != nil {
		r.fail(configResult(err, r.rl.FunctionConfig))
		return nil, false
	}
	r.cfg = cfg

	items, claimed, inventory := r.classify()
	if len(r.rl.Results) > 0 {
		return nil, false
	}
	inv, err := BuildInventory(inventory, cfg.Clusters)
	if err != nil {
		r.fail(&framework.Result{Message: err.Error(), Severity: framework.Error})
		return nil, false
	}
	needed := false
	for i, objs := range claimed {
		if c, ok := Dialects[i].(clusterless); ok && c.Clusterless() {
			continue
		}
		needed = needed || len(objs) > 0
	}
	cluster, err := inv.Resolve(cfg.Cluster, needed)
	var admission *policy.Selection
	if err == nil {
		admission, err = scopeAdmission(cluster, cfg.AdmissionPolicies)
	}
	if err != nil {
		r.fail(configResult(err, r.rl.FunctionConfig))
		return nil, false
	}
	pl = &plan{items: items, cluster: cluster}
	target := policy.Target{Cluster: cluster, Admission: admission}
	for i, d := range Dialects {
		s, errs := d.Compile(claimed[i], target)
		for _, e := range errs {
			res := errorResult(e)
			if policy.IsWarning(e) {
				res.Severity = framework.Warning
				pl.warnings = append(pl.warnings, res)
				continue
			}
			r.fail(res)
		}
		pl.sets = append(pl.sets, s...)
	}
	return pl, len(r.rl.Results) == 0
}

// tally counts what the overrides did.
type tally struct{ resources, rules int }

func (t *tally) add(o outcome) {
	if o.applied > 0 {
		t.resources++
		t.rules += o.applied
	}
}

// summarize adds the run's warnings and info result.
func (r *run) summarize(pl *plan, t tally) {
	r.rl.Results = append(r.rl.Results, pl.warnings...)
	if pl.cluster != nil {
		r.rl.Results = append(r.rl.Results, &framework.Result{
			Severity: framework.Info,
			Message:  fmt.Sprintf("cluster %s: applied %d override rule(s) to %d resource(s)", pl.cluster.Name, t.rules, t.resources),
		})
	}
}

// classify sorts the items into resources, dialect objects and inventory.
func (r *run) classify() (items []item, claimed [][]*yaml.RNode, inventory []*yaml.RNode) {
	claimed = make([][]*yaml.RNode, len(Dialects))
	for _, n := range r.rl.Items {
		it := item{node: n, dialect: -1}
		it.local = n.GetAnnotations(localConfigAnnotation)[localConfigAnnotation] == "true"
		apiVersion, kind := n.GetApiVersion(), n.GetKind()
		if isInventory(apiVersion, kind) {
			it.inv = true
			inventory = append(inventory, n)
			items = append(items, it)
			continue
		}
		for i, d := range Dialects {
			if o, ok := d.(observer); ok && o.Observes(apiVersion, kind) {
				claimed[i] = append(claimed[i], n) // read, and still a resource
			}
		}
		for i, d := range Dialects {
			ok, err := d.Claims(apiVersion, kind)
			if err != nil {
				r.fail(errorResult(&policy.Error{Policy: policy.RefOf(n), Field: "apiVersion", Err: err}))
			}
			if ok {
				it.dialect = i
				claimed[i] = append(claimed[i], n)
				break
			}
		}
		items = append(items, it)
	}
	return items, claimed, inventory
}

// outcome is what overriding one resource did.
type outcome struct {
	applied int
	changed bool // a step ran that may have changed the resource
	err     error
}

// touched reports whether the override may have changed the resource.
func (o outcome) touched() bool { return o.changed || o.applied > 0 || o.err != nil }

// override applies the Sets to one resource, in place. A resource already
// rendered for this cluster (keepPolicies marks it) is left alone. The
// compiled Sets are read-only, so resources are overridden on all cores.
func (r *run) override(n *yaml.RNode, pl *plan) outcome {
	res := policy.NewResource(n)
	applied, err := r.overrideNode(res, pl)
	return outcome{applied: applied, changed: res.Touched, err: err}
}

func (r *run) overrideNode(res *policy.Resource, pl *plan) (int, error) {
	n := res.Node
	cluster := pl.cluster
	target := noCluster
	if cluster != nil {
		target = cluster.Name
	}
	if done := n.GetAnnotations(ClusterAnnotation)[ClusterAnnotation]; done != "" {
		if done == target {
			return 0, nil // rendered by an earlier run
		}
		return 0, fmt.Errorf("%s was already rendered for cluster %q (annotation %s); it cannot be rendered for %q too: start again from the unrendered package",
			policy.RefOf(n).GVKString(), done, ClusterAnnotation, target)
	}
	applied, err := policy.Apply(res, pl.sets)
	if err != nil {
		return 0, err
	}
	if applied > 0 && r.cfg.KeepPolicies {
		res.Touched = true
		if err := n.PipeE(yaml.LookupCreate(yaml.MappingNode, yaml.MetadataField, yaml.AnnotationsField),
			yaml.SetField(ClusterAnnotation, yaml.NewStringRNode(target))); err != nil {
			return 0, fmt.Errorf("%s: set annotation %s: %w", policy.RefOf(n).GVKString(), ClusterAnnotation, err)
		}
	}
	return applied, nil
}

// configResult reports a problem with the functionConfig or the inventory.
func configResult(err error, fc *yaml.RNode) *framework.Result {
	res := &framework.Result{Message: err.Error(), Severity: framework.Error}
	if fc != nil && !fc.IsNilOrEmpty() {
		ref := policy.RefOf(fc)
		res.ResourceRef = &yaml.ResourceIdentifier{
			TypeMeta: yaml.TypeMeta{APIVersion: ref.APIVersion, Kind: ref.Kind},
			NameMeta: yaml.NameMeta{Name: ref.Name, Namespace: ref.Namespace},
		}
		if ref.File != "" {
			res.File = &framework.File{Path: ref.File, Index: ref.Index}
		}
	}
	return res
}

// policyFileTag is the result tag naming the file of the policy whose rule
// failed on a resource (the result's file is the resource's).
const policyFileTag = "policyFile"

// errorResult turns an error into an error result; a *policy.Error fills in
// the resource, field and file it names.
func errorResult(err error) *framework.Result {
	res := &framework.Result{Message: err.Error(), Severity: framework.Error}
	var pe *policy.Error
	if !errors.As(err, &pe) {
		return res
	}
	target := pe.Policy
	if pe.Resource != nil {
		target = *pe.Resource
		if pe.Policy.Kind != "" {
			res.Tags = map[string]string{"policy": pe.Policy.String(), "policyField": pe.Field}
			if pe.Policy.File != "" {
				res.Tags[policyFileTag] = pe.Policy.File
			}
		}
	} else if pe.Field != "" {
		res.Field = &framework.Field{Path: pe.Field}
	}
	res.ResourceRef = &yaml.ResourceIdentifier{
		TypeMeta: yaml.TypeMeta{APIVersion: target.APIVersion, Kind: target.Kind},
		NameMeta: yaml.NameMeta{Name: target.Name, Namespace: target.Namespace},
	}
	if target.File != "" {
		res.File = &framework.File{Path: target.File, Index: target.Index}
	}
	return res
}
