// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubeadmiral

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/apply-overrides/apply-overrides/policy"
)

// This file is KubeAdmiral's global scheduler (kubewharf/kubeadmiral
// pkg/controllers/scheduler @19de01c) with the default profile, for a fresh
// federated object: no current clusters, so stickiness, rescheduling and the
// migration inputs play no part. Only what the YAML decides is reproduced;
// where the outcome hangs on live status the input lacks, the render says
// so instead of guessing.

// unit is KubeAdmiral's SchedulingUnit for a fresh object (no current
// clusters, not sticky).
type unit struct {
	// key is "ns/name", or "name" for a cluster-scoped object: it seeds the
	// planner's hash.
	key string
	// apiResource is the FTC source type as "group/version/Kind" ("v1/Kind"
	// for the core group), which APIResources looks for.
	apiResource string
	// divide is Divide mode; the caller has already fallen back to
	// Duplicate where the FTC has no replicas path.
	divide bool
	// replicas is the desired replicas (Divide).
	replicas int64
	// binpack is replicasStrategy: Binpack.
	binpack bool
	// disruptive is replicaRescheduling.avoidDisruption: false. Its zero
	// value is the CRD default (avoidDisruption: true). It matters even for
	// a fresh object: the planners then re-plan the desired layout as a
	// scale-up from zero, which differs where minReplicas exceeds
	// maxReplicas.
	disruptive      bool
	clusterSelector map[string]string
	// affinity is the required cluster affinity; nil means none. A non-nil
	// empty slice is a required affinity without terms, which matches no
	// cluster (only the affinity annotation can say that: an empty policy
	// clusterAffinity builds no affinity at all).
	affinity    []clusterSelectorTerm
	tolerations []policy.Toleration
	maxClusters *int64
	// clusterNames is the placement list; empty means every cluster.
	clusterNames map[string]bool
	// minReplicas, maxReplicas, weights and priorities are per cluster,
	// only where the placement sets them.
	minReplicas, maxReplicas, weights, priorities map[string]int64
	// gpu is the nvidia.com/gpu request per replica (0: none); it is the
	// only resource request that enters scheduling.
	gpu int64
}

// missingStatus is a scheduling outcome that depends on the clusters' live
// resources, which the input's FederatedCluster objects do not report.
type missingStatus struct {
	what     string
	clusters []string
}

func (e *missingStatus) Error() string {
	return fmt.Sprintf("KubeAdmiral decides %s from FederatedCluster status.resources, which cluster(s) %s do not report: "+
		"export the FederatedCluster objects with their status (kubectl get federatedclusters.core.kubeadmiral.io -o yaml)",
		e.what, strings.Join(e.clusters, ", "))
}

// The resource names the scheduler reads.
const (
	resourceCPU    = "cpu"
	resourceMemory = "memory"
	resourceGPU    = "nvidia.com/gpu"
)

// scheduleUnit runs the default profile over clusters (sorted by name) and
// returns the clusters that receive the object, each with its replicas
// (nil in Duplicate mode: the template's own), and why each other cluster
// does not.
func scheduleUnit(u *unit, clusters []*policy.Cluster) (map[string]*int64, map[string]string, error) {
	if err := u.validate(); err != nil {
		return nil, nil, err
	}
	why := map[string]string{}
	var feasible []*policy.Cluster
	for _, c := range clusters {
		if reason := u.filter(c); reason != "" {
			why[c.Name] = reason
			continue
		}
		feasible = append(feasible, c)
	}
	out := map[string]*int64{}
	if len(feasible) == 0 {
		// A FitError: the scheduler clears the placement, so the object
		// goes nowhere, and that is not a scheduling failure.
		return out, why, nil
	}
	selected, err := u.selectClusters(feasible, why)
	if err != nil {
		return nil, nil, err
	}
	if !u.divide {
		for _, c := range selected {
			out[c.Name] = nil
		}
		return out, why, nil
	}
	if u.replicas <= 0 {
		// RunReplicasPlugin returns no cluster at all for no replicas.
		for _, c := range selected {
			why[c.Name] = fmt.Sprintf("assigned 0 replicas: the object asks for %d, and Divide mode places no replica-less object", u.replicas)
		}
		return out, why, nil
	}
	assigned, err := u.divideReplicas(selected)
	if err != nil {
		return nil, nil, err
	}
	for _, c := range selected {
		if n := assigned[c.Name]; n > 0 {
			out[c.Name] = &n
		} else {
			why[c.Name] = "assigned 0 replicas by the " + u.replicasPlugin() + " planner, so the cluster receives nothing"
		}
	}
	return out, why, nil
}

// validate rejects what the CRD forbids and the planners cannot take:
// they assume non-negative minimums, maximums and weights.
func (u *unit) validate() error {
	for _, m := range []struct {
		field  string
		values map[string]int64
	}{{"minReplicas", u.minReplicas}, {"maxReplicas", u.maxReplicas}, {"weight", u.weights}} {
		for _, name := range sortedKeys(m.values) {
			if v := m.values[name]; v < 0 {
				return fmt.Errorf("the placement of cluster %q sets %s %d: KubeAdmiral's CRD requires 0 or more, so set it to 0 or more", name, m.field, v)
			}
		}
	}
	return nil
}

// replicasPlugin names the replicas plugin the unit runs.
func (u *unit) replicasPlugin() string {
	if u.binpack {
		return "PreferenceBinPack"
	}
	return "ClusterCapacityWeight"
}

// filter runs the default filter plugins in profile order and says why the
// first that rejects the cluster does, or "". ClusterTerminating and
// ClusterEvicted pass every cluster offline: the input has no deletion
// timestamps and a fresh object has no migration configuration applied.
func (u *unit) filter(c *policy.Cluster) string {
	if c.APIs != nil && !slices.Contains(c.APIs, u.apiResource) {
		return fmt.Sprintf("its status.apiResourceTypes does not list %s (APIResources filter)", u.apiResource)
	}
	if t := policy.Untolerated(c.Taints, u.tolerations, "NoSchedule", "NoExecute"); t != nil {
		return fmt.Sprintf("taint %s=%s:%s is not tolerated by tolerations (TaintToleration filter)", t.Key, t.Value, t.Effect)
	}
	if len(u.clusterNames) > 0 && !u.clusterNames[c.Name] {
		return "not in the placement list (PlacementFilter)"
	}
	for _, k := range sortedKeys(u.clusterSelector) {
		if got, ok := c.Labels[k]; !ok || got != u.clusterSelector[k] {
			return fmt.Sprintf("its labels do not match clusterSelector (%s=%s) (ClusterAffinity filter)", k, u.clusterSelector[k])
		}
	}
	if u.affinity != nil {
		ok, err := matchTerms(c, u.affinity)
		if err != nil {
			// The plugin turns a conversion error into a rejection, not a
			// scheduling failure; every cluster that reaches the bad term
			// is rejected the same way.
			return fmt.Sprintf("clusterAffinity is invalid (%v), which rejects the cluster (ClusterAffinity filter): fix the term", err)
		}
		if !ok {
			return "not matched by clusterAffinity (ClusterAffinity filter)"
		}
	}
	if c.Ready != "" && c.Ready != "True" {
		return fmt.Sprintf("its Ready condition is %s, not True (ClusterReady filter)", c.Ready)
	}
	return ""
}

// selectClusters is PrioritySort then MaxCluster: the feasible clusters
// ordered by score (or priority) descending, then name, and the first
// maxClusters of them. Scores are only computed where they decide which
// clusters are kept: the replicas planners order clusters their own way.
func (u *unit) selectClusters(feasible []*policy.Cluster, why map[string]string) ([]*policy.Cluster, error) {
	if u.maxClusters != nil && *u.maxClusters < 0 {
		return nil, fmt.Errorf("maxClusters is %d: KubeAdmiral's MaxCluster plugin fails the scheduling on a negative maxClusters, so the object goes nowhere; set it to 0 or more", *u.maxClusters)
	}
	byPriority := len(u.priorities) > 0 || u.divide && u.binpack
	var lo, hi map[string]int64
	switch {
	case byPriority:
		lo = map[string]int64{}
		for _, c := range feasible {
			lo[c.Name] = u.priorities[c.Name]
		}
		hi = lo
	case u.maxClusters != nil && *u.maxClusters < int64(len(feasible)):
		var err error
		if lo, hi, err = u.scoreBounds(feasible); err != nil {
			return nil, err
		}
	}
	by := "score"
	if byPriority {
		by = "priority"
	}
	kept, undecided := firstClusters(feasible, lo, hi, u.maxClusters, by, why)
	if len(undecided) > 0 {
		var lacking []string
		for _, c := range feasible {
			if c.Resources == nil {
				lacking = append(lacking, c.Name)
			}
		}
		return nil, &missingStatus{what: fmt.Sprintf("which %d of the feasible clusters maxClusters keeps (by score, as no placement sets a priority)", *u.maxClusters), clusters: lacking}
	}
	return kept, nil
}

// firstClusters orders clusters by score descending, then name, and keeps
// the first k (all when k is nil), saying in why what it drops. Each
// cluster scores between its lo and hi: a cluster is kept when fewer than k
// others could rank before it, dropped when k others surely do, and
// undecided otherwise.
func firstClusters(clusters []*policy.Cluster, lo, hi map[string]int64, k *int64, by string, why map[string]string) (kept []*policy.Cluster, undecided []string) {
	ordered := append([]*policy.Cluster(nil), clusters...)
	sort.SliceStable(ordered, func(i, j int) bool { return ranksBefore(ordered[i], ordered[j], lo, lo) })
	if k == nil || *k >= int64(len(ordered)) {
		return ordered, nil
	}
	for _, c := range ordered {
		var could, surely int64
		for _, o := range ordered {
			if o == c {
				continue
			}
			if ranksBefore(o, c, hi, lo) {
				could++
			}
			if ranksBefore(o, c, lo, hi) {
				surely++
			}
		}
		switch {
		case could < *k:
			kept = append(kept, c)
		case surely >= *k:
			why[c.Name] = fmt.Sprintf("not among the first %d clusters by %s (maxClusters)", *k, by)
		default:
			undecided = append(undecided, c.Name)
		}
	}
	return kept, undecided
}

// ranksBefore says whether a ranks before b when a scores as in sa and b as
// in sb: higher score first, then name.
func ranksBefore(a, b *policy.Cluster, sa, sb map[string]int64) bool {
	if sa[a.Name] != sb[b.Name] {
		return sa[a.Name] > sb[b.Name]
	}
	return a.Name < b.Name
}

// maxResourceScore bounds the two resource score plugins together
// (ClusterResourcesBalancedAllocation and ClusterResourcesLeastAllocated,
// 0 to 100 each).
const maxResourceScore = 200

// scoreBounds sums the default score plugins per feasible cluster
// (TaintToleration, ClusterResourcesBalancedAllocation,
// ClusterResourcesLeastAllocated, ClusterAffinity) as a range: exact where
// the input decides it, and the whole range of the resource scores for a
// cluster that reports no status.resources while others do. When no
// feasible cluster reports any, upstream scores every one 0 on resources,
// which the input does decide. ClusterAffinity scores only preferred terms,
// which the unit never has, so it adds 0.
func (u *unit) scoreBounds(feasible []*policy.Cluster) (lo, hi map[string]int64, err error) {
	taint := taintScores(u.tolerations, feasible)
	lacking := 0
	for _, c := range feasible {
		if c.Resources == nil {
			lacking++
		}
	}
	lo, hi = map[string]int64{}, map[string]int64{}
	for _, c := range feasible {
		if c.Resources == nil && lacking < len(feasible) {
			lo[c.Name], hi[c.Name] = taint[c.Name], taint[c.Name]+maxResourceScore
			continue
		}
		s, err := resourceScore(c, podRequest{gpu: u.gpu})
		if err != nil {
			return nil, nil, err
		}
		lo[c.Name], hi[c.Name] = taint[c.Name]+s, taint[c.Name]+s
	}
	return lo, hi, nil
}

// taintScores is the TaintToleration score after its normalization: the
// count of PreferNoSchedule taints that no toleration with an empty or
// PreferNoSchedule effect tolerates, reversed onto 0..100.
func taintScores(tols []policy.Toleration, clusters []*policy.Cluster) map[string]int64 {
	var soft []policy.Toleration
	for _, t := range tols {
		if t.Effect == "" || t.Effect == "PreferNoSchedule" {
			soft = append(soft, t)
		}
	}
	raw := map[string]int64{}
	var most int64
	for _, c := range clusters {
		for _, t := range c.Taints {
			if t.Effect == "PreferNoSchedule" && !slices.ContainsFunc(soft, func(tol policy.Toleration) bool { return tol.Tolerates(t) }) {
				raw[c.Name]++
			}
		}
		most = max(most, raw[c.Name])
	}
	out := make(map[string]int64, len(clusters))
	for _, c := range clusters {
		out[c.Name] = 100
		if most > 0 {
			out[c.Name] = 100 - 100*raw[c.Name]/most
		}
	}
	return out
}

// podRequest is the per-replica request the resource scores add to a
// cluster's usage: cpu in millicores, memory in bytes, GPUs. KubeAdmiral
// keeps only the GPU request in its scheduling unit; the other two are here
// to hold the plugins' own tests.
type podRequest struct {
	milliCPU, memory, gpu int64
}

// resourceScore is ClusterResourcesBalancedAllocation plus
// ClusterResourcesLeastAllocated for one cluster.
func resourceScore(c *policy.Cluster, req podRequest) (int64, error) {
	capacity, requested, err := usage(c, req)
	if err != nil {
		return 0, err
	}
	return balancedAllocation(capacity, requested) + leastAllocated(capacity, requested, req.gpu > 0), nil
}

// usage is what the resource scores compare per relevant resource (cpu,
// memory, and GPUs when requested, in that order): the allocatable
// capacity, and the in-use amount (allocatable − available) plus the
// request.
func usage(c *policy.Cluster, req podRequest) (capacity, requested []int64, err error) {
	var alloc, avail map[string]resource.Quantity
	if c.Resources != nil {
		alloc, avail = c.Resources.Allocatable, c.Resources.Available
	}
	if err := checkSubtractable(c.Name, alloc, avail); err != nil {
		return nil, nil, err
	}
	milli := func(m map[string]resource.Quantity, name string) int64 { q := m[name]; return q.MilliValue() }
	whole := func(m map[string]resource.Quantity, name string) int64 { q := m[name]; return q.Value() }
	capacity = []int64{milli(alloc, resourceCPU), whole(alloc, resourceMemory)}
	requested = []int64{
		capacity[0] - milli(avail, resourceCPU) + req.milliCPU,
		capacity[1] - whole(avail, resourceMemory) + req.memory,
	}
	if req.gpu > 0 {
		capacity = append(capacity, whole(alloc, resourceGPU))
		requested = append(requested, capacity[2]-whole(avail, resourceGPU)+req.gpu)
	}
	return capacity, requested, nil
}

// checkSubtractable refuses a status whose available exceeds its
// allocatable. Upstream subtracts available from allocatable resource by
// resource in Go map order and stops at the first that would go negative,
// so such a status leaves the usage it scores to chance (and an available
// extended resource of 0 that allocatable lacks panics it).
func checkSubtractable(cluster string, alloc, avail map[string]resource.Quantity) error {
	for _, name := range sortedKeys(avail) {
		q := avail[name]
		a, has := alloc[name]
		var over bool
		switch name {
		case resourceCPU:
			over = a.MilliValue() < q.MilliValue()
		case resourceMemory, "ephemeral-storage":
			over = a.Value() < q.Value()
		default:
			over = policy.IsScalarResource(name) && (!has || a.Value() < q.Value())
		}
		if over {
			return fmt.Errorf("cluster %s: status.resources.available[%s] (%s) exceeds its allocatable, so KubeAdmiral's resource scores would depend on Go map order: export a consistent FederatedCluster status", cluster, name, q.String())
		}
	}
	return nil
}

// balancedAllocation favours clusters whose resources would be used evenly:
// 100·(1 − the spread of the used fractions), 0 when any resource would be
// full.
func balancedAllocation(capacity, requested []int64) int64 {
	var total float64
	fractions := make([]float64, 0, len(capacity))
	for i := range capacity {
		f := 1.0
		if capacity[i] != 0 {
			f = float64(requested[i]) / float64(capacity[i])
		}
		if f >= 1 {
			return 0
		}
		total += f
		fractions = append(fractions, f)
	}
	var std float64
	switch {
	case len(fractions) == 2:
		std = math.Abs((fractions[0] - fractions[1]) / 2)
	case len(fractions) > 2:
		mean := total / float64(len(fractions))
		var sum float64
		for _, f := range fractions {
			sum += (f - mean) * (f - mean)
		}
		std = math.Sqrt(sum / float64(len(fractions)))
	}
	return int64((1 - std) * 100)
}

// leastAllocated favours clusters with room left: the share of each
// resource still free after the request, on 0..100, averaged with weights
// cpu 1, memory 1 and GPU 4.
func leastAllocated(capacity, requested []int64, gpu bool) int64 {
	weights := []int64{1, 1}
	if gpu {
		weights = append(weights, 4)
	}
	var score, sum int64
	for i, w := range weights {
		var s int64
		if capacity[i] != 0 && requested[i] <= capacity[i] {
			s = (capacity[i] - requested[i]) * 100 / capacity[i]
		}
		score += s * w
		sum += w
	}
	return score / sum
}

// divideReplicas is the replicas plugin for Divide mode over the selected
// clusters (in select order): ClusterCapacityWeight, or PreferenceBinPack
// for the Binpack strategy.
func (u *unit) divideReplicas(selected []*policy.Cluster) (map[string]int64, error) {
	prefs := make(map[string]preference, len(selected))
	names := make([]string, len(selected))
	for i, c := range selected {
		names[i] = c.Name
		p := preference{minReplicas: u.minReplicas[c.Name]}
		if m, ok := u.maxReplicas[c.Name]; ok {
			p.maxReplicas = &m
		}
		// A cluster with an untolerated NoSchedule taint takes no new
		// replicas; fresh, the filter has already left such clusters out,
		// but the plugin caps them on its own as well.
		if policy.Untolerated(c.Taints, u.tolerations, "NoSchedule") != nil {
			var none int64
			p.maxReplicas = &none
		}
		prefs[c.Name] = p
	}
	if u.binpack {
		return binpackPlan(names, prefs, u.replicas, !u.disruptive), nil
	}
	weights := u.weights
	if len(weights) == 0 {
		var lacking []string
		for _, c := range selected {
			if c.Resources == nil {
				lacking = append(lacking, c.Name)
			}
		}
		if len(lacking) > 0 {
			return nil, &missingStatus{what: "dynamic weights (no placement sets a weight)", clusters: lacking}
		}
		res := resourceCPU
		if u.gpu > 0 {
			res = resourceGPU
		}
		var err error
		if weights, err = dynamicWeights(selected, res); err != nil {
			return nil, err
		}
	}
	for name, p := range prefs {
		p.weight = weights[name]
		prefs[name] = p
	}
	return plan(prefs, u.replicas, u.key, !u.disruptive), nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
