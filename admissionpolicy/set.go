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

// Rules is the first pass of the MutatingAdmissionPolicy plugin over the
// resource. It matches each policy and each of its bindings against the
// resource as the earlier dialects left it (upstream matches every hook
// before it invokes any: generic/policy_dispatcher.go Dispatch) and
// returns one rule per invocation (policy, binding, param), whose steps
// are the policy's mutations, and a last bookkeeping rule that records
// for the second pass what the first one did. A binding that cannot be
// matched or whose params cannot be collected fails the resource under
// failurePolicy Fail and is skipped under Ignore, as upstream.
func (s *Set) Rules(res *policy.Resource) ([]*policy.Rule, error) {
	return s.pass(res, false)
}

// Reinvocation is the plugin's part of the admission chain's second pass
// (Binding.Reinvoke).
type Reinvocation struct{ set *Set }

// Rules is the second pass of the plugin over the resource, when the
// first pass of the chain asked for one (admission/reinvocation.go): the
// policies and bindings are matched again on the resource as the whole
// first pass left it, every invocation's matchConditions are evaluated
// again, and the invocations whose key the reinvocation context holds run
// their mutations once more (mutating/dispatcher.go dispatchInvocations).
func (r Reinvocation) Rules(res *policy.Resource) ([]*policy.Rule, error) {
	if res.SecondPass() == nil {
		return nil, nil
	}
	return r.set.pass(res, true)
}

// pass returns the rules of one pass of the plugin over the resource.
func (s *Set) pass(res *policy.Resource, again bool) ([]*policy.Rule, error) {
	req, err := newRequest(res.Node, s.namespaces)
	if err != nil {
		return nil, err
	}
	rc := res.Reinvocation()
	pc, _ := rc.Value(pluginName).(*reinvokeContext)
	if pc == nil {
		pc = &reinvokeContext{}
		rc.SetValue(pluginName, pc)
	}
	if again && !equality.Semantic.DeepEqual(pc.lastOutput, req.obj.Object) {
		// A later plugin of the first pass (a webhook) changed the
		// object: every policy invoked since the last change is due.
		pc.requireReinvoking()
	}
	pc.dirty = false
	ps := &pass{rc: rc, pc: pc, again: again}
	var out []*policy.Rule
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
					out = append(out, req.invocation(p, b, param, ps).rule())
				}
			}
			if err != nil && !ignored(p) {
				return nil, fmt.Errorf("%s %s: binding %s: %w%s", KindPolicy, p.ref.Name, b.ref.Name, err, denied)
			}
		}
	}
	if !again && len(out) > 0 {
		out = append(out, &policy.Rule{Policy: out[0].Policy, Field: "reinvocation", Internal: true,
			Steps: []policy.Step{{Field: "reinvocation", Filter: endOfPass{ps}}}})
	}
	return out, nil
}

// pluginName keys the plugin's state in a resource's Reinvocation, as
// upstream keys it by the plugin's name.
const pluginName = "MutatingAdmissionPolicy"

// key names an invocation as upstream's reinvocation context does
// (mutating/reinvocationcontext.go key, dispatcher.go keyFor).
type key struct{ policy, binding, paramNamespace, paramName string }

// reinvokeContext is the plugin's state between the passes of the chain
// (mutating/reinvocationcontext.go policyReinvokeContext).
type reinvokeContext struct {
	// lastOutput is the object as the plugin's last pass left it.
	lastOutput map[string]any
	// previouslyInvoked are the invocations with reinvocationPolicy
	// IfNeeded that ran since the object last changed; reinvoke are those
	// the second pass runs again.
	previouslyInvoked, reinvoke map[key]bool
	// dirty is set when a mutation of the current pass ran without error,
	// changed or not (admission.VersionedAttributes.Dirty).
	dirty bool
}

// requireReinvoking marks every invocation since the last change for the
// second pass (RequireReinvokingPreviouslyInvokedPlugins).
func (pc *reinvokeContext) requireReinvoking() {
	if len(pc.previouslyInvoked) == 0 {
		return
	}
	if pc.reinvoke == nil {
		pc.reinvoke = map[key]bool{}
	}
	for k := range pc.previouslyInvoked {
		pc.reinvoke[k] = true
	}
	pc.previouslyInvoked = nil
}

// pass is one pass of the plugin over a resource.
type pass struct {
	rc    *policy.Reinvocation
	pc    *reinvokeContext
	again bool
}

// endOfPass is the bookkeeping step after the first pass's invocations:
// a mutation that ran asks for a second pass, for every IfNeeded
// invocation of this pass, whether or not it changed the object
// (dispatcher.go: lastVersionedAttr.Dirty); and the object as the pass
// left it is what the second pass compares with.
type endOfPass struct{ ps *pass }

func (e endOfPass) Filter(n *yaml.RNode) (*yaml.RNode, error) {
	_, _, err := e.FilterCount(n)
	return n, err
}

// FilterCount implements policy.CountingFilter: the step changes nothing.
func (e endOfPass) FilterCount(n *yaml.RNode) (int, bool, error) {
	if e.ps.pc.dirty {
		e.ps.pc.requireReinvoking()
		e.ps.rc.SetShouldReinvoke()
	}
	obj, _, err := toUnstructured(n)
	if err != nil {
		return 0, false, err
	}
	e.ps.pc.lastOutput = obj.Object
	return 0, false, nil
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
	pass    *pass
	// due is unset for an invocation of the second pass that is not
	// reinvoked: only its matchConditions are evaluated again.
	due bool
	// before is the object before the invocation's first mutation.
	before map[string]any
}

// invocation returns the invocation of p through b with param.
func (r *request) invocation(p *compiled, b *binding, param runtime.Object, ps *pass) *invocation {
	inv := &invocation{req: r, p: p, b: b, param: param, field: bindingRule(b), pass: ps}
	if param != nil {
		if a, err := meta.Accessor(param); err == nil {
			name := a.GetName()
			if a.GetNamespace() != "" {
				name = a.GetNamespace() + "/" + name
			}
			inv.field += " param " + name
		}
	}
	inv.due = !ps.again || ps.pc.reinvoke[inv.key()]
	switch {
	case ps.again && inv.due:
		inv.field += " (reinvoked)"
	case ps.again:
		inv.field += " (admitted again, not reinvoked)"
	}
	return inv
}

// key is the invocation's key in the reinvocation context.
func (inv *invocation) key() key {
	k := key{policy: inv.p.ref.Name, binding: inv.b.ref.Name}
	if inv.param != nil {
		if a, err := meta.Accessor(inv.param); err == nil {
			k.paramNamespace, k.paramName = a.GetNamespace(), a.GetName()
		}
	}
	return k
}

// finish records, after the invocation's last mutation, what it did: a
// change asks for a second pass of every IfNeeded invocation before it;
// an IfNeeded invocation is then due itself once a later one changes the
// object (dispatcher.go dispatchInvocations).
func (inv *invocation) finish(after map[string]any) {
	pc := inv.pass.pc
	if !equality.Semantic.DeepEqual(inv.before, after) {
		pc.requireReinvoking()
		inv.pass.rc.SetShouldReinvoke()
	}
	if inv.p.spec.Spec.ReinvocationPolicy == admissionv1.IfNeededReinvocationPolicy {
		if pc.previouslyInvoked == nil {
			pc.previouslyInvoked = map[key]bool{}
		}
		pc.previouslyInvoked[inv.key()] = true
	}
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
// when its matchConditions held (and, in the second pass, when it is due
// again); the mutation applied when it changed the resource.
func (m mutation) FilterMatch(n *yaml.RNode) (int, bool, []string, error) {
	inv := m.inv
	obj, hidden, err := toUnstructured(n)
	if err != nil {
		return 0, false, nil, err
	}
	va := &admission.VersionedAttributes{Attributes: inv.req.attrs, VersionedKind: inv.req.gvk, VersionedObject: obj}
	if !inv.decided {
		inv.decided = true
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
		if !inv.due {
			inv.skip = true // its matchConditions still count
		}
		if !inv.skip {
			inv.before = runtime.DeepCopyJSON(obj.Object)
		}
	}
	if inv.skip {
		return 0, false, []string{}, nil
	}
	last := m.index == len(inv.p.spec.Spec.Mutations)-1
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
			if last {
				inv.finish(obj.Object)
			}
			return 0, false, matched, nil
		}
		return 0, false, nil, fmt.Errorf("%s: %w%s", inv.field, err, denied)
	}
	inv.pass.pc.dirty = true
	out, ok := patched.(*unstructured.Unstructured)
	if !ok {
		return 0, false, nil, fmt.Errorf("%s: the patch returned a %T, not an unstructured object", inv.field, patched)
	}
	if last {
		inv.finish(out.Object)
	}
	if equality.Semantic.DeepEqual(out.Object, obj.Object) {
		return 0, false, matched, nil
	}
	if err := fromUnstructured(n, out, hidden); err != nil {
		return 0, false, nil, fmt.Errorf("%s: %w", inv.field, err)
	}
	return 1, true, matched, nil
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
