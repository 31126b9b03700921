// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"errors"
	"fmt"
	"slices"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/parallel"
	"github.com/apply-overrides/apply-overrides/karmada"
	"github.com/apply-overrides/apply-overrides/kubeadmiral"
	"github.com/apply-overrides/apply-overrides/kubefleet"
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

// Dialect decodes one family of policy objects. A dialect that owns
// cluster objects too implements clusterSource (fn/inventory.go).
type Dialect interface {
	// Claims reports whether an object belongs to the dialect's control plane
	// (and so never reaches a member cluster); an error marks an object of a
	// known kind in an unsupported version.
	Claims(apiVersion, kind string) (bool, error)
	// Compile decodes and validates the claimed objects once per input
	// (policy.Decode); the result's For binds them to each rendered
	// cluster: its Sets and its Placer.
	Compile(objs []*yaml.RNode) (policy.Policies, []error)
}

// Dialects lists the dialects in the order their Sets run. Every dialect
// compiles, even without policies: KubeAdmiral must still report a resource
// that names a missing policy. The member cluster's admission runs after
// the federation overrides, in kube-apiserver's plugin order:
// MutatingAdmissionPolicies, then the mutating webhooks (Kyverno).
var Dialects = slices.Concat([]Dialect{karmada.Dialect{}, kubeadmiral.Dialect{}, kubefleet.Dialect{}}, admissionDialects, []Dialect{kyverno.Dialect{}})

// observer is a Dialect that also reads some workload objects, which stay
// resources (Kyverno reads Namespace labels).
type observer interface {
	Observes(apiVersion, kind string) bool
}

// warmer is a Dialect that starts, from the input's text, work its
// Compile would otherwise do on the run's critical path (Kyverno loads
// kyaml's OpenAPI schema). executeTo calls Warm as soon as the input is
// read, before it is split and checked. Warm may go on reading input after
// it returns (Kyverno searches it on a goroutine): nothing changes input.
type warmer interface {
	Warm(input []byte)
}

// warm calls every dialect's Warm.
func warm(input []byte) {
	for _, d := range Dialects {
		if w, ok := d.(warmer); ok {
			w.Warm(input)
		}
	}
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
	// items are the input's items, classified (set by prepareTargets).
	items []item
	// uses is what each override policy did over the rendered clusters,
	// by policyKey, in the order the policies were first bound.
	uses  map[string]*policyUse
	order []string
	// placements is what each placement policy claimed, by policyKey, in
	// the order first bound; seenKinds and seenNames are the kinds and
	// names of the rendered resources.
	placements           map[string]*placementUse
	placementOrder       []string
	seenKinds, seenNames map[string]bool
	// notPlaced gathers, by input item, the clusters a fan-out run leaves
	// each resource out of (groupsLeftOut); nil when the run reports each
	// cluster's own.
	notPlaced []notPlaced
}

func (r *run) fail(res *framework.Result) { r.rl.Results = append(r.rl.Results, res) }

// process renders the items for the functionConfig's cluster: out is what
// goes to the output, in input order; ok is false when an error result was
// reported (the run then writes no items). Resources are edited in place.
func (r *run) process() (out []outItem, ok bool) {
	pl, ok := r.prepare()
	if !ok {
		return nil, false
	}
	out, ok = r.renderCluster(pl, false)
	if ok {
		r.reportPolicies()
	}
	return out, ok
}

// renderCluster places and overrides the resources for pl's cluster, on
// all cores; copies makes it work on copies of the resources' nodes, so that
// the items stay as they were read for the next cluster.
func (r *run) renderCluster(pl *plan, copies bool) (out []outItem, ok bool) {
	out = make([]outItem, 0, len(pl.items))
	var work []int // indexes into out
	for i, it := range pl.items {
		if !r.output(it) {
			continue
		}
		out = append(out, outItem{node: it.node, index: i, resource: it.resource()})
		if it.resource() {
			work = append(work, len(out)-1)
		}
	}
	outcomes := make([]outcome, len(work))
	parallel.ForEach(len(work), func(i int) {
		n := out[work[i]].node
		if copies {
			n = n.Copy()
			out[work[i]].node = n
		}
		outcomes[i] = r.render(n, pl)
	})
	var total tally
	r.bind(pl)
	if slices.ContainsFunc(pl.items, func(it item) bool { return leftOutBefore(pl, it) }) {
		r.claimedBefore(pl)
	}
	failed := false
	for i, o := range outcomes {
		if o.err != nil {
			r.fail(errorResult(o.err))
			failed = true
			continue
		}
		out[work[i]].touched = o.touched()
		out[work[i]].dropped = o.dropped
		total.add(o)
		r.account(pl, out[work[i]].index, o)
	}
	if failed {
		return nil, false
	}
	for i, o := range outcomes {
		if !o.dropped {
			continue
		}
		var np *notPlaced
		if r.notPlaced != nil {
			np = &r.notPlaced[out[work[i]].index]
		}
		res, kept, err := r.leaveOut(out[work[i]].node, pl, o, np)
		if err != nil {
			r.fail(errorResult(err))
			return nil, false
		}
		if res != nil {
			r.rl.Results = append(r.rl.Results, res)
		}
		if kept {
			out[work[i]].dropped, out[work[i]].touched = false, true
		}
	}
	if r.cfg.Explain {
		for i, o := range outcomes {
			r.rl.Results = append(r.rl.Results, r.explain(pl, out[work[i]].node, o)...)
		}
	}
	r.summarize(pl, total)
	return slices.DeleteFunc(out, func(o outItem) bool { return o.dropped }), true
}

// clusterRender is one cluster's output of a fleet render.
type clusterRender struct {
	cluster *policy.Cluster
	items   []outItem
}

// processFleet renders each named cluster (nil: the functionConfig's
// spec.render clusters) from one parse of the input:
// the functionConfig, inventory and policies are read and compiled once,
// then each cluster binds the policies (policy.Policies.For), places and
// overrides its own copy of the resources. ok is false when an error
// result was reported; the results of every cluster are the run's.
func (r *run) processFleet(names []string) (renders []clusterRender, ok bool) {
	plans, ok := r.prepareTargets(names)
	if !ok {
		return nil, false
	}
	reportOnce(plans)
	if r.groupsLeftOut() {
		r.notPlaced = make([]notPlaced, len(r.items))
	}
	for _, pl := range plans {
		out, ok := r.renderCluster(pl, true)
		if !ok {
			return nil, false
		}
		renders = append(renders, clusterRender{cluster: pl.cluster, items: out})
	}
	r.reportNotPlaced(r.notPlaced)
	r.reportPolicies()
	return renders, true
}

// reportOnce drops the warnings and notes a plan repeats from an earlier
// one: a warning about the fleet (not one cluster) comes with every
// cluster's binding, and is reported once.
func reportOnce(plans []*plan) {
	seen := map[string]bool{}
	for _, pl := range plans {
		pl.warnings = slices.DeleteFunc(pl.warnings, func(w *framework.Result) bool {
			key := string(w.Severity) + "\x00" + w.Message
			defer func() { seen[key] = true }()
			return seen[key]
		})
	}
}

// outItem is an item of the output: its node, its index in the input,
// whether it is a resource (what a cluster receives, as opposed to local
// configuration and kept control-plane objects), and whether an override
// changed it (an untouched item can be written as it came) or placement
// left it out of the cluster.
type outItem struct {
	node     *yaml.RNode
	index    int
	resource bool
	touched  bool
	dropped  bool
}

// plan is what a run settles for one cluster before it touches a resource.
type plan struct {
	items   []item
	cluster *policy.Cluster
	sets    []policy.Set
	placers []policy.Placer
	// placesWhole: a Placer decided from every resource at once (see
	// policy.Binding.PlacesWhole), so the run must hold them all.
	placesWhole bool
	// warnings (and notes) are reported with the run's results when it
	// succeeds.
	warnings []*framework.Result
	// overrides are the override policies with rules for the cluster
	// (policy.Binding.Overrides), each with its dialect's index, and rules
	// their rules that target it (policy.Binding.Rules).
	overrides []boundPolicy
	rules     []policy.BoundRule
	// placements are the placement policies of the Placers
	// (policy.Binding.Placements), each with its dialect's index; claims
	// marks the plan whose renders ask the Placers that are
	// policy.Claimers who claims each resource (one plan of a fleet: the
	// claim is the same for every cluster).
	placements []boundPolicy
	claims     bool
}

// boundPolicy is an override policy bound to a cluster.
type boundPolicy struct {
	ref     policy.Ref
	dialect int
}

// output reports whether an item goes to the output: control-plane objects
// never reach the member cluster, unless kept or local configuration.
func (r *run) output(it item) bool {
	return !((it.dialect >= 0 || it.inv) && !it.local && !r.cfg.KeepPolicies)
}

// resource reports whether an item is a workload resource to override.
func (it item) resource() bool { return it.dialect < 0 && !it.inv && !it.local }

// prepare is PREPARE for the functionConfig's cluster.
func (r *run) prepare() (pl *plan, ok bool) {
	plans, ok := r.prepareTargets(nil)
	if !ok {
		return nil, false
	}
	return plans[0], true
}

// prepareTargets reads the functionConfig, sorts the items, builds the
// inventory, resolves each named cluster (nil names the functionConfig's
// cluster, or its spec.render clusters; "" is the only one known, or
// none), compiles every dialect's
// policies once and binds them to each cluster. ok is false when it
// reported an error.
func (r *run) prepareTargets(names []string) (plans []*plan, ok bool) {
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
	r.items = items
	inv, err := BuildInventory(inventory, cfg.Clusters)
	if err != nil {
		r.fail(&framework.Result{Message: err.Error(), Severity: framework.Error})
		return nil, false
	}
	switch {
	case names != nil:
	case cfg.Render != nil:
		if names, err = cfg.Render.resolve(inv); err != nil {
			r.fail(configResult(err, r.rl.FunctionConfig))
			return nil, false
		}
	default:
		names = []string{cfg.Cluster}
	}
	needed := false
	for i, objs := range claimed {
		if c, ok := Dialects[i].(clusterless); ok && c.Clusterless() {
			continue
		}
		needed = needed || len(objs) > 0
	}
	fleet := make([]*policy.Cluster, 0, len(inv))
	for _, name := range inv.Names() {
		fleet = append(fleet, inv[name])
	}
	var resources []*yaml.RNode
	for _, it := range items {
		if it.resource() {
			resources = append(resources, it.node)
		}
	}
	targets := make([]policy.Target, len(names))
	for i, name := range names {
		cluster, err := inv.Resolve(name, needed)
		var admission *policy.Selection
		if err == nil {
			admission, err = scopeAdmission(cluster, cfg.AdmissionPolicies)
		}
		if err != nil {
			r.fail(configResult(err, r.rl.FunctionConfig))
			return nil, false
		}
		targets[i] = policy.Target{Cluster: cluster, Admission: admission, Placement: cfg.Placement, Fleet: fleet, Resources: resources}
	}
	compiled := make([]policy.Policies, len(Dialects))
	for i, d := range Dialects {
		ps, errs := d.Compile(claimed[i])
		for _, e := range errs {
			r.fail(errorResult(e))
		}
		compiled[i] = ps
	}
	if len(r.rl.Results) > 0 {
		return nil, false
	}
	for _, t := range targets {
		pl := &plan{items: items, cluster: t.Cluster}
		var reinvoke []policy.Set
		for di, ps := range compiled {
			b, errs := ps.For(t)
			for _, ref := range b.Overrides {
				pl.overrides = append(pl.overrides, boundPolicy{ref: ref, dialect: di})
			}
			pl.rules = append(pl.rules, b.Rules...)
			for _, ref := range b.Placements {
				pl.placements = append(pl.placements, boundPolicy{ref: ref, dialect: di})
			}
			for _, e := range errs {
				res := errorResult(e)
				switch {
				case policy.IsWarning(e):
					res.Severity = framework.Warning
				case policy.IsNote(e):
					res.Severity = framework.Info
				default:
					r.fail(res)
					continue
				}
				pl.warnings = append(pl.warnings, res)
			}
			pl.sets = append(pl.sets, b.Sets...)
			reinvoke = append(reinvoke, b.Reinvoke...)
			if b.Placer != nil {
				pl.placers = append(pl.placers, b.Placer)
			}
			pl.placesWhole = pl.placesWhole || b.PlacesWhole
		}
		// The admission chain's second pass follows its whole first pass
		// (admission/reinvocation.go): MutatingAdmissionPolicies, then
		// Kyverno's webhooks, each as far as its Reinvocation says.
		pl.sets = append(pl.sets, reinvoke...)
		if cfg.Placement == policy.PlacementEnforce {
			pl.placers = append(pl.placers, enforced{})
		}
		pl.claims = len(plans) == 0
		plans = append(plans, pl)
	}
	return plans, len(r.rl.Results) == 0
}

// tally counts what the overrides did.
type tally struct{ resources, rules, seen, left int }

func (t *tally) add(o outcome) {
	if !o.rendered {
		return // not a resource
	}
	t.seen++
	if o.dropped {
		t.left++
	}
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
		if len(pl.placers) > 0 {
			r.rl.Results = append(r.rl.Results, &framework.Result{
				Severity: framework.Info,
				Message:  fmt.Sprintf("cluster %s: placement sends it %d of %d resource(s)", pl.cluster.Name, t.seen-t.left, t.seen),
			})
		}
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

// outcome is what rendering one resource did.
type outcome struct {
	rendered bool // the outcome of a resource's render
	applied  int
	changed  bool // a step ran that may have changed the resource
	dropped  bool // placement left the resource out of the cluster
	// left is the placement that left the resource out, for its result;
	// placed the one that sent it to the cluster, for explain.
	left, placed *policy.Placement
	// steps are the policy steps that applied, for explain; matched the
	// rules that matched, for the warnings about those that match nothing.
	steps   []policy.Applied
	matched []policy.Match
	// claims are how the placement policies contend for the resource,
	// when the plan asks (plan.claims).
	claims []policy.Claim
	// ref is the resource's identity as it came, for warnings.
	ref policy.Ref
	// prior: an earlier run rendered the resource for this cluster
	// (keepPolicies), so what its policies did is not known.
	prior bool
	err   error
}

// touched reports whether the render may have changed the resource.
func (o outcome) touched() bool { return o.changed || o.applied > 0 || o.err != nil }

// render is PLACE and OVERRIDE for one resource, in place: placement
// decides whether the cluster receives it and revises its replicas, then
// the Sets override it. A resource already rendered for this cluster
// (keepPolicies marks it) is left alone. A plan is read-only, so resources
// are rendered on all cores.
func (r *run) render(n *yaml.RNode, pl *plan) outcome {
	res := policy.NewResource(n)
	tr := &policy.Trace{Explain: r.cfg.Explain}
	ref := res.Ref
	var claims []policy.Claim
	if pl.claims {
		for _, p := range pl.placers {
			if c, ok := p.(policy.Claimer); ok {
				claims = append(claims, c.Claim(res))
			}
		}
	}
	applied, left, prior, err := r.renderResource(res, pl, tr)
	return outcome{rendered: true, applied: applied, changed: res.Touched, dropped: left != nil, left: left, placed: tr.Placement,
		steps: tr.Applied, matched: tr.Matched, claims: claims, ref: ref, prior: prior, err: err}
}

func (r *run) renderResource(res *policy.Resource, pl *plan, tr *policy.Trace) (applied int, left *policy.Placement, prior bool, err error) {
	n := res.Node
	cluster := pl.cluster
	target := noCluster
	if cluster != nil {
		target = cluster.Name
	}
	if done := n.GetAnnotations(ClusterAnnotation)[ClusterAnnotation]; done != "" {
		if done == target {
			return 0, nil, true, nil // rendered by an earlier run
		}
		return 0, nil, false, fmt.Errorf("%s was already rendered for cluster %q (annotation %s); it cannot be rendered for %q too: start again from the unrendered package",
			policy.RefOf(n).GVKString(), done, ClusterAnnotation, target)
	}
	placed, err := policy.Place(res, pl.placers)
	if err != nil {
		return 0, nil, false, err
	}
	if !placed.Placed {
		return 0, &placed, false, nil
	}
	applied, err = r.renderPlaced(res, pl, tr, placed)
	return applied, nil, false, err
}

// renderPlaced is the rest of renderResource for a resource placement
// sends to pl's cluster: the replicas revised, the overrides applied, and
// the mark of keepPolicies.
func (r *run) renderPlaced(res *policy.Resource, pl *plan, tr *policy.Trace, placed policy.Placement) (applied int, err error) {
	n := res.Node
	target := noCluster
	if pl.cluster != nil {
		target = pl.cluster.Name
	}
	if placed.By != nil || placed.Replicas != nil {
		tr.Placement = &placed
	}
	revised := placed.Revise.Filter != nil
	if revised {
		res.Touched = true
		if err := n.PipeE(placed.Revise.Filter); err != nil {
			return 0, placementError(res, placed, err)
		}
		res.Refresh()
	}
	applied, err = policy.ApplyTrace(res, pl.sets, tr)
	if err != nil {
		return 0, err
	}
	// A resource rendered for the cluster (its replicas revised, or an
	// override applied) is marked, so that kpt fn render's next run leaves
	// it alone.
	if (applied > 0 || revised) && r.cfg.KeepPolicies {
		res.Touched = true
		if err := n.PipeE(yaml.LookupCreate(yaml.MappingNode, yaml.MetadataField, yaml.AnnotationsField),
			yaml.SetField(ClusterAnnotation, yaml.NewStringRNode(target))); err != nil {
			return 0, fmt.Errorf("%s: set annotation %s: %w", policy.RefOf(n).GVKString(), ClusterAnnotation, err)
		}
	}
	return applied, nil
}

// enforced is the last Placer under spec.placement enforce: a resource no
// dialect's placement sends to the cluster goes nowhere, as in a control
// plane, instead of everywhere.
type enforced struct{}

func (enforced) Place(*policy.Resource) (policy.Placement, bool, error) {
	return policy.Placement{Reason: "spec.placement is enforce, and no placement policy sends it to the cluster"}, true, nil
}

// leaveOut is what becomes of a resource placement leaves out of the
// cluster: its info result, and, under keepPolicies, the resource kept
// (kept): kpt fn render writes the output back into the package, so the
// resource stays, as local configuration (never applied, passed through by
// the next render) marked with the cluster it was left out of.
// In a run that groups them (groupsLeftOut), np gathers the clusters and
// res is nil.
func (r *run) leaveOut(n *yaml.RNode, pl *plan, o outcome, np *notPlaced) (res *framework.Result, kept bool, err error) {
	if np != nil {
		np.add(n, pl.cluster, o.left)
	} else {
		res = leftOut(n, pl.cluster, o.left)
	}
	if !r.cfg.KeepPolicies {
		return res, false, nil
	}
	return res, true, keepLeftOut(n, pl.cluster)
}

// keepLeftOut marks a resource placement leaves out of the cluster as local
// configuration rendered for it.
func keepLeftOut(n *yaml.RNode, c *policy.Cluster) error {
	target := targetName(c)
	if err := n.PipeE(yaml.SetAnnotation(localConfigAnnotation, "true")); err != nil {
		return fmt.Errorf("%s: set annotation %s: %w", policy.RefOf(n).GVKString(), localConfigAnnotation, err)
	}
	if err := n.PipeE(yaml.SetAnnotation(ClusterAnnotation, target)); err != nil {
		return fmt.Errorf("%s: set annotation %s: %w", policy.RefOf(n).GVKString(), ClusterAnnotation, err)
	}
	return nil
}

// leftOut is the info result of a resource placement leaves out of a
// cluster: the resource, the policy that decided and why.
func leftOut(n *yaml.RNode, c *policy.Cluster, p *policy.Placement) *framework.Result {
	ref := policy.RefOf(n)
	var bys []*policy.Ref
	if p.By != nil {
		bys = []*policy.Ref{p.By}
	}
	return notPlacedResult(ref, fmt.Sprintf("%s is not placed on cluster %s: %s", ref.GVKString(), targetName(c), p.Reason), bys)
}

// placementError names the placement policy and field whose replica
// revision failed on a resource.
func placementError(res *policy.Resource, p policy.Placement, err error) error {
	pe := &policy.Error{Resource: &res.Ref, Field: p.Revise.Field, Err: err}
	if p.By != nil {
		pe.Policy = *p.By
	}
	return pe
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
