// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package admissionpolicy

import (
	"context"
	"errors"
	"fmt"
	"sort"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/policy/mutating/patch"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/object"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/rules"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/authentication/user"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/k8sschema"
	"github.com/apply-overrides/apply-overrides/policy"
)

// Set applies the cluster's MutatingAdmissionPolicies to a resource, as
// the API server's MutatingAdmissionPolicy plugin admits a CREATE of it.
type Set struct {
	policies   []*compiled
	namespaces map[string]*yaml.RNode
	// params are the input's resources, where a policy's paramKind finds
	// its param objects; nil when no policy has a paramKind.
	params []*yaml.RNode
}

// Rules matches each policy and each of its bindings against the resource
// as the earlier dialects left it (upstream matches every hook before it
// invokes any: generic/policy_dispatcher.go Dispatch) and returns one rule
// per invocation (policy, binding, param), whose steps are the policy's
// mutations. A binding that cannot be matched or whose params cannot be
// collected fails the resource under failurePolicy Fail and is skipped
// under Ignore, as upstream.
func (s *Set) Rules(res *policy.Resource) ([]*policy.Rule, error) {
	req, err := newRequest(res.Node, s.namespaces)
	if err != nil {
		return nil, err
	}
	var out []*policy.Rule
	var first []*invocation
	pass := &firstPass{}
	for _, p := range s.policies {
		ok, err := req.matches(p.spec.Spec.MatchConstraints, true)
		if err != nil {
			if ignored(p) {
				continue
			}
			return nil, fmt.Errorf("%s %s: spec.matchConstraints: %w%s", KindPolicy, p.ref.Name, err, denied)
		}
		if !ok {
			continue
		}
		for _, b := range p.bindings {
			ok, err := req.matches(b.spec.Spec.MatchResources, false)
			if err == nil && ok {
				var params []runtime.Object
				params, err = s.collectParams(p, b, req.namespace)
				for _, param := range params {
					inv := req.invocation(p, b, param, pass)
					first = append(first, inv)
					out = append(out, inv.rule())
				}
			}
			if err != nil && !ignored(p) {
				return nil, fmt.Errorf("%s %s: binding %s: %w%s", KindPolicy, p.ref.Name, b.ref.Name, err, denied)
			}
		}
	}
	// Reinvocation (mutating/dispatcher.go, admission/reinvocation.go):
	// once any mutation of the first pass ran, the API server admits the
	// object a second time, and then reinvokes the policies with
	// reinvocationPolicy IfNeeded that the first pass invoked, in the same
	// order, each matched again on the object as it then is.
	for _, inv := range first {
		if inv.p.spec.Spec.ReinvocationPolicy == admissionv1.IfNeededReinvocationPolicy {
			again := req.invocation(inv.p, inv.b, inv.param, pass)
			again.reinvokes = inv
			again.field += " (reinvoked)"
			out = append(out, again.rule())
		}
	}
	return out, nil
}

// firstPass is what the first pass over a resource's invocations did.
type firstPass struct {
	// dispatched is set when a mutation ran without error (the API server
	// then marks the request for reinvocation, changed or not).
	dispatched bool
}

// denied ends the message of an error that fails a resource.
const denied = " (under failurePolicy Fail the API server denies the request: fix the policy or the input, or set spec.failurePolicy: Ignore to admit the resource without this policy)"

// ignored reports whether the policy's failurePolicy is Ignore.
func ignored(p *compiled) bool {
	return *p.spec.Spec.FailurePolicy == admissionv1.Ignore
}

// request is the admission request a render makes of a resource: a
// CREATE by nobody (empty userInfo), not a dry run, of the resource as it
// stands, in the resource's namespace ("default" for a namespaced kind
// that names none, as kubectl would send it).
type request struct {
	node      *yaml.RNode
	obj       *unstructured.Unstructured
	gvk       schema.GroupVersionKind
	gvr       schema.GroupVersionResource
	namespace string
	attrs     admission.Attributes
	nsObject  *corev1.Namespace
	nsLabels  map[string]string // nil when the input has no such Namespace
	// namespaces are the input's Namespaces, for a request made again.
	namespaces map[string]*yaml.RNode
}

// newRequest reads the resource's JSON into the request.
func newRequest(n *yaml.RNode, namespaces map[string]*yaml.RNode) (*request, error) {
	obj, _, err := toUnstructured(n)
	if err != nil {
		return nil, err
	}
	gvk := obj.GroupVersionKind()
	gvr, _ := meta.UnsafeGuessKindToResource(gvk)
	r := &request{node: n, obj: obj, gvk: gvk, gvr: gvr, namespaces: namespaces}
	if namespaced(gvk) {
		r.namespace = obj.GetNamespace()
		if r.namespace == "" {
			r.namespace = metav1.NamespaceDefault
		}
		r.nsObject = &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: r.namespace}}
		if ns := namespaces[r.namespace]; ns != nil {
			r.nsLabels = ns.GetLabels()
			if r.nsLabels == nil {
				r.nsLabels = map[string]string{}
			}
			nsObj, _, err := toUnstructured(ns)
			if err != nil {
				return nil, err
			}
			if err := runtime.DefaultUnstructuredConverter.FromUnstructured(nsObj.Object, r.nsObject); err != nil {
				return nil, fmt.Errorf("Namespace %s: %w", r.namespace, err)
			}
		}
	}
	r.attrs = admission.NewAttributesRecord(obj, nil, gvk, r.namespace, obj.GetName(), gvr, "", admission.Create, &metav1.CreateOptions{}, false, &user.DefaultInfo{})
	return r, nil
}

// matches decides whether m selects the request, as the API server's
// policy matcher does (policy/matching/matching.go Matches): the
// namespaceSelector (a cluster-scoped resource other than a Namespace
// always passes it), the objectSelector, excludeResourceRules, then
// resourceRules (none: every resource, as a binding without them).
// matchPolicy Equivalent finds no other version here: a render admits
// each resource in the version the input names, and equivalent versions
// of it are not served to match against. A selector error counts only
// when the rules match, as upstream.
func (r *request) matches(m *admissionv1.MatchResources, policyConstraints bool) (bool, error) {
	if m == nil {
		return true, nil
	}
	nsOK, nsErr := r.matchNamespace(m.NamespaceSelector)
	if !nsOK && nsErr == nil {
		return false, nil
	}
	objOK, objErr := (&object.Matcher{}).MatchObjectSelector(selectorOf{m.ObjectSelector}, r.attrs)
	if !objOK && objErr == nil {
		return false, nil
	}
	if r.matchRules(m.ExcludeResourceRules) {
		return false, nil
	}
	if (len(m.ResourceRules) > 0 || policyConstraints) && !r.matchRules(m.ResourceRules) {
		return false, nil
	}
	if nsErr != nil {
		return false, nsErr
	}
	if objErr != nil {
		return false, objErr
	}
	return true, nil
}

// matchRules reports whether a rule names the request's resource (and,
// when it lists resourceNames, its name).
func (r *request) matchRules(named []admissionv1.NamedRuleWithOperations) bool {
	for _, nr := range named {
		m := rules.Matcher{Rule: admissionv1.RuleWithOperations(nr.RuleWithOperations), Attr: r.attrs}
		if !m.Matches() {
			continue
		}
		if len(nr.ResourceNames) == 0 {
			return true
		}
		for _, name := range nr.ResourceNames {
			if name == r.obj.GetName() {
				return true
			}
		}
	}
	return false
}

// matchNamespace applies a namespaceSelector (webhook/predicates/
// namespace MatchNamespaceSelector): a Namespace is matched by its own
// labels; a namespaced resource by its Namespace's, which the input must
// hold when the selector is not empty.
func (r *request) matchNamespace(sel *metav1.LabelSelector) (bool, error) {
	if r.namespace == "" && r.gvr.Resource != "namespaces" {
		return true, nil
	}
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		return false, err
	}
	if s.Empty() {
		return true, nil
	}
	nsLabels := r.nsLabels
	if r.gvr.Resource == "namespaces" && r.gvk.Group == "" {
		nsLabels = r.obj.GetLabels()
	} else if nsLabels == nil {
		return false, fmt.Errorf("namespaceSelector needs the labels of Namespace %s, which is not in the input (the API server would read it from the cluster): add the v1 Namespace object to the input", r.namespace)
	}
	return s.Matches(labels.Set(nsLabels)), nil
}

// selectorOf gives the object matcher a parsed selector.
type selectorOf struct{ sel *metav1.LabelSelector }

func (s selectorOf) GetParsedObjectSelector() (labels.Selector, error) {
	return metav1.LabelSelectorAsSelector(s.sel)
}

// invocation is one policy invoked through one binding with one param
// (or none) on one resource: its matchConditions are evaluated once, by
// its first mutation.
type invocation struct {
	req     *request
	p       *compiled
	b       *binding
	param   runtime.Object
	field   string
	decided bool
	skip    bool
	ctx     context.Context
	pass    *firstPass
	// invoked is set when the invocation's matchConditions held.
	invoked bool
	// reinvokes is the first-pass invocation this one repeats, or nil.
	reinvokes *invocation
}

// invocation returns the invocation of p through b with param.
func (r *request) invocation(p *compiled, b *binding, param runtime.Object, pass *firstPass) *invocation {
	inv := &invocation{req: r, p: p, b: b, param: param, field: bindingRule(b), pass: pass}
	if param != nil {
		if a, err := meta.Accessor(param); err == nil {
			name := a.GetName()
			if a.GetNamespace() != "" {
				name = a.GetNamespace() + "/" + name
			}
			inv.field += " param " + name
		}
	}
	return inv
}

// rule is the invocation's rule: one step per mutation.
func (inv *invocation) rule() *policy.Rule {
	rule := &policy.Rule{Policy: &inv.p.ref, Field: inv.field}
	for i := range inv.p.spec.Spec.Mutations {
		rule.Steps = append(rule.Steps, policy.Step{Field: fmt.Sprintf("spec.mutations[%d]", i), Filter: mutation{inv: inv, index: i}})
	}
	return rule
}

// mutation is one mutation of an invocation, a step of its rule.
type mutation struct {
	inv   *invocation
	index int
}

func (m mutation) Filter(n *yaml.RNode) (*yaml.RNode, error) {
	_, _, _, err := m.FilterMatch(n)
	return n, err
}

// FilterCount implements policy.CountingFilter.
func (m mutation) FilterCount(n *yaml.RNode) (int, bool, error) {
	applied, modified, _, err := m.FilterMatch(n)
	return applied, modified, err
}

// FilterMatch implements policy.MatchingFilter: the invocation matched
// when its matchConditions held; the mutation applied when it changed
// the resource.
func (m mutation) FilterMatch(n *yaml.RNode) (int, bool, []string, error) {
	inv := m.inv
	obj, hidden, err := toUnstructured(n)
	if err != nil {
		return 0, false, nil, err
	}
	va := &admission.VersionedAttributes{Attributes: inv.req.attrs, VersionedKind: inv.req.gvk, VersionedObject: obj}
	if !inv.decided {
		inv.decided = true
		if inv.reinvokes != nil {
			ok, err := inv.rematch(n)
			if err != nil {
				inv.skip = true
				if ignored(inv.p) {
					return 0, false, []string{}, nil
				}
				return 0, false, nil, fmt.Errorf("%s: %w%s", inv.field, err, denied)
			}
			if !ok {
				inv.skip = true
				return 0, false, []string{}, nil
			}
			va.Attributes = inv.req.attrs
		}
		inv.ctx = inv.p.eval.compiler.CreateContext(context.Background())
		if inv.p.eval.matcher != nil {
			res := inv.p.eval.matcher.Match(inv.ctx, va, inv.param, nil)
			if res.Error != nil {
				inv.skip = true
				if ignored(inv.p) {
					return 0, false, []string{}, nil
				}
				return 0, false, nil, fmt.Errorf("%s: spec.matchConditions: %w%s", inv.field, res.Error, denied)
			}
			inv.skip = !res.Matches
		}
		inv.invoked = !inv.skip
	}
	if inv.skip {
		return 0, false, []string{}, nil
	}
	matched := []string{bindingRule(inv.b)}
	tc, _ := k8sschema.Get(inv.req.gvk)
	patched, err := inv.p.eval.patchers[m.index].Patch(inv.ctx, patch.Request{
		MatchedResource:     inv.req.gvr,
		VersionedAttributes: va,
		ObjectInterfaces:    objectInterfaces(),
		OptionalVariables:   plugincel.OptionalVariableBindings{VersionedParams: inv.param},
		Namespace:           inv.req.nsObject,
		TypeConverter:       tc,
	}, celconfig.RuntimeCELCostBudget)
	if err != nil {
		if ignored(inv.p) {
			return 0, false, matched, nil
		}
		return 0, false, nil, fmt.Errorf("%s: %w%s", inv.field, err, denied)
	}
	if inv.reinvokes == nil {
		inv.pass.dispatched = true
	}
	out, ok := patched.(*unstructured.Unstructured)
	if !ok {
		return 0, false, nil, fmt.Errorf("%s: the patch returned a %T, not an unstructured object", inv.field, patched)
	}
	if equality.Semantic.DeepEqual(out.Object, obj.Object) {
		return 0, false, matched, nil
	}
	if err := fromUnstructured(n, out, hidden); err != nil {
		return 0, false, nil, fmt.Errorf("%s: %w", inv.field, err)
	}
	return 1, true, matched, nil
}

// rematch decides whether a reinvocation runs: only when the first pass
// dispatched a mutation and invoked the policy, and only when the policy
// and the binding still match the object as it now is.
func (inv *invocation) rematch(n *yaml.RNode) (bool, error) {
	if !inv.pass.dispatched || !inv.reinvokes.invoked {
		return false, nil
	}
	req, err := newRequest(n, inv.req.namespaces)
	if err != nil {
		return false, err
	}
	inv.req = req
	if ok, err := req.matches(inv.p.spec.Spec.MatchConstraints, true); !ok || err != nil {
		return false, err
	}
	return req.matches(inv.b.spec.Spec.MatchResources, false)
}

// collectParams finds the params of a binding, as upstream's
// generic.CollectParams does, among the input's resources: none needed
// without a paramKind or a paramRef (one invocation without params);
// paramRef.name or paramRef.selector, in paramRef.namespace or else the
// request's namespace for a namespaced paramKind; none found is an error
// under parameterNotFoundAction Deny and no invocation under Allow.
func (s *Set) collectParams(p *compiled, b *binding, namespace string) ([]runtime.Object, error) {
	kind, ref := p.spec.Spec.ParamKind, b.spec.Spec.ParamRef
	if kind == nil || ref == nil {
		return []runtime.Object{nil}, nil
	}
	gv, err := schema.ParseGroupVersion(kind.APIVersion)
	if err != nil {
		return nil, fmt.Errorf("spec.paramKind.apiVersion: %w", err)
	}
	paramGVK := gv.WithKind(kind.Kind)
	paramNamespace := ""
	if namespaced(paramGVK) {
		paramNamespace = namespace
		if ref.Namespace != "" {
			paramNamespace = ref.Namespace
		} else if paramNamespace == "" {
			return nil, errors.New("cannot use namespaced paramRef in policy binding that matches cluster-scoped resources: set spec.paramRef.namespace")
		}
	} else if ref.Namespace != "" {
		return nil, errors.New("spec.paramRef.namespace must not be provided for a cluster-scoped paramKind")
	}
	var sel labels.Selector
	if ref.Selector != nil {
		if sel, err = metav1.LabelSelectorAsSelector(ref.Selector); err != nil {
			return nil, fmt.Errorf("spec.paramRef.selector: %w", err)
		}
	}
	var params []runtime.Object
	for _, n := range s.params {
		if n.GetApiVersion() != kind.APIVersion || n.GetKind() != kind.Kind || n.GetNamespace() != paramNamespace {
			continue
		}
		if ref.Name != "" && n.GetName() != ref.Name {
			continue
		}
		if sel != nil && !sel.Matches(labels.Set(n.GetLabels())) {
			continue
		}
		obj, _, err := toUnstructured(n)
		if err != nil {
			return nil, err
		}
		params = append(params, obj)
	}
	sort.SliceStable(params, func(i, j int) bool {
		a, b := params[i].(*unstructured.Unstructured), params[j].(*unstructured.Unstructured)
		return a.GetName() < b.GetName()
	})
	if len(params) == 0 && *ref.ParameterNotFoundAction == admissionv1.DenyAction {
		where := paramNamespace
		if where == "" {
			where = "the cluster scope"
		}
		return nil, fmt.Errorf("no params found for policy binding with `Deny` parameterNotFoundAction: no %s %s in %s of the input matches spec.paramRef; add the param object to the input", kind.APIVersion, kind.Kind, where)
	}
	return params, nil
}
