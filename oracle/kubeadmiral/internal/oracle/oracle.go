// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package oracle renders what each member cluster of a KubeAdmiral fleet
// receives, by running KubeAdmiral's own scheduler framework, plugins and
// planners (commit 19de01c) on the fleet and policies of a ResourceList. See
// README.md for which upstream code runs and which small pieces are ported.
package oracle

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	"sigs.k8s.io/yaml"

	"github.com/kubewharf/kubeadmiral/config/sample/host"
	fedcorev1a1 "github.com/kubewharf/kubeadmiral/pkg/apis/core/v1alpha1"
	"github.com/kubewharf/kubeadmiral/pkg/controllers/common"
	federatectl "github.com/kubewharf/kubeadmiral/pkg/controllers/federate"
	"github.com/kubewharf/kubeadmiral/pkg/controllers/nsautoprop"
	"github.com/kubewharf/kubeadmiral/pkg/controllers/scheduler"
	"github.com/kubewharf/kubeadmiral/pkg/controllers/scheduler/core"
	"github.com/kubewharf/kubeadmiral/pkg/controllers/scheduler/framework"
	"github.com/kubewharf/kubeadmiral/pkg/controllers/scheduler/framework/plugins/apiresources"
	"github.com/kubewharf/kubeadmiral/pkg/controllers/scheduler/framework/plugins/clusteraffinity"
	"github.com/kubewharf/kubeadmiral/pkg/controllers/scheduler/framework/plugins/clusterevicted"
	"github.com/kubewharf/kubeadmiral/pkg/controllers/scheduler/framework/plugins/clusterready"
	"github.com/kubewharf/kubeadmiral/pkg/controllers/scheduler/framework/plugins/clusterresources"
	"github.com/kubewharf/kubeadmiral/pkg/controllers/scheduler/framework/plugins/clusterterminating"
	"github.com/kubewharf/kubeadmiral/pkg/controllers/scheduler/framework/plugins/katalyst"
	"github.com/kubewharf/kubeadmiral/pkg/controllers/scheduler/framework/plugins/maxcluster"
	"github.com/kubewharf/kubeadmiral/pkg/controllers/scheduler/framework/plugins/names"
	"github.com/kubewharf/kubeadmiral/pkg/controllers/scheduler/framework/plugins/placement"
	"github.com/kubewharf/kubeadmiral/pkg/controllers/scheduler/framework/plugins/preferencebinpack"
	"github.com/kubewharf/kubeadmiral/pkg/controllers/scheduler/framework/plugins/prioritysort"
	"github.com/kubewharf/kubeadmiral/pkg/controllers/scheduler/framework/plugins/rsp"
	"github.com/kubewharf/kubeadmiral/pkg/controllers/scheduler/framework/plugins/tainttoleration"
	"github.com/kubewharf/kubeadmiral/pkg/controllers/scheduler/framework/runtime"
	"github.com/kubewharf/kubeadmiral/pkg/stats"
	clusterutil "github.com/kubewharf/kubeadmiral/pkg/util/cluster"

	"github.com/apply-overrides/apply-overrides/oracle/harness/quiet"
)

func init() {
	// KubeAdmiral's packages log through klog; the oracle's output is its result.
	quiet.Klog()
}

const (
	coreGroup     = "core.kubeadmiral.io"
	coreGroupV1a1 = coreGroup + "/v1alpha1"
)

var noAutoPropagationAnnotation = nsautoprop.NoAutoPropagationAnnotation

// inTreeRegistry is the scheduler's in-tree plugin registry, entry for entry
// the unexported inTreeRegistry of pkg/controllers/scheduler/profile.go: the
// constructors are upstream's own.
var inTreeRegistry = runtime.Registry{
	names.APIResources:                       apiresources.NewAPIResources,
	names.ClusterReady:                       clusterready.NewClusterReady,
	names.ClusterTerminating:                 clusterterminating.NewClusterTerminating,
	names.ClusterAffinity:                    clusteraffinity.NewClusterAffinity,
	names.ClusterResourcesFit:                clusterresources.NewClusterResourcesFit,
	names.PlacementFilter:                    placement.NewPlacementFilter,
	names.KatalystResourcesExist:             katalyst.NewKatalystResourcesExist,
	names.TaintToleration:                    tainttoleration.NewTaintToleration,
	names.ClusterResourcesBalancedAllocation: clusterresources.NewClusterResourcesBalancedAllocation,
	names.ClusterResourcesLeastAllocated:     clusterresources.NewClusterResourcesLeastAllocated,
	names.ClusterResourcesMostAllocated:      clusterresources.NewClusterResourcesMostAllocated,
	names.MaxCluster:                         maxcluster.NewMaxCluster,
	names.ClusterCapacityWeight:              rsp.NewClusterCapacityWeight,
	names.ClusterEvicted:                     clusterevicted.NewClusterEvicted,
	names.PreferenceBinPack:                  preferencebinpack.NewPreferenceBinPack,
	names.PrioritySort:                       prioritysort.NewPrioritySort,
}

// Placed is one resource a member cluster receives.
type Placed struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
	// Replicas is spec.replicas of the object the member receives: the
	// scheduler's override in Divide mode, else the template's.
	Replicas *int64 `json:"replicas,omitempty"`
}

// Key is the resource's identity.
func (p Placed) Key() string { return refKey(p.APIVersion, p.Kind, p.Namespace, p.Name) }

func refKey(apiVersion, kind, ns, name string) string {
	return apiVersion + " " + kind + " " + ns + "/" + name
}

// Target is one cluster of a scheduling result.
type Target struct {
	Name     string `json:"name"`
	Replicas *int64 `json:"replicas,omitempty"`
}

// Decision is what the control plane decided for one resource template.
type Decision struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
	// Policy is "PropagationPolicy ns/name" or "ClusterPropagationPolicy
	// name" as the labels name it (found or not), or "" when none does.
	Policy string `json:"policy"`
	// Reason says why the scheduler placed it nowhere, or how it was placed
	// otherwise (namespace auto-propagation).
	Reason string `json:"reason,omitempty"`
	// Scheduled is the scheduler's result, absent when it placed nothing.
	Scheduled []Target `json:"scheduled,omitempty"`
	// Alternatives are other results the same input gave on other runs:
	// the dynamic weights of ClusterCapacityWeight (rsp.go
	// AvailableToPercentage) give the rounding remainder to the first
	// heaviest cluster in Go map order, so ties make upstream
	// nondeterministic. Any of Scheduled and these is upstream's answer.
	Alternatives [][]Target `json:"alternatives,omitempty"`
	// Leaders names the leaders (Kind ns/name) whose placement it follows.
	Leaders []string `json:"leaders,omitempty"`
	// Clusters are the clusters it is dispatched to (placement union ∩ joined).
	Clusters []string `json:"clusters,omitempty"`
}

// Result is the oracle's answer.
type Result struct {
	// Clusters maps each FederatedCluster name to the resources it receives, sorted.
	Clusters map[string][]Placed `json:"clusters"`
	// Resources is the decision per resource template, in input order.
	Resources []Decision `json:"resources"`
	// Assumed lists the function's documented assumptions applied to the
	// input: "<cluster>: apiResourceTypes" (given every API of the scenario)
	// and "<cluster>: Ready=True,Joined=True" (no Ready condition).
	Assumed []string `json:"assumed,omitempty"`
}

var (
	ftcOnce sync.Once
	ftcs    map[schema.GroupVersionKind]*fedcorev1a1.FederatedTypeConfig
	ftcErr  error
)

// defaultFTCs reads KubeAdmiral's default FederatedTypeConfigs
// (config/sample/host/01-ftc.yaml), keyed by source GVK as the informer
// manager keys them.
func defaultFTCs() (map[schema.GroupVersionKind]*fedcorev1a1.FederatedTypeConfig, error) {
	ftcOnce.Do(func() {
		ftcs = map[schema.GroupVersionKind]*fedcorev1a1.FederatedTypeConfig{}
		for _, doc := range bytes.Split(host.DefaultFTCs, []byte("\n---")) {
			if len(bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSpace(doc), []byte("---")))) == 0 {
				continue
			}
			ftc := &fedcorev1a1.FederatedTypeConfig{}
			if err := yaml.Unmarshal(doc, ftc); err != nil {
				ftcErr = fmt.Errorf("default FTCs: %w", err)
				return
			}
			if ftc.Kind != "FederatedTypeConfig" {
				continue
			}
			ftcs[ftc.GetSourceTypeGVK()] = ftc
		}
	})
	return ftcs, ftcErr
}

func hasController(ftc *fedcorev1a1.FederatedTypeConfig, name string) bool {
	for _, group := range ftc.Spec.Controllers {
		for _, c := range group {
			if c == name {
				return true
			}
		}
	}
	return false
}

// template is one input object the federate controller federates.
type template struct {
	src      *unstructured.Unstructured
	gvk      schema.GroupVersionKind
	ftc      *fedcorev1a1.FederatedTypeConfig
	fo       fedcorev1a1.GenericFederatedObject
	dec      *Decision
	schedule map[string]*int64 // scheduler placement and replicas overrides
	follow   sets.Set[string]  // follower placement
	leaders  sets.Set[string]
}

// Run computes the oracle's answer for the items of a ResourceList.
func Run(items []*unstructured.Unstructured) (*Result, error) {
	ftcByGVK, err := defaultFTCs()
	if err != nil {
		return nil, err
	}
	res := &Result{Clusters: map[string][]Placed{}, Resources: []Decision{}}
	var clusters []*fedcorev1a1.FederatedCluster
	pps := map[string]fedcorev1a1.GenericPropagationPolicy{}
	cpps := map[string]fedcorev1a1.GenericPropagationPolicy{}
	profiles := map[string]bool{}
	var templates []*template

	for i, it := range items {
		apiVersion, kind := it.GetAPIVersion(), it.GetKind()
		if strings.HasPrefix(apiVersion, "config.kubernetes.io/") {
			continue
		}
		if strings.HasPrefix(apiVersion, coreGroup+"/") {
			switch {
			case apiVersion == coreGroupV1a1 && kind == "FederatedCluster":
				c := &fedcorev1a1.FederatedCluster{}
				if err := fromUnstructured(it, c); err != nil {
					return nil, fmt.Errorf("items[%d] FederatedCluster %s: %w", i, it.GetName(), err)
				}
				clusters = append(clusters, c)
			case apiVersion == coreGroupV1a1 && kind == "PropagationPolicy":
				p := &fedcorev1a1.PropagationPolicy{}
				if err := fromUnstructured(crdDefaults(it), p); err != nil {
					return nil, fmt.Errorf("items[%d] PropagationPolicy %s: %w", i, it.GetName(), err)
				}
				pps[it.GetNamespace()+"/"+it.GetName()] = p
			case apiVersion == coreGroupV1a1 && kind == "ClusterPropagationPolicy":
				p := &fedcorev1a1.ClusterPropagationPolicy{}
				if err := fromUnstructured(crdDefaults(it), p); err != nil {
					return nil, fmt.Errorf("items[%d] ClusterPropagationPolicy %s: %w", i, it.GetName(), err)
				}
				cpps[it.GetName()] = p
			case apiVersion == coreGroupV1a1 && kind == "SchedulingProfile":
				profiles[it.GetName()] = true
			}
			// Other control-plane kinds (OverridePolicies, FTCs, ...) are
			// not modelled; the generated scenarios have none.
			continue
		}
		t := &template{src: it.DeepCopy(), gvk: it.GroupVersionKind(), follow: sets.New[string](), leaders: sets.New[string]()}
		t.dec = &Decision{APIVersion: apiVersion, Kind: kind, Namespace: it.GetNamespace(), Name: it.GetName()}
		templates = append(templates, t)
	}

	sort.Slice(clusters, func(i, j int) bool { return clusters[i].Name < clusters[j].Name })
	res.Assumed = assume(clusters, templates)
	var joined []*fedcorev1a1.FederatedCluster
	joinedSet := sets.New[string]()
	for _, c := range clusters {
		res.Clusters[c.Name] = []Placed{}
		if clusterutil.IsClusterJoined(&c.Status) {
			joined = append(joined, c)
			joinedSet.Insert(c.Name)
		}
	}

	// Federate, then schedule (global-scheduler) or auto-propagate (nsautoprop).
	byRef := map[string]*template{} // group/kind/ns/name of federated templates
	for _, t := range templates {
		t.ftc = ftcByGVK[t.gvk]
		switch {
		case t.ftc == nil:
			t.dec.Reason = "not federated: no FederatedTypeConfig for " + t.gvk.String()
			continue
		case t.src.GetNamespace() == common.DefaultFedSystemNamespace:
			t.dec.Reason = "not federated: in the fed system namespace"
			continue
		case t.src.GetAnnotations()[federatectl.NoFederatedResource] != "":
			t.dec.Reason = "not federated: " + federatectl.NoFederatedResource
			continue
		}
		if _, ok := t.src.GetAnnotations()[common.MigrationConfigurationAnnotation]; ok {
			return nil, fmt.Errorf("%s %s/%s: %s is time-dependent and not modelled", t.gvk.Kind, t.src.GetNamespace(), t.src.GetName(), common.MigrationConfigurationAnnotation)
		}
		defaultTemplate(t.src)
		t.fo, err = federate(t.src)
		if err != nil {
			return nil, err
		}
		byRef[groupKindRef(t.gvk.GroupKind(), t.src.GetNamespace(), t.src.GetName())] = t

		switch {
		case hasController(t.ftc, scheduler.PrefixedGlobalSchedulerName):
			if err := scheduleOne(t, pps, cpps, profiles, joined); err != nil {
				return nil, err
			}
		case hasController(t.ftc, nsautoprop.PrefixedNamespaceAutoPropagationControllerName):
			if autoPropagated(t.src.GetName(), t.fo.GetAnnotations()) {
				t.dec.Reason = "namespace auto-propagation: every cluster"
				for _, c := range clusters {
					t.follow.Insert(c.Name)
				}
			} else {
				t.dec.Reason = "namespace auto-propagation: excluded"
			}
		default:
			t.dec.Reason = "no placing controller in the FTC"
		}
	}

	// Followers: the union of their leaders' placements.
	for _, t := range templates {
		if t.fo == nil || t.schedule == nil {
			continue
		}
		if _, isLeader := leaderPodSpecPath(t.gvk.GroupKind()); !isLeader {
			continue
		}
		refs, err := inferFollowers(t.gvk.GroupKind(), t.fo)
		if err != nil {
			continue
		}
		for ref := range refs {
			f := byRef[groupKindRef(ref.GroupKind, ref.Namespace, ref.Name)]
			if f == nil || !isFollowerKind(f.ftc, ref.GroupKind) {
				continue
			}
			if f.fo.GetAnnotations()[common.DisableFollowingAnnotation] == common.AnnotationValueTrue {
				continue
			}
			f.leaders.Insert(t.gvk.Kind + " " + t.src.GetNamespace() + "/" + t.src.GetName())
			for c := range t.schedule {
				f.follow.Insert(c)
			}
		}
	}

	// Sync: placement union ∩ joined clusters, with the scheduler's replicas.
	for _, t := range templates {
		if t.fo == nil {
			res.Resources = append(res.Resources, *t.dec)
			continue
		}
		union := t.follow.Clone()
		for c := range t.schedule {
			union.Insert(c)
		}
		t.dec.Leaders = sets.List(t.leaders)
		if t.gvk == nsGVK && systemNamespace(t.src.GetName()) {
			union = sets.New[string]()
			t.dec.Reason = "system namespace: sync never dispatches it"
		}
		for _, c := range sets.List(union.Intersection(joinedSet)) {
			t.dec.Clusters = append(t.dec.Clusters, c)
			p := Placed{APIVersion: t.src.GetAPIVersion(), Kind: t.src.GetKind(), Namespace: t.src.GetNamespace(), Name: t.src.GetName()}
			if r := t.schedule[c]; r != nil {
				v := *r
				p.Replicas = &v
			} else if v, ok, _ := unstructured.NestedInt64(t.src.Object, "spec", "replicas"); ok {
				p.Replicas = &v
			}
			res.Clusters[c] = append(res.Clusters[c], p)
		}
		res.Resources = append(res.Resources, *t.dec)
	}
	for c := range res.Clusters {
		sort.Slice(res.Clusters[c], func(i, j int) bool { return res.Clusters[c][i].Key() < res.Clusters[c][j].Key() })
	}
	return res, nil
}

var nsGVK = schema.GroupVersionKind{Version: "v1", Kind: "Namespace"}

func groupKindRef(gk schema.GroupKind, ns, name string) string {
	return gk.Group + "/" + gk.Kind + " " + ns + "/" + name
}

// isFollowerKind: the follower controller reconciles a follower only for
// its supported kinds and HPA-like FTCs (reconcile, isHPAType).
func isFollowerKind(ftc *fedcorev1a1.FederatedTypeConfig, gk schema.GroupKind) bool {
	if followerKinds.Has(gk) {
		return true
	}
	_, hpa := ftc.GetAnnotations()[common.HPAScaleTargetRefPath]
	return hpa
}

// scheduleOne follows the scheduler's reconcile for a fresh FO
// (scheduler.go prepareToSchedule, schedule, persistSchedulingResult): policy
// lookup by label (scheduler.GetMatchedPolicyKey, called), then
// core.NewSchedulerAlgorithm().Schedule on a framework built from the
// in-tree registry and GetDefaultEnabledPlugins, with PreferenceBinPack as
// the replicas plugin for Binpack.
func scheduleOne(t *template, pps, cpps map[string]fedcorev1a1.GenericPropagationPolicy, profiles map[string]bool, joined []*fedcorev1a1.FederatedCluster) error {
	if t.fo.GetAnnotations()[common.NoSchedulingAnnotation] != "" {
		t.dec.Reason = "no-scheduling annotation: scheduling skipped"
		return nil
	}
	key, ok := scheduler.GetMatchedPolicyKey(t.fo)
	if !ok {
		t.dec.Reason = "no policy label: scheduled to no clusters"
		t.schedule = map[string]*int64{}
		setAnnotation(t.fo, common.EnableFollowerSchedulingAnnotation, "false")
		return nil
	}
	var policy fedcorev1a1.GenericPropagationPolicy
	if key.Namespace != "" {
		t.dec.Policy = "PropagationPolicy " + key.Namespace + "/" + key.Name
		policy = pps[key.Namespace+"/"+key.Name]
	} else {
		t.dec.Policy = "ClusterPropagationPolicy " + key.Name
		policy = cpps[key.Name]
	}
	if policy == nil {
		t.dec.Reason = "policy not found: nothing scheduled"
		return nil
	}
	if name := policy.GetSpec().SchedulingProfile; name != "" {
		if !profiles[name] {
			t.dec.Reason = "SchedulingProfile " + name + " not found: nothing scheduled"
			return nil
		}
		return fmt.Errorf("%s %s/%s: SchedulingProfile %s is not modelled", t.gvk.Kind, t.src.GetNamespace(), t.src.GetName(), name)
	}
	su, err := schedulingUnit(t.ftc, t.fo, policy)
	if err != nil {
		t.dec.Reason = "scheduling unit: " + err.Error()
		return nil
	}
	enabled := fedcorev1a1.GetDefaultEnabledPlugins()
	if su.ReplicasStrategy == fedcorev1a1.ReplicasStrategyBinpack {
		enabled.ReplicasPlugins = []string{names.PreferenceBinPack}
	}
	var result core.ScheduleResult
	seen := map[string]bool{}
	for run := 0; run < runs(su); run++ {
		fwk, err := runtime.NewFramework(inTreeRegistry, nil, enabled, "", stats.NewMock("", "", false))
		if err != nil {
			return fmt.Errorf("framework: %w", err)
		}
		r, err := core.NewSchedulerAlgorithm().Schedule(context.Background(), fwk, *su, joined)
		var fitErr *framework.FitError
		switch {
		case errors.As(err, &fitErr):
			t.dec.Reason = "no feasible cluster: " + err.Error()
			r.SuggestedClusters = map[string]*int64{}
		case err != nil:
			t.dec.Reason = "scheduling error: " + err.Error()
			return nil
		}
		targets := targetsOf(r.SuggestedClusters)
		k := fmt.Sprint(TargetsString(targets))
		if seen[k] {
			continue
		}
		seen[k] = true
		if run == 0 {
			result = r
		} else {
			t.dec.Alternatives = append(t.dec.Alternatives, targets)
		}
	}
	t.schedule = result.SuggestedClusters
	if t.schedule == nil {
		t.schedule = map[string]*int64{}
	}
	enable := "false"
	if !policy.GetSpec().DisableFollowerScheduling {
		enable = "true"
	}
	setAnnotation(t.fo, common.EnableFollowerSchedulingAnnotation, enable)
	t.dec.Scheduled = targetsOf(t.schedule)
	if len(t.schedule) == 0 && t.dec.Reason == "" {
		t.dec.Reason = "scheduled to no clusters"
	}
	return nil
}

func setAnnotation(o metav1.Object, k, v string) {
	a := o.GetAnnotations()
	if a == nil {
		a = map[string]string{}
	}
	a[k] = v
	o.SetAnnotations(a)
}

func fromUnstructured(u *unstructured.Unstructured, out any) error {
	data, err := json.Marshal(u.Object)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, out)
}

// runs is how many times the scheduler runs on one unit: several times in
// Divide+Spread, where map order can change the dynamic weights (see
// Decision.Alternatives), once otherwise.
func runs(su *framework.SchedulingUnit) int {
	if su.SchedulingMode == fedcorev1a1.SchedulingModeDivide && su.ReplicasStrategy != fedcorev1a1.ReplicasStrategyBinpack && len(su.Weights) == 0 {
		return 12
	}
	return 1
}

func targetsOf(m map[string]*int64) []Target {
	out := []Target{}
	for _, c := range sets.List(sets.KeySet(m)) {
		out = append(out, Target{Name: c, Replicas: m[c]})
	}
	return out
}

func TargetsString(ts []Target) string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(t.Name)
		if t.Replicas != nil {
			fmt.Fprintf(&b, "=%d", *t.Replicas)
		}
		b.WriteString(" ")
	}
	return b.String()
}
