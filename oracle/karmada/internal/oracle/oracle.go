// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package oracle renders what each member cluster of a Karmada fleet receives
// by running Karmada v1.16.0's own controllers, scheduler and webhooks on an
// in-memory control plane (controller-runtime's fake client). See README.md
// for which upstream code runs and which small pieces of glue are ours.
package oracle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"
	admissionv1 "k8s.io/api/admission/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/record"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	controllerruntime "sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	clusterapis "github.com/karmada-io/karmada/pkg/apis/cluster"
	"github.com/karmada-io/karmada/pkg/apis/cluster/mutation"
	clusterv1alpha1 "github.com/karmada-io/karmada/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/karmada-io/karmada/pkg/apis/policy/v1alpha1"
	workv1alpha1 "github.com/karmada-io/karmada/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/karmada-io/karmada/pkg/apis/work/v1alpha2"
	"github.com/karmada-io/karmada/pkg/controllers/binding"
	"github.com/karmada-io/karmada/pkg/controllers/namespace"
	"github.com/karmada-io/karmada/pkg/dependenciesdistributor"
	"github.com/karmada-io/karmada/pkg/detector"
	"github.com/karmada-io/karmada/pkg/resourceinterpreter/default/native"
	"github.com/karmada-io/karmada/pkg/util"
	"github.com/karmada-io/karmada/pkg/util/fedinformer/keys"
	"github.com/karmada-io/karmada/pkg/util/gclient"
	"github.com/karmada-io/karmada/pkg/util/helper"
	"github.com/karmada-io/karmada/pkg/util/indexregistry"
	"github.com/karmada-io/karmada/pkg/util/names"
	"github.com/karmada-io/karmada/pkg/util/overridemanager"
	cppwebhook "github.com/karmada-io/karmada/pkg/webhook/clusterpropagationpolicy"
	ppwebhook "github.com/karmada-io/karmada/pkg/webhook/propagationpolicy"

	"github.com/apply-overrides/apply-overrides/oracle/harness/quiet"
	"github.com/apply-overrides/apply-overrides/oracle/harness/rl"
)

func init() {
	// Karmada's packages log through klog; the oracle's output is its result.
	quiet.Klog()
}

// Placed is one resource a member cluster receives (its Work manifest).
type Placed struct {
	APIVersion  string `json:"apiVersion"`
	Kind        string `json:"kind"`
	Namespace   string `json:"namespace,omitempty"`
	Name        string `json:"name"`
	Replicas    *int64 `json:"replicas,omitempty"`
	Parallelism *int64 `json:"parallelism,omitempty"`
	Completions *int64 `json:"completions,omitempty"`
}

// Key is the resource's identity.
func (p Placed) Key() string { return refKey(p.APIVersion, p.Kind, p.Namespace, p.Name) }

func refKey(apiVersion, kind, ns, name string) string {
	return apiVersion + " " + kind + " " + ns + "/" + name
}

// Decision is what the control plane decided for one resource template.
type Decision struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
	// Policy is "PropagationPolicy ns/name" or "ClusterPropagationPolicy name", or "" when none claimed it.
	Policy string `json:"policy"`
	// Reason says why nothing claimed it, or why scheduling placed it nowhere.
	Reason string `json:"reason,omitempty"`
	// Scheduled is the scheduler's result (cluster → replicas), absent when not scheduled.
	Scheduled []workv1alpha2.TargetCluster `json:"scheduled,omitempty"`
	// RequiredBy names the bindings (namespace/name) whose propagateDeps attached it.
	RequiredBy []string `json:"requiredBy,omitempty"`
	// Affinity is the clusterAffinities term that scheduled it.
	Affinity string `json:"affinity,omitempty"`
}

// Result is the oracle's answer.
type Result struct {
	// Clusters maps each cluster name to the resources it receives, sorted.
	Clusters map[string][]Placed `json:"clusters"`
	// Resources is the decision per resource template, sorted.
	Resources []Decision `json:"resources"`
	// Rejected lists the policies the admission webhooks refused.
	Rejected []string `json:"rejected,omitempty"`
	// AssumedAPIs lists the clusters whose object carries no
	// status.apiEnablements, given every API of the scenario (assumeAPIs).
	AssumedAPIs []string `json:"assumedAPIs,omitempty"`
}

// assumeAPIs applies the function's documented assumption (README
// "Placement", docs/placement.md) to the oracle's input: a Cluster without
// status.apiEnablements serves every API. Karmada's APIEnablement filter
// would reject such a cluster for every resource; the function deliberately
// does not, and says so in an info result. Giving the oracle's clusters the
// APIs of every template lets the rest of the decision be compared exactly.
func assumeAPIs(clusters []*clusterv1alpha1.Cluster, templates []*unstructured.Unstructured) []string {
	byGV := map[string][]clusterv1alpha1.APIResource{}
	var gvs []string
	seen := map[string]bool{}
	for _, t := range templates {
		gv, kind := t.GetAPIVersion(), t.GetKind()
		if seen[gv+"/"+kind] {
			continue
		}
		seen[gv+"/"+kind] = true
		if _, ok := byGV[gv]; !ok {
			gvs = append(gvs, gv)
		}
		byGV[gv] = append(byGV[gv], clusterv1alpha1.APIResource{Name: strings.ToLower(kind) + "s", Kind: kind})
	}
	sort.Strings(gvs)
	var assumed []string
	for _, c := range clusters {
		if c.Status.APIEnablements != nil {
			continue
		}
		assumed = append(assumed, c.Name)
		for _, gv := range gvs {
			c.Status.APIEnablements = append(c.Status.APIEnablements, clusterv1alpha1.APIEnablement{GroupVersion: gv, Resources: byGV[gv]})
		}
	}
	return assumed
}

// The skipped namespaces of karmada-controller-manager's default flags.
var skippedNamespaces = []*regexp.Regexp{regexp.MustCompile("^kube-.*$")}

const defaultScheduler = "default-scheduler"

// Run renders the fleet for these items (policies, Clusters, templates).
func Run(items []*unstructured.Unstructured) (*Result, error) {
	ctx := context.Background()
	scheme := gclient.NewSchema()
	res := &Result{Clusters: map[string][]Placed{}}

	var objs []client.Object
	var clusters []*clusterv1alpha1.Cluster
	var templates []*unstructured.Unstructured
	seen := map[string]bool{}
	for _, it := range items {
		gvk := it.GroupVersionKind()
		if id := tkey(it); seen[id] {
			// The API server would refuse to create it a second time.
			res.Rejected = append(res.Rejected, "duplicate "+id)
			continue
		} else {
			seen[id] = true
		}
		switch {
		case gvk.GroupVersion() == policyv1alpha1.SchemeGroupVersion && gvk.Kind == "PropagationPolicy":
			pp := &policyv1alpha1.PropagationPolicy{}
			if err := fromUnstructured(it, pp); err != nil {
				return nil, err
			}
			if pp.Namespace == "" {
				pp.Namespace = "default"
			}
			if err := admitPP(scheme, pp); err != nil {
				res.Rejected = append(res.Rejected, fmt.Sprintf("PropagationPolicy %s/%s: %v", pp.Namespace, pp.Name, err))
				continue
			}
			objs = append(objs, pp)
		case gvk.GroupVersion() == policyv1alpha1.SchemeGroupVersion && gvk.Kind == "ClusterPropagationPolicy":
			cpp := &policyv1alpha1.ClusterPropagationPolicy{}
			if err := fromUnstructured(it, cpp); err != nil {
				return nil, err
			}
			if err := admitCPP(scheme, cpp); err != nil {
				res.Rejected = append(res.Rejected, fmt.Sprintf("ClusterPropagationPolicy %s: %v", cpp.Name, err))
				continue
			}
			objs = append(objs, cpp)
		case gvk.GroupVersion() == policyv1alpha1.SchemeGroupVersion && gvk.Kind == "OverridePolicy":
			op := &policyv1alpha1.OverridePolicy{}
			if err := fromUnstructured(it, op); err != nil {
				return nil, err
			}
			if op.Namespace == "" {
				op.Namespace = "default"
			}
			objs = append(objs, op) // only for dependentOverrides presence
		case gvk.GroupVersion() == policyv1alpha1.SchemeGroupVersion && gvk.Kind == "ClusterOverridePolicy":
			cop := &policyv1alpha1.ClusterOverridePolicy{}
			if err := fromUnstructured(it, cop); err != nil {
				return nil, err
			}
			objs = append(objs, cop)
		case gvk.GroupVersion() == clusterv1alpha1.SchemeGroupVersion && gvk.Kind == "Cluster":
			c := &clusterv1alpha1.Cluster{}
			if err := fromUnstructured(it, c); err != nil {
				return nil, err
			}
			if err := canonicalizeCluster(c); err != nil {
				return nil, err
			}
			clusters = append(clusters, c)
			objs = append(objs, c)
		default:
			t := it.DeepCopy()
			defaultTemplate(t)
			templates = append(templates, t)
		}
	}
	sort.Slice(templates, func(i, j int) bool { return tkey(templates[i]) < tkey(templates[j]) })
	res.AssumedAPIs = assumeAPIs(clusters, templates)

	// Only resources the fake API server can store are templates (every kind the
	// generator produces is in Karmada's aggregated scheme).
	var stored []*unstructured.Unstructured
	decisions := map[string]*Decision{}
	var order []string
	for _, t := range templates {
		d := &Decision{APIVersion: t.GetAPIVersion(), Kind: t.GetKind(), Namespace: t.GetNamespace(), Name: t.GetName()}
		decisions[tkey(t)] = d
		order = append(order, tkey(t))
		if !scheme.Recognizes(t.GroupVersionKind()) {
			d.Reason = "kind unknown to the oracle's API server scheme"
			continue
		}
		stored = append(stored, t)
		objs = append(objs, t.DeepCopy())
	}

	// The field indexes karmada-controller-manager registers (indexregistry).
	c := fake.NewClientBuilder().WithScheme(scheme).WithObjects(objs...).
		WithIndex(&workv1alpha1.Work{}, indexregistry.WorkIndexByLabelResourceBindingID,
			indexregistry.GenLabelIndexerFunc(workv1alpha2.ResourceBindingPermanentIDLabel)).
		WithIndex(&workv1alpha1.Work{}, indexregistry.WorkIndexByLabelClusterResourceBindingID,
			indexregistry.GenLabelIndexerFunc(workv1alpha2.ClusterResourceBindingPermanentIDLabel)).
		WithInterceptorFuncs(interceptor.Funcs{Create: bindingWebhook}).Build()
	mapper := restMapper(scheme, templates)
	informers := newStaticInformers(mapper, stored)
	dyn := newDynamic(stored)
	interp := nativeInterpreter{native.NewDefaultInterpreter()}
	rec := &record.FakeRecorder{} // nil channel: events are dropped
	// Overrides are out of scope: the override manager gets an empty control plane.
	var clusterObjs []client.Object
	for _, cl := range clusters {
		clusterObjs = append(clusterObjs, cl.DeepCopy())
	}
	om := overridemanager.New(fake.NewClientBuilder().WithScheme(scheme).WithObjects(clusterObjs...).Build(), rec)

	det := &detector.ResourceDetector{
		Client:                       c,
		DynamicClient:                dyn,
		InformerManager:              informers,
		EventRecorder:                rec,
		SkippedResourceConfig:        util.NewSkippedResourceConfig(),
		SkippedPropagatingNamespaces: skippedNamespaces,
		ResourceInterpreter:          interp,
		RESTMapper:                   mapper,
	}

	// 1. Resource detector: claim each template, build its binding.
	for _, t := range stored {
		d := decisions[tkey(t)]
		d.Policy, d.Reason = detect(ctx, det, c, t)
	}

	// 2. Scheduler.
	sched, err := newScheduler(clusters)
	if err != nil {
		return nil, err
	}
	rbs := &workv1alpha2.ResourceBindingList{}
	if err := c.List(ctx, rbs); err != nil {
		return nil, err
	}
	for i := range rbs.Items {
		rb := &rbs.Items[i]
		d := decisions[refKey(rb.Spec.Resource.APIVersion, rb.Spec.Resource.Kind, rb.Spec.Resource.Namespace, rb.Spec.Resource.Name)]
		if err := scheduleBinding(ctx, c, sched, rb, &rb.Spec, &rb.Status, d); err != nil {
			return nil, err
		}
	}
	crbs := &workv1alpha2.ClusterResourceBindingList{}
	if err := c.List(ctx, crbs); err != nil {
		return nil, err
	}
	for i := range crbs.Items {
		crb := &crbs.Items[i]
		d := decisions[refKey(crb.Spec.Resource.APIVersion, crb.Spec.Resource.Kind, crb.Spec.Resource.Namespace, crb.Spec.Resource.Name)]
		if err := scheduleBinding(ctx, c, sched, crb, &crb.Spec, &crb.Status, d); err != nil {
			return nil, err
		}
	}

	// 3. Dependencies distributor: attached bindings for propagateDeps.
	dd := &dependenciesdistributor.DependenciesDistributor{
		Client: c, DynamicClient: dyn, InformerManager: informers, EventRecorder: rec,
		RESTMapper: mapper, ResourceInterpreter: interp,
	}
	if err := c.List(ctx, rbs); err != nil {
		return nil, err
	}
	for _, rb := range sortedRBs(rbs) {
		if !rb.Spec.PropagateDeps {
			continue
		}
		if _, err := dd.Reconcile(ctx, controllerruntime.Request{NamespacedName: types.NamespacedName{Namespace: rb.Namespace, Name: rb.Name}}); err != nil {
			note(decisions, rb.Spec.Resource, "dependencies distributor: "+err.Error())
		}
	}

	if err := c.List(ctx, rbs); err != nil {
		return nil, err
	}
	for _, rb := range sortedRBs(rbs) {
		for _, by := range rb.Spec.RequiredBy {
			if d := decisions[refKey(rb.Spec.Resource.APIVersion, rb.Spec.Resource.Kind, rb.Spec.Resource.Namespace, rb.Spec.Resource.Name)]; d != nil {
				d.RequiredBy = append(d.RequiredBy, by.Namespace+"/"+by.Name)
			}
		}
	}

	// 4. Binding controllers: one Work per target cluster.
	rbc := &binding.ResourceBindingController{
		Client: c, DynamicClient: dyn, InformerManager: informers, EventRecorder: rec, RESTMapper: mapper,
		OverrideManager: om, ResourceInterpreter: interp,
	}
	if err := c.List(ctx, rbs); err != nil {
		return nil, err
	}
	for _, rb := range sortedRBs(rbs) {
		if _, err := rbc.Reconcile(ctx, controllerruntime.Request{NamespacedName: types.NamespacedName{Namespace: rb.Namespace, Name: rb.Name}}); err != nil {
			note(decisions, rb.Spec.Resource, "binding controller: "+err.Error())
		}
	}
	crbc := &binding.ClusterResourceBindingController{
		Client: c, DynamicClient: dyn, InformerManager: informers, EventRecorder: rec, RESTMapper: mapper,
		OverrideManager: om, ResourceInterpreter: interp,
	}
	if err := c.List(ctx, crbs); err != nil {
		return nil, err
	}
	for i := range crbs.Items {
		crb := &crbs.Items[i]
		if _, err := crbc.Reconcile(ctx, controllerruntime.Request{NamespacedName: types.NamespacedName{Name: crb.Name}}); err != nil {
			note(decisions, crb.Spec.Resource, "cluster binding controller: "+err.Error())
		}
	}

	// 5. Namespace sync controller: namespaces go to every cluster.
	nsc := &namespace.Controller{Client: c, EventRecorder: rec, SkippedPropagatingNamespaces: skippedNamespaces, OverrideManager: om}
	for _, t := range stored {
		if t.GetAPIVersion() != "v1" || t.GetKind() != "Namespace" {
			continue
		}
		if _, err := nsc.Reconcile(ctx, controllerruntime.Request{NamespacedName: types.NamespacedName{Name: t.GetName()}}); err != nil {
			note(decisions, workv1alpha2.ObjectReference{APIVersion: "v1", Kind: "Namespace", Name: t.GetName()}, "namespace sync controller: "+err.Error())
		}
	}

	// 6. Read the Works.
	works := &workv1alpha1.WorkList{}
	if err := c.List(ctx, works); err != nil {
		return nil, err
	}
	for _, cl := range clusters {
		res.Clusters[cl.Name] = []Placed{}
	}
	for _, w := range works.Items {
		cluster, err := names.GetClusterName(w.Namespace)
		if err != nil {
			return nil, err
		}
		for _, m := range w.Spec.Workload.Manifests {
			u := &unstructured.Unstructured{}
			if err := u.UnmarshalJSON(m.Raw); err != nil {
				return nil, fmt.Errorf("work %s/%s: %w", w.Namespace, w.Name, err)
			}
			p := Placed{APIVersion: u.GetAPIVersion(), Kind: u.GetKind(), Namespace: u.GetNamespace(), Name: u.GetName()}
			p.Replicas = rl.SpecInt(u, "replicas")
			p.Parallelism = rl.SpecInt(u, "parallelism")
			p.Completions = rl.SpecInt(u, "completions")
			res.Clusters[cluster] = append(res.Clusters[cluster], p)
		}
	}
	for name := range res.Clusters {
		l := res.Clusters[name]
		sort.Slice(l, func(i, j int) bool { return l[i].Key() < l[j].Key() })
	}
	for _, k := range order {
		res.Resources = append(res.Resources, *decisions[k])
	}
	sort.Strings(res.Rejected)
	return res, nil
}

// detect follows the resource detector's order of decisions for a template
// with no claim metadata yet (detector.go Reconcile, policy.go
// propagateResource), calling its exported pieces: EventFilter,
// LookForMatchedPolicy, LookForMatchedClusterPolicy, ApplyPolicy,
// ApplyClusterPolicy, and helper.IsDependent(Cluster)OverridesPresent.
func detect(ctx context.Context, det *detector.ResourceDetector, c client.Client, t *unstructured.Unstructured) (policy, reason string) {
	if det.SkippedResourceConfig.GroupVersionKindDisabled(t.GroupVersionKind()) {
		return "", "API skipped by the resource detector"
	}
	if !det.EventFilter(t) {
		return "", "namespace skipped by the resource detector"
	}
	// The template as the API server holds it (the detector reads its cache).
	obj := &unstructured.Unstructured{}
	obj.SetGroupVersionKind(t.GroupVersionKind())
	if err := c.Get(ctx, client.ObjectKeyFromObject(t), obj); err != nil {
		return "", "template: " + err.Error()
	}
	if util.GetLabelValue(obj.GetLabels(), util.ResourceTemplateClaimedByLabel) != "" {
		return "", "claimed by " + obj.GetLabels()[util.ResourceTemplateClaimedByLabel]
	}
	if hasClaim(obj) {
		return "", "template carries claim metadata (not modelled)"
	}
	key, err := keys.ClusterWideKeyFunc(obj)
	if err != nil {
		return "", err.Error()
	}
	pp, err := det.LookForMatchedPolicy(obj, key)
	if err != nil {
		return "", err.Error()
	}
	if pp != nil {
		name := "PropagationPolicy " + pp.Namespace + "/" + pp.Name
		if ok, err := helper.IsDependentOverridesPresent(c, pp); err != nil || !ok {
			return name, "waiting for dependent overrides"
		}
		if err := det.ApplyPolicy(obj, key, false, pp); err != nil {
			return name, "apply policy: " + err.Error()
		}
		return name, ""
	}
	cpp, err := det.LookForMatchedClusterPolicy(obj, key)
	if err != nil {
		return "", err.Error()
	}
	if cpp != nil {
		name := "ClusterPropagationPolicy " + cpp.Name
		if ok, err := helper.IsDependentClusterOverridesPresent(c, cpp); err != nil || !ok {
			return name, "waiting for dependent overrides"
		}
		if err := det.ApplyClusterPolicy(obj, key, false, cpp); err != nil {
			return name, "apply cluster policy: " + err.Error()
		}
		return name, ""
	}
	return "", "no matching policy"
}

func hasClaim(o metav1.Object) bool {
	l := o.GetLabels()
	return l[policyv1alpha1.PropagationPolicyPermanentIDLabel] != "" || l[policyv1alpha1.ClusterPropagationPolicyPermanentIDLabel] != ""
}

// bindingWebhook stands in for Karmada's (Cluster)ResourceBinding mutating
// webhook, which only adds a permanent-id label on create (reimplemented:
// the label value is arbitrary; we derive it from the name for determinism).
func bindingWebhook(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
	switch b := obj.(type) {
	case *workv1alpha2.ResourceBinding:
		if util.GetLabelValue(b.Labels, workv1alpha2.ResourceBindingPermanentIDLabel) == "" {
			util.MergeLabel(b, workv1alpha2.ResourceBindingPermanentIDLabel, "rb-"+b.Namespace+"-"+b.Name)
		}
	case *workv1alpha2.ClusterResourceBinding:
		if util.GetLabelValue(b.Labels, workv1alpha2.ClusterResourceBindingPermanentIDLabel) == "" {
			util.MergeLabel(b, workv1alpha2.ClusterResourceBindingPermanentIDLabel, "crb-"+b.Name)
		}
	}
	return c.Create(ctx, obj, opts...)
}

func note(decisions map[string]*Decision, r workv1alpha2.ObjectReference, msg string) {
	if d := decisions[refKey(r.APIVersion, r.Kind, r.Namespace, r.Name)]; d != nil {
		if d.Reason != "" {
			d.Reason += "; "
		}
		d.Reason += msg
	}
}

func sortedRBs(l *workv1alpha2.ResourceBindingList) []*workv1alpha2.ResourceBinding {
	out := make([]*workv1alpha2.ResourceBinding, 0, len(l.Items))
	for i := range l.Items {
		out = append(out, &l.Items[i])
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Namespace+"/"+out[i].Name < out[j].Namespace+"/"+out[j].Name
	})
	return out
}

func tkey(u *unstructured.Unstructured) string {
	return refKey(u.GetAPIVersion(), u.GetKind(), u.GetNamespace(), u.GetName())
}

func fromUnstructured(u *unstructured.Unstructured, into runtime.Object) error {
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, into); err != nil {
		return fmt.Errorf("%s %s: %w", u.GetKind(), u.GetName(), err)
	}
	return nil
}

// canonicalizeCluster runs the karmada-aggregated-apiserver's cluster
// mutation (zone → zones, taint time stamps) on the internal type, as its
// registry strategy does on create.
func canonicalizeCluster(c *clusterv1alpha1.Cluster) error {
	internal := &clusterapis.Cluster{}
	if err := clusterv1alpha1.Convert_v1alpha1_Cluster_To_cluster_Cluster(c, internal, nil); err != nil {
		return err
	}
	mutation.MutateCluster(internal)
	out := &clusterv1alpha1.Cluster{}
	if err := clusterv1alpha1.Convert_cluster_Cluster_To_v1alpha1_Cluster(internal, out, nil); err != nil {
		return err
	}
	out.TypeMeta = c.TypeMeta
	*c = *out
	return nil
}

// defaultTemplate applies the Kubernetes API server defaults the placement
// depends on (reimplemented: k8s.io/kubernetes' defaulters are not a library):
// Deployment/ReplicaSet/StatefulSet replicas 1; Job parallelism and
// completions 1 when both are absent, parallelism 1 when only it is absent.
func defaultTemplate(u *unstructured.Unstructured) {
	gv := u.GetAPIVersion()
	switch {
	case gv == "apps/v1" && (u.GetKind() == "Deployment" || u.GetKind() == "ReplicaSet" || u.GetKind() == "StatefulSet"):
		if _, ok, _ := unstructured.NestedFieldNoCopy(u.Object, "spec", "replicas"); !ok {
			_ = unstructured.SetNestedField(u.Object, int64(1), "spec", "replicas")
		}
	case gv == "batch/v1" && u.GetKind() == "Job":
		_, hasP, _ := unstructured.NestedFieldNoCopy(u.Object, "spec", "parallelism")
		_, hasC, _ := unstructured.NestedFieldNoCopy(u.Object, "spec", "completions")
		if !hasP && !hasC {
			_ = unstructured.SetNestedField(u.Object, int64(1), "spec", "completions")
		}
		if !hasP {
			_ = unstructured.SetNestedField(u.Object, int64(1), "spec", "parallelism")
		}
	}
}

// crdDefaults applies the kubebuilder defaults of the PropagationSpec (the
// API server's structural defaulting, reimplemented: the CRD schema is YAML
// in Karmada's repository, not code).
func crdDefaults(spec *policyv1alpha1.PropagationSpec) {
	if spec.Priority == nil {
		var zero int32
		spec.Priority = &zero
	}
	if spec.Preemption == "" {
		spec.Preemption = policyv1alpha1.PreemptNever
	}
	if spec.SchedulerName == "" {
		spec.SchedulerName = defaultScheduler
	}
	if spec.ConflictResolution == "" {
		spec.ConflictResolution = policyv1alpha1.ConflictAbort
	}
	if rs := spec.Placement.ReplicaScheduling; rs != nil && rs.ReplicaSchedulingType == "" {
		rs.ReplicaSchedulingType = policyv1alpha1.ReplicaSchedulingTypeDivided
	}
}

// admitPP runs Karmada's PropagationPolicy mutating then validating webhook
// handlers on a create request.
func admitPP(scheme *runtime.Scheme, pp *policyv1alpha1.PropagationPolicy) error {
	crdDefaults(&pp.Spec)
	dec := admission.NewDecoder(scheme)
	out := &policyv1alpha1.PropagationPolicy{}
	if err := admit(pp, pp.Namespace, ppwebhook.NewMutatingHandler(dec), &ppwebhook.ValidatingAdmission{Decoder: dec}, out); err != nil {
		return err
	}
	*pp = *out
	return nil
}

// admitCPP is admitPP for a ClusterPropagationPolicy.
func admitCPP(scheme *runtime.Scheme, cpp *policyv1alpha1.ClusterPropagationPolicy) error {
	crdDefaults(&cpp.Spec)
	dec := admission.NewDecoder(scheme)
	out := &policyv1alpha1.ClusterPropagationPolicy{}
	if err := admit(cpp, "", cppwebhook.NewMutatingHandler(dec), &cppwebhook.ValidatingAdmission{Decoder: dec}, out); err != nil {
		return err
	}
	*cpp = *out
	return nil
}

func admit(obj client.Object, ns string, mutate, validate admission.Handler, out client.Object) error {
	raw, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	gvk := obj.GetObjectKind().GroupVersionKind()
	req := admission.Request{AdmissionRequest: admissionv1.AdmissionRequest{
		Operation: admissionv1.Create,
		Namespace: ns,
		Name:      obj.GetName(),
		Kind:      metav1.GroupVersionKind{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind},
		Object:    runtime.RawExtension{Raw: raw},
	}}
	resp := mutate.Handle(context.Background(), req)
	if !resp.Allowed {
		return fmt.Errorf("mutating webhook: %s", resp.Result.Message)
	}
	if len(resp.Patches) > 0 {
		pb, err := json.Marshal(resp.Patches)
		if err != nil {
			return err
		}
		patch, err := jsonpatch.DecodePatch(pb)
		if err != nil {
			return err
		}
		if raw, err = patch.Apply(raw); err != nil {
			return err
		}
	}
	req.Object = runtime.RawExtension{Raw: raw}
	resp = validate.Handle(context.Background(), req)
	if !resp.Allowed {
		return errors.New("validating webhook: " + resp.Result.Message)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return err
	}
	out.GetObjectKind().SetGroupVersionKind(gvk)
	out.SetResourceVersion("")
	return nil
}

// restMapper knows every kind of the scheme and of the templates.
func restMapper(scheme *runtime.Scheme, templates []*unstructured.Unstructured) meta.RESTMapper {
	m := meta.NewDefaultRESTMapper(nil)
	add := func(gvk schema.GroupVersionKind) {
		if strings.HasSuffix(gvk.Kind, "List") || gvk.Kind == "WatchEvent" {
			return
		}
		scope := meta.RESTScopeNamespace
		if clusterScoped[gvk.Kind] {
			scope = meta.RESTScopeRoot
		}
		m.Add(gvk, scope)
	}
	for gvk := range scheme.AllKnownTypes() {
		add(gvk)
	}
	for _, t := range templates {
		add(t.GroupVersionKind())
	}
	return m
}

var clusterScoped = map[string]bool{
	"Namespace": true, "Node": true, "PersistentVolume": true, "ClusterRole": true, "ClusterRoleBinding": true,
	"StorageClass": true, "CustomResourceDefinition": true, "PriorityClass": true, "Cluster": true,
	"ClusterPropagationPolicy": true, "ClusterOverridePolicy": true, "ClusterResourceBinding": true,
}
