// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

// This file reproduces what Karmada v1.16.0's default (native) resource
// interpreter reads from and writes to a resource template
// (pkg/resourceinterpreter/default/native/replica.go, revisereplica.go),
// together with the Job completions step of the binding controller
// (pkg/controllers/binding/common.go ensureWork). Upstream runs on the object
// the API server stored, i.e. after its defaulting; a YAML file has not been
// through that, so the defaults that matter are applied to the values read,
// never written into the node unless upstream would write the field anyway.

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	// Aliased: this package's own workload type is what the detector reads.
	wl "github.com/apply-overrides/apply-overrides/internal/workload"
	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
)

// workload is what the detector reads of a template through the default
// interpreter.
type workload struct {
	// replicas is GetReplicas: spec.replicas of a Deployment, ReplicaSet or
	// StatefulSet; min(parallelism, completions) of a Job; 1 for a Pod; 0
	// for every other resource.
	replicas int32
	// req is what each replica requests (GenerateReplicaRequirements): nil
	// when the pod template neither requests resources nor constrains nodes.
	req *requirements
	// uid is metadata.uid, "" when absent; it seeds Webster's tie-break.
	uid string
}

// The apiVersion/kind pairs the native interpreter knows. Upstream keys its
// hooks by exact GroupVersionKind, so apps/v1beta2 Deployments or
// batch/v1beta1 CronJobs are plain resources to it.
const (
	gvkDeployment    = "apps/v1/Deployment"
	gvkReplicaSet    = "apps/v1/ReplicaSet"
	gvkStatefulSet   = "apps/v1/StatefulSet"
	gvkDaemonSet     = "apps/v1/DaemonSet"
	gvkJob           = "batch/v1/Job"
	gvkCronJob       = "batch/v1/CronJob"
	gvkPod           = "v1/Pod"
	gvkIngress       = "networking.k8s.io/v1/Ingress"
	gvkServiceImport = "multicluster.x-k8s.io/v1alpha1/ServiceImport"
)

// template is a resource being interpreted, read through the accessors of
// internal/workload's Object; the replica fields only Karmada reads and
// writes are its own.
type template struct {
	*wl.Object
}

// newTemplate wraps n, naming Karmada in the errors of fields it cannot
// read.
func newTemplate(n *yaml.RNode) (*template, error) {
	o, err := wl.New(n)
	if err != nil {
		return nil, err
	}
	o.Reader = "Karmada"
	return &template{o}, nil
}

// count reads a replica-like int32 field: nil when absent or null. The API
// server rejects negative values for every field read this way.
func (t *template) count(n *yaml.Node, p *field.Path) (*int32, error) {
	n = yamlnode.Deref(n)
	if yamlnode.IsNull(n) {
		return nil, nil
	}
	var v int64
	if n.Kind != yaml.ScalarNode || n.ShortTag() != yaml.NodeTagInt || n.Decode(&v) != nil {
		return nil, t.Invalid(p, n, "an integer, e.g. 3")
	}
	if v < 0 || v > math.MaxInt32 {
		return nil, fmt.Errorf("%s: %w", t, field.Invalid(p, v,
			"must be between 0 and 2147483647: the API server rejects other values, so correct it to a count in that range"))
	}
	c := int32(v)
	return &c, nil
}

// spec returns spec (nil when absent or null).
func (t *template) spec() (*yaml.Node, error) {
	spec, _, err := t.ObjectAt(t.Root, nil, "spec")
	return spec, err
}

// specCount reads spec.<key> as a count.
func (t *template) specCount(key string) (*int32, error) {
	spec, err := t.spec()
	if err != nil {
		return nil, err
	}
	return t.count(yamlnode.MapGet(spec, key), field.NewPath("spec", key))
}

// interpretWorkload reads replicas, per-replica requests and uid the way the
// detector does through the native interpreter, on the values the API server
// would have stored: Deployment, ReplicaSet and StatefulSet spec.replicas
// absent is 1; a Job without parallelism and completions runs 1 of 1, and
// one without parallelism runs 1 at a time. Only the exact GroupVersionKinds
// upstream lists are workloads; everything else has 0 replicas and no
// requirements. A field the interpreter reads that has the wrong type is an
// error naming it, as upstream's typed conversion fails on it.
func interpretWorkload(n *yaml.RNode) (workload, error) {
	t, err := newTemplate(n)
	if err != nil {
		return workload{}, err
	}
	var w workload
	if w.uid, err = t.StrAt(t.Root, nil, "metadata", "uid"); err != nil {
		return workload{}, err
	}
	var podSpec *yaml.Node
	var podPath *field.Path
	switch t.GVK() {
	case gvkDeployment, gvkReplicaSet, gvkStatefulSet:
		r, err := t.specCount("replicas")
		if err != nil {
			return workload{}, err
		}
		w.replicas = 1
		if r != nil {
			w.replicas = *r
		}
		podSpec, podPath, err = t.ObjectAt(t.Root, nil, "spec", "template", "spec")
		if err != nil {
			return workload{}, err
		}
	case gvkJob:
		if w.replicas, err = t.jobReplicas(); err != nil {
			return workload{}, err
		}
		podSpec, podPath, err = t.ObjectAt(t.Root, nil, "spec", "template", "spec")
		if err != nil {
			return workload{}, err
		}
	case gvkPod:
		w.replicas = 1
		if podSpec, err = t.spec(); err != nil {
			return workload{}, err
		}
		podPath = field.NewPath("spec")
	default:
		return w, nil
	}
	w.req, err = t.podRequirements(podSpec, podPath)
	return w, err
}

// jobReplicas is min(parallelism, completions) after the API server's Job
// defaulting.
func (t *template) jobReplicas() (int32, error) {
	parallelism, err := t.specCount("parallelism")
	if err != nil {
		return 0, err
	}
	completions, err := t.liveCompletions()
	if err != nil {
		return 0, err
	}
	p := int32(1)
	if parallelism != nil {
		p = *parallelism
	}
	// Upstream treats a Job without completions (a work queue) as running
	// parallelism pods; with completions, no more pods than completions.
	if completions != nil && *completions < p {
		p = *completions
	}
	return p, nil
}

// liveCompletions reads spec.completions as the API server would have stored
// it: a batch/v1 Job with neither parallelism nor completions gets
// completions 1, one with only parallelism keeps none (a work-queue Job).
func (t *template) liveCompletions() (*int32, error) {
	completions, err := t.specCount("completions")
	if err != nil || completions != nil || t.GVK() != gvkJob {
		return completions, err
	}
	parallelism, err := t.specCount("parallelism")
	if err != nil || parallelism != nil {
		return nil, err
	}
	one := int32(1)
	return &one, nil
}

// reviseReplicas does, for one target cluster, what ensureWork does before
// the override policies: the native ReviseReplica (spec.replicas of a
// Deployment, ReplicaSet or StatefulSet, spec.parallelism of a batch/v1 Job)
// and, when completions is given, the Job's share of spec.completions
// (without a share, a batch/v1 Job's defaulted completions are written as
// the stored object has them).
//
// Upstream writes a field only when the stored object has it. The stored
// object is defaulted, so replicas and parallelism are always there and are
// written even when the YAML leaves them out (appended to spec); completions
// is there when the YAML has it or, for a batch/v1 Job, when the YAML has
// neither parallelism nor completions (defaulted to 1). An existing value of
// the wrong type is an error, as upstream's ApplyReplica fails on it and
// sends that cluster nothing. It reports whether n changed; a field that
// already holds the number (however spelled) is left as it is.
func reviseReplicas(n *yaml.RNode, replicas int32, completions *int32) (bool, error) {
	t, err := newTemplate(n)
	if err != nil {
		return false, err
	}
	// Whether completions exists must be decided on the template as given:
	// writing parallelism first would hide that the Job had neither.
	live, err := t.liveCompletions()
	if err != nil {
		return false, err
	}
	writeCompletions := completions != nil && live != nil
	if completions == nil && live != nil && t.GVK() == gvkJob {
		// Not divided: the member manifest keeps the stored completions,
		// which the API server defaulted to 1 for a Job with neither field.
		completions, writeCompletions = live, true
	}
	var key string
	switch t.GVK() {
	case gvkDeployment, gvkReplicaSet, gvkStatefulSet:
		key = "replicas"
	case gvkJob:
		key = "parallelism"
	}
	changed := false
	if key != "" {
		if _, err := t.specCount(key); err != nil {
			return false, err
		}
		changed = t.setSpecCount(key, replicas)
	}
	if writeCompletions {
		changed = t.setSpecCount("completions", *completions) || changed
	}
	return changed, nil
}

// setSpecCount writes spec.<key> = v, creating spec and the key when absent
// (appended, as the API server's field order does not matter to a member
// cluster). The caller has checked that spec is an object or null and the
// key an integer or null. It reports whether anything changed.
func (t *template) setSpecCount(key string, v int32) bool {
	spec := mappingValue(t.Root, "spec", true)
	value := mappingValue(spec, key, false)
	if value.Kind == yaml.ScalarNode && value.ShortTag() == yaml.NodeTagInt {
		var old int64
		if value.Decode(&old) == nil && old == int64(v) {
			return false
		}
	}
	value.Kind, value.Tag, value.Style = yaml.ScalarNode, yaml.NodeTagInt, 0
	value.Value = strconv.FormatInt(int64(v), 10)
	return true
}

// mappingValue returns the value of key in mapping m, appending the key with
// a null value when it is missing. With mapping set, a null value becomes an
// empty mapping in place, so comments on it stay. Aliases are followed, as
// MapGet does.
func mappingValue(m *yaml.Node, key string, mapping bool) *yaml.Node {
	v := yamlnode.MapGet(m, key)
	if v == nil {
		v = &yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagNull}
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagString, Value: key}, v)
	}
	if mapping && yamlnode.IsNullScalar(v) {
		v.Kind, v.Tag, v.Value, v.Style = yaml.MappingNode, yaml.NodeTagMap, "", 0
	}
	return v
}

// jobCompletions splits a Job's spec.completions among the targets of a
// Divided binding, as ensureWork's divideReplicasByJobCompletions does at
// Karmada v1.16.0: Webster with each target's replicas as its weight and the
// template uid as tie-break seed. That version then hands the name-sorted
// result out by position in targets (fixed in v1.16.5), so a target gets
// the share of the name at its own index in sorted order; this reproduces
// that. targets are in ensureWork's order: the binding's clusters, then
// those merged from requiredBy.
//
// Like ensureWork it looks at kind only, not apiVersion. The result is nil
// when the template has no completions (after the API server's defaulting)
// or every weight is 0 (upstream's dispenser then returns nothing), and
// holds one entry per target otherwise.
func jobCompletions(n *yaml.RNode, targets []assignment, uid string) (map[string]int32, error) {
	t, err := newTemplate(n)
	if err != nil || t.Kind != "Job" {
		return nil, err
	}
	completions, err := t.liveCompletions()
	if err != nil || completions == nil {
		return nil, err
	}
	parties := make([]weighted, 0, len(targets))
	names := make([]string, 0, len(targets))
	seen := map[string]bool{}
	var sum int64
	for _, c := range targets {
		if seen[c.name] {
			// ensureWork's targets never repeat a cluster; upstream would
			// index past the end of its result on such a list.
			return nil, fmt.Errorf("%s: cluster %q is a target twice: list each target cluster once", t, c.name)
		}
		seen[c.name] = true
		parties = append(parties, weighted{name: c.name, weight: int64(c.replicas)})
		names = append(names, c.name)
		sum += int64(c.replicas)
	}
	if sum == 0 {
		return nil, nil
	}
	share := map[string]int32{}
	for _, a := range webster(*completions, parties, uid) {
		share[a.name] = a.replicas
	}
	sort.Strings(names)
	out := make(map[string]int32, len(targets))
	for i, c := range targets {
		out[c.name] = share[names[i]]
	}
	return out, nil
}
