// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package oracle computes what a Kubernetes 1.36 API server's
// MutatingAdmissionPolicy admission plugin does to each resource of a
// scenario on CREATE, by running the plugin of k8s.io/apiserver v0.36.6
// (pkg/admission/plugin/policy/mutating) itself: its generic plugin, policy
// source and dispatcher, on fake clients and informers holding the
// scenario's Namespaces, param objects, policies and bindings, behind the
// admission chain's own reinvocation handler (admission.Plugins.
// NewFromPlugins). See ../../README.md for what differs from a live API
// server.
package oracle

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/admission/initializer"
	"k8s.io/apiserver/pkg/admission/plugin/policy/generic"
	"k8s.io/apiserver/pkg/admission/plugin/policy/matching"
	"k8s.io/apiserver/pkg/admission/plugin/policy/mutating"
	"k8s.io/apiserver/pkg/admission/plugin/policy/mutating/patch"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/apiserver/pkg/util/compatibility"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/applyconfigurations"
	"k8s.io/client-go/dynamic"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/openapi/openapitest"
	"k8s.io/client-go/tools/cache"
)

// Result is the oracle's account of a scenario: every resource it admits,
// in input order.
type Result struct {
	Resources []Admitted `json:"resources"`
	// Orders is the number of evaluation orders tried (see Admitted).
	Orders int `json:"orders"`
}

// Admitted is what admission does to one resource on CREATE.
type Admitted struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
	// Outcomes are the distinct outcomes over the evaluation orders a live
	// API server may use: it evaluates the policies in the order it lists
	// them from a map (generic/policy_source.go calculatePolicyData), a
	// policy's bindings in informer-list order, and a selector's params in
	// lister order, none of them sorted. The first outcome is the one of
	// the input order (policies, bindings and params as the input lists
	// them).
	Outcomes []Outcome `json:"outcomes"`
}

// Outcome is one result of admission.
type Outcome struct {
	// Object is the admitted object, normalized (Normalize), when admission
	// allows it.
	Object map[string]any `json:"object,omitempty"`
	// Error is admission's denial, when it denies it.
	Error string `json:"error,omitempty"`
	// Orders names the evaluation orders that give this outcome.
	Orders []string `json:"orders"`
}

// maxPolicyOrders bounds the policy orders tried: all permutations up to
// four bound policies, else the input order and its reverse.
const maxPolicyOrders = 24

// Run admits each resource of the scenario (every item that is neither a
// MutatingAdmissionPolicy nor a binding nor a Namespace) on CREATE, once per
// evaluation order.
func Run(items []*unstructured.Unstructured) (*Result, error) {
	var policies []*admissionv1.MutatingAdmissionPolicy
	var bindings []*admissionv1.MutatingAdmissionPolicyBinding
	var objects []runtime.Object
	var resources []*unstructured.Unstructured
	for _, it := range items {
		switch {
		case IsPolicy(it):
			p, err := ToV1Policy(it)
			if err != nil {
				return nil, err
			}
			policies = append(policies, p)
		case IsBinding(it):
			b, err := ToV1Binding(it)
			if err != nil {
				return nil, err
			}
			bindings = append(bindings, b)
		default:
			obj, err := Typed(it)
			if err != nil {
				return nil, err
			}
			objects = append(objects, obj)
			if it.GetAPIVersion() != "v1" || it.GetKind() != "Namespace" {
				resources = append(resources, it)
			}
		}
	}
	env, err := start(policies, bindings, objects)
	if err != nil {
		return nil, err
	}
	defer env.stop()

	orders := policyOrders(policies)
	res := &Result{}
	for _, r := range resources {
		a := Admitted{APIVersion: r.GetAPIVersion(), Kind: r.GetKind(), Namespace: r.GetNamespace(), Name: r.GetName()}
		for _, po := range orders {
			for _, reverse := range []bool{false, true} {
				env.source.order, env.source.reverse = po, reverse
				name := orderName(po, reverse)
				out := env.admit(r)
				a.add(out, name)
			}
		}
		res.Resources = append(res.Resources, a)
	}
	res.Orders = 2 * len(orders)
	return res, nil
}

func (a *Admitted) add(out Outcome, order string) {
	for i := range a.Outcomes {
		if same(a.Outcomes[i], out) {
			a.Outcomes[i].Orders = append(a.Outcomes[i].Orders, order)
			return
		}
	}
	out.Orders = []string{order}
	a.Outcomes = append(a.Outcomes, out)
}

func same(a, b Outcome) bool {
	if a.Error != "" || b.Error != "" {
		return a.Error == b.Error
	}
	x, _ := json.Marshal(a.Object)
	y, _ := json.Marshal(b.Object)
	return string(x) == string(y)
}

func orderName(policies []string, reverse bool) string {
	s := "policies=" + strings.Join(policies, ",")
	if reverse {
		s += " bindings,params=reversed"
	}
	return s
}

// policyOrders lists the orders of the policies' names to try, the input
// order first.
func policyOrders(policies []*admissionv1.MutatingAdmissionPolicy) [][]string {
	names := make([]string, len(policies))
	for i, p := range policies {
		names[i] = p.Name
	}
	var out [][]string
	var permute func(prefix, rest []string)
	permute = func(prefix, rest []string) {
		if len(out) == maxPolicyOrders {
			return
		}
		if len(rest) == 0 {
			out = append(out, slices.Clone(prefix))
			return
		}
		for i := range rest {
			next := append(slices.Clone(rest[:i]), rest[i+1:]...)
			permute(append(prefix, rest[i]), next)
		}
	}
	if len(names) <= 4 {
		permute(nil, names)
		return out
	}
	rev := slices.Clone(names)
	slices.Reverse(rev)
	return [][]string{names, rev}
}

// Typed converts an item to the typed object of its kind in client-go's
// scheme (the built-in types a Kubernetes 1.36 API server serves),
// refusing unknown fields as the API server's strict decoding does.
func Typed(u *unstructured.Unstructured) (runtime.Object, error) {
	gvk := u.GroupVersionKind()
	obj, err := scheme.Scheme.New(gvk)
	if err != nil {
		return nil, fmt.Errorf("%s %s/%s: %w (the oracle admits built-in types only)", u.GetAPIVersion(), u.GetNamespace(), u.GetName(), err)
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(u.Object, obj, true); err != nil {
		return nil, fmt.Errorf("%s %s %s/%s: %w", u.GetAPIVersion(), u.GetKind(), u.GetNamespace(), u.GetName(), err)
	}
	obj.GetObjectKind().SetGroupVersionKind(gvk)
	return obj, nil
}

// Normalize renders a typed object as the unstructured object the API
// server would store and serve for it: its typed fields only, without the
// zero values the typed structs add (creationTimestamp: null, status: {},
// resources: {} …), which are not in its JSON either.
func Normalize(obj runtime.Object) (map[string]any, error) {
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	prune(m)
	return m, nil
}

// prune drops the empty maps and the null values the typed structs'
// JSON carries for unset struct fields.
func prune(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if e == nil || prune(e) {
				delete(x, k)
			}
		}
		return len(x) == 0
	case []any:
		for _, e := range x {
			prune(e)
		}
	}
	return false
}

// env is one scenario's admission plugin on fake clients and informers.
type env struct {
	chain  admission.Interface
	source *orderedSource
	cancel context.CancelFunc
	mapper meta.RESTMapper
}

func (e *env) stop() { e.cancel() }

// admit runs one CREATE of r through the admission chain.
func (e *env) admit(r *unstructured.Unstructured) Outcome {
	obj, err := Typed(r)
	if err != nil {
		return Outcome{Error: err.Error()}
	}
	gvk := r.GroupVersionKind()
	mapping, err := e.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		return Outcome{Error: err.Error()}
	}
	attrs := admission.NewAttributesRecord(obj, nil, gvk, r.GetNamespace(), r.GetName(), mapping.Resource, "",
		admission.Create, &metav1.CreateOptions{}, false, &user.DefaultInfo{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	o := admission.NewObjectInterfacesFromScheme(scheme.Scheme)
	if m, ok := e.chain.(admission.MutationInterface); ok && m.Handles(admission.Create) {
		if err := m.Admit(ctx, attrs, o); err != nil {
			return Outcome{Error: err.Error()}
		}
	}
	out, err := Normalize(attrs.GetObject())
	if err != nil {
		return Outcome{Error: "normalize: " + err.Error()}
	}
	// The typed object loses its apiVersion and kind on conversion; the API
	// server serves them from the request's kind.
	out["apiVersion"], out["kind"] = r.GetAPIVersion(), r.GetKind()
	return Outcome{Object: out}
}

// clusterScoped are the built-in kinds without a namespace the scenarios
// may hold.
var clusterScoped = map[string]bool{"Namespace": true, "Node": true, "PersistentVolume": true, "ClusterRole": true, "ClusterRoleBinding": true, "StorageClass": true, "PriorityClass": true}

// start builds the plugin the way mutating.NewPlugin does
// (mutating/plugin.go:130-156 at v0.36.6), with two differences: the
// policies are compiled by Compile (compilePolicy is not exported), and
// the type converter is the static one of client-go's apply
// configurations for this release instead of the API server's own OpenAPI
// v3 from discovery (see the README). The policy source is wrapped to fix
// the evaluation order (orderedSource). The plugin is made, initialized
// and validated by admission.Plugins.NewFromPlugins, whose chain wraps it
// in the admission chain's reinvocation handler (admission/reinvocation.go).
func start(policies []*admissionv1.MutatingAdmissionPolicy, bindings []*admissionv1.MutatingAdmissionPolicyBinding, objects []runtime.Object) (*env, error) {
	all := slices.Clone(objects)
	for _, p := range policies {
		all = append(all, p)
	}
	for _, b := range bindings {
		all = append(all, b)
	}
	client := fake.NewClientset(all...)
	dyn := dynamicfake.NewSimpleDynamicClient(scheme.Scheme)
	factory := informers.NewSharedInformerFactory(client, 0)

	mapper := meta.NewDefaultRESTMapper(nil)
	for gvk := range scheme.Scheme.AllKnownTypes() {
		if strings.HasSuffix(gvk.Kind, "List") || gvk.Version == runtime.APIVersionInternal {
			continue
		}
		scope := meta.RESTScopeNamespace
		if clusterScoped[gvk.Kind] {
			scope = meta.RESTScopeRoot
		}
		mapper.Add(gvk, scope)
	}

	src := &orderedSource{}
	inner := generic.NewPlugin(
		admission.NewHandler(admission.Create, admission.Update, admission.Connect),
		func(f informers.SharedInformerFactory, _ kubernetes.Interface, d dynamic.Interface, m meta.RESTMapper) generic.Source[mutating.PolicyHook] {
			src.Source = generic.NewPolicySource(
				f.Admissionregistration().V1().MutatingAdmissionPolicies().Informer(),
				f.Admissionregistration().V1().MutatingAdmissionPolicyBindings().Informer(),
				mutating.NewMutatingAdmissionPolicyAccessor,
				mutating.NewMutatingAdmissionPolicyBindingAccessor,
				Compile,
				f, d, m)
			return src
		},
		func(a authorizer.Authorizer, m *matching.Matcher, _ kubernetes.Interface) generic.Dispatcher[mutating.PolicyHook] {
			return mutating.NewDispatcher(a, m, patch.NewTypeConverterManager(
				applyconfigurations.NewTypeConverter(scheme.Scheme), openapitest.NewEmbeddedFileClient()))
		},
	)
	plugin := &mutating.Plugin{Plugin: inner}
	plugins := admission.NewPlugins()
	plugins.Register(mutating.PluginName, func(io.Reader) (admission.Interface, error) { return plugin, nil })

	ctx, cancel := context.WithCancel(context.Background())
	init := initializer.New(client, dyn, factory, allowAll{}, utilfeature.DefaultFeatureGate,
		compatibility.DefaultBuildEffectiveVersion(), ctx.Done(), mapper)
	chain, err := plugins.NewFromPlugins([]string{mutating.PluginName}, noConfig{}, init, nil)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("admission plugin: %w", err)
	}
	factory.Start(ctx.Done())
	src.policies = policies
	src.bindings = bindings
	return &env{chain: chain, source: src, cancel: cancel, mapper: mapper}, nil
}

type noConfig struct{}

func (noConfig) ConfigFor(string) (io.Reader, error) { return nil, nil }

// allowAll is the authorizer: the scenarios' expressions do not call
// authorizer checks, and offline there is no one to ask.
type allowAll struct{}

func (allowAll) Authorize(context.Context, authorizer.Attributes) (authorizer.Decision, string, error) {
	return authorizer.DecisionAllow, "", nil
}

// orderedSource is the plugin's policy source with the evaluation order
// fixed: the hooks in the order of the policy names in order, each hook's
// bindings in input order (reversed when reverse is set), and its param
// informer's lister listing by name (descending when reverse is set). It
// waits for each hook's param informer to sync, as a live server's are.
type orderedSource struct {
	generic.Source[mutating.PolicyHook]
	policies []*admissionv1.MutatingAdmissionPolicy
	bindings []*admissionv1.MutatingAdmissionPolicyBinding
	order    []string
	reverse  bool
}

func (s *orderedSource) Hooks() []mutating.PolicyHook {
	hooks := s.Source.Hooks()
	if hooks == nil {
		return nil
	}
	out := slices.Clone(hooks)
	rank := func(name string) int {
		if i := slices.Index(s.order, name); i >= 0 {
			return i
		}
		return len(s.order)
	}
	bindingRank := func(name string) int {
		for i, b := range s.bindings {
			if b.Name == name {
				if s.reverse {
					return -i
				}
				return i
			}
		}
		return len(s.bindings)
	}
	sort.SliceStable(out, func(i, j int) bool { return rank(out[i].Policy.Name) < rank(out[j].Policy.Name) })
	for i := range out {
		bs := slices.Clone(out[i].Bindings)
		sort.SliceStable(bs, func(x, y int) bool { return bindingRank(bs[x].Name) < bindingRank(bs[y].Name) })
		out[i].Bindings = bs
		if inf := out[i].ParamInformer; inf != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			cache.WaitForCacheSync(ctx.Done(), inf.Informer().HasSynced)
			cancel()
			out[i].ParamInformer = sortedInformer{GenericInformer: inf, reverse: s.reverse}
		}
	}
	return out
}

// sortedInformer lists its lister's objects sorted by namespace and name.
type sortedInformer struct {
	informers.GenericInformer
	reverse bool
}

func (i sortedInformer) Lister() cache.GenericLister {
	return sortedLister{GenericLister: i.GenericInformer.Lister(), reverse: i.reverse}
}

type sortedLister struct {
	cache.GenericLister
	reverse bool
}

func (l sortedLister) List(sel labels.Selector) ([]runtime.Object, error) {
	objs, err := l.GenericLister.List(sel)
	return sortObjects(objs, l.reverse), err
}

func (l sortedLister) ByNamespace(ns string) cache.GenericNamespaceLister {
	return sortedNamespaceLister{GenericNamespaceLister: l.GenericLister.ByNamespace(ns), reverse: l.reverse}
}

type sortedNamespaceLister struct {
	cache.GenericNamespaceLister
	reverse bool
}

func (l sortedNamespaceLister) List(sel labels.Selector) ([]runtime.Object, error) {
	objs, err := l.GenericNamespaceLister.List(sel)
	return sortObjects(objs, l.reverse), err
}

func sortObjects(objs []runtime.Object, reverse bool) []runtime.Object {
	key := func(o runtime.Object) string {
		m, err := meta.Accessor(o)
		if err != nil {
			return ""
		}
		return m.GetNamespace() + "/" + m.GetName()
	}
	sort.SliceStable(objs, func(i, j int) bool {
		if reverse {
			return key(objs[i]) > key(objs[j])
		}
		return key(objs[i]) < key(objs[j])
	})
	return objs
}
