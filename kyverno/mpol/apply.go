// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package mpol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	jsonpatch "github.com/evanphx/json-patch"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"google.golang.org/protobuf/types/known/structpb"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/cel/lazy"
	"k8s.io/apiserver/pkg/cel/mutation"
	"k8s.io/apiserver/pkg/cel/mutation/dynamic"
)

// Namespace is what the policy sees of the resource's namespace.
type Namespace struct {
	// Object is the Namespace object (as NamespaceObject returns it):
	// namespaceObject, and the labels namespaceSelector matches. When nil
	// (the input holds no Namespace of that name), namespaceObject is null
	// and a namespaced resource's namespace has only the label
	// kubernetes.io/metadata.name, as `kyverno apply` resolves a
	// namespace its values file does not name.
	Object map[string]any
}

// NamespaceObject turns a Namespace as written (its JSON) into what
// namespaceObject holds: Kyverno hands the engine a typed
// corev1.Namespace (the CLI's values file `namespaces:` entry, a
// cluster's Namespace lister) and converts it to an unstructured map
// (sdk extensions/cel/utils ObjectToResolveVal), so fields a Namespace
// does not have are dropped and metadata.creationTimestamp, spec and
// status are always there. The result is only read afterwards.
func NamespaceObject(b []byte) (map[string]any, error) {
	var ns corev1.Namespace
	if err := json.Unmarshal(b, &ns); err != nil {
		return nil, err
	}
	return runtime.DefaultUnstructuredConverter.ToUnstructured(&ns)
}

// Mutations is the number of entries in spec.mutations.
func (p *Policy) Mutations() int { return len(p.variants[0].mutations) }

// Selects describes what the policy's matchConstraints select, for the
// warning about a policy that matched nothing.
func (p *Policy) Selects() []string {
	var out []string
	m := &p.variants[0].match
	for _, r := range m.ResourceRules {
		var ops []string
		for _, o := range r.Operations {
			ops = append(ops, string(o))
		}
		d := fmt.Sprintf("resources %s in apiGroups %q, apiVersions %q on %s", strings.Join(r.Resources, ", "), r.APIGroups, r.APIVersions, strings.Join(ops, ", "))
		if len(r.ResourceNames) > 0 {
			d += " named " + strings.Join(r.ResourceNames, ", ")
		}
		out = append(out, d)
	}
	if m.NamespaceSelector != nil && (len(m.NamespaceSelector.MatchLabels) > 0 || len(m.NamespaceSelector.MatchExpressions) > 0) {
		out = append(out, "a namespace selector")
	}
	if m.ObjectSelector != nil && (len(m.ObjectSelector.MatchLabels) > 0 || len(m.ObjectSelector.MatchExpressions) > 0) {
		out = append(out, "a label selector")
	}
	if len(m.ExcludeResourceRules) > 0 {
		out = append(out, "excludeResourceRules")
	}
	if len(p.variants[0].matchConditions) > 0 {
		out = append(out, "matchConditions")
	}
	return out
}

// Result is one policy run on one resource.
type Result struct {
	// Object is the resource after the policy (the input map itself when
	// nothing changed it).
	Object map[string]any
	// Matched reports that a variant of the policy matched the resource
	// (matchConstraints and matchConditions).
	Matched bool
	// Applied lists the fields of the mutations that changed the resource.
	Applied []string
}

// MutationError is a policy failing on a resource: `kyverno apply`
// reports it as an error result and leaves the resource as it was
// (engine.go handlePolicy: "failed to evaluate policy").
type MutationError struct {
	Field string
	Err   error
}

func (e *MutationError) Error() string { return e.Field + ": " + e.Err.Error() }
func (e *MutationError) Unwrap() error { return e.Err }

// Recorder is told the object after each mutation that ran (index is the
// mutation's index in spec.mutations) and whether the mutation changed it.
type Recorder func(index int, state map[string]any, changed bool) error

// Apply runs the policy and its autogen variants on obj (the resource's
// JSON view, numbers as int64 or float64), each on the output of the
// previous one, as the CLI's engine Handle does (engine.go:117-165).
// record, when not nil, sees the object after each mutation.
func (p *Policy) Apply(obj map[string]any, ns Namespace, record Recorder) (Result, error) {
	res := Result{Object: obj}
	for _, v := range p.variants {
		matched, out, applied, err := v.apply(res.Object, ns, record)
		if err != nil {
			return res, err
		}
		res.Matched = res.Matched || matched
		if out != nil {
			res.Object = out
			res.Applied = append(res.Applied, applied...)
		}
	}
	return res, nil
}

// apply runs one variant: matchConstraints, then variables and
// matchConditions, then each mutation on the output of the last
// (compiler/policy.go:146-256). out is nil when nothing matched.
func (v *variant) apply(obj map[string]any, ns Namespace, record Recorder) (matched bool, out map[string]any, applied []string, err error) {
	u := &unstructured.Unstructured{Object: obj}
	gvk := u.GroupVersionKind()
	gvr, _ := meta.UnsafeGuessKindToResource(gvk)
	attr := attributes{resource: gvr, namespace: u.GetNamespace()}
	ok, err := v.matches(attr, u, ns)
	if err != nil {
		return false, nil, nil, &MutationError{Field: "spec.matchConstraints", Err: err}
	}
	if !ok {
		return false, nil, nil, nil
	}
	var nsObj any
	if ns.Object != nil {
		nsObj = ns.Object
	}
	data := map[string]any{
		varObject:          obj,
		varOldObject:       map[string]any{}, // the CLI's empty old object, not null
		varNamespaceObject: nsObj,
		varRequest:         request(u, gvk, gvr),
		"exceptions":       map[string]any{"allowedImages": []any{}, "allowedValues": []any{}},
	}
	ctx := context.Background()
	vars := lazy.NewMapValue(variablesType)
	data[varVariables] = vars
	for _, nv := range v.variables {
		prog := nv.prog
		vars.Append(nv.name, func(*lazy.MapValue) ref.Val {
			out, _, err := prog.ContextEval(ctx, data)
			if out != nil {
				return out
			}
			if err != nil {
				return types.WrapErr(err)
			}
			return nil
		})
	}
	var errs []error
	for _, c := range v.matchConditions {
		val, _, err := c.prog.ContextEval(ctx, data)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", c.field, err))
			continue
		}
		b, ok := val.Value().(bool)
		if !ok {
			errs = append(errs, fmt.Errorf("%s: evaluated to %v, not a bool", c.field, val.Type()))
			continue
		}
		if !b {
			return false, nil, nil, nil
		}
	}
	if len(errs) > 0 {
		return false, nil, nil, &MutationError{Field: "spec.matchConditions", Err: errors.Join(errs...)}
	}
	cur := obj
	for _, m := range v.mutations {
		next, err := m.patch(ctx, data, cur, gvk, v.serverSideApply)
		if err != nil {
			return true, nil, nil, &MutationError{Field: m.field, Err: err}
		}
		changed := !reflect.DeepEqual(next, cur)
		if changed {
			applied = append(applied, fmt.Sprintf("spec.mutations[%d]", m.index))
		}
		if record != nil {
			if err := record(m.index, next, changed); err != nil {
				return true, nil, nil, err
			}
		}
		cur = next
		data[varObject] = cur
	}
	return true, cur, applied, nil
}

// matches applies matchConstraints as Kyverno's matcher does
// (pkg/cel/matching/matcher.go): namespaceSelector, objectSelector,
// excludeResourceRules, resourceRules with resourceNames. matchPolicy
// is not read, as there.
func (v *variant) matches(attr attributes, u *unstructured.Unstructured, ns Namespace) (bool, error) {
	m := &v.match
	nsOK, err := v.namespaceMatches(attr, u, ns)
	if err != nil {
		return false, err
	}
	if !nsOK {
		return false, nil
	}
	if m.ObjectSelector != nil {
		sel, err := metav1.LabelSelectorAsSelector(m.ObjectSelector)
		if err != nil {
			return false, fmt.Errorf("objectSelector: %w", err)
		}
		if !sel.Matches(labels.Set(u.GetLabels())) {
			return false, nil
		}
	}
	if matchesRules(m.ExcludeResourceRules, attr, u) {
		return false, nil
	}
	if len(m.ResourceRules) == 0 {
		return true, nil
	}
	return matchesRules(m.ResourceRules, attr, u), nil
}

// namespaceMatches is the namespaceSelector: a cluster-scoped resource
// other than a Namespace always matches; a Namespace is matched on its
// own labels; any other resource on its Namespace's labels, or, when the
// input has no such Namespace, on the one label the API server gives
// every namespace (Kyverno's namespace.Matcher.GetNamespace).
func (v *variant) namespaceMatches(attr attributes, u *unstructured.Unstructured, ns Namespace) (bool, error) {
	s := v.match.NamespaceSelector
	if s == nil {
		return true, nil
	}
	var set labels.Set
	switch {
	case attr.isNamespace():
		set = u.GetLabels()
	case attr.namespace == "":
		return true, nil
	case ns.Object != nil:
		set = (&unstructured.Unstructured{Object: ns.Object}).GetLabels()
	default:
		set = labels.Set{"kubernetes.io/metadata.name": attr.namespace}
	}
	sel, err := metav1.LabelSelectorAsSelector(s)
	if err != nil {
		return false, fmt.Errorf("namespaceSelector: %w", err)
	}
	return sel.Matches(set), nil
}

// attributes is what rule matching reads of the admission request: the
// resource (its plural guessed from the kind, as the CLI does when its
// REST mapper does not know the kind), the namespace, and the operation,
// always CREATE offline with no subresource.
type attributes struct {
	resource  schema.GroupVersionResource
	namespace string
}

func (a attributes) isNamespace() bool {
	return a.resource == schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
}

// matchesRules reports whether a rule matches: scope, operation, group,
// version and resource as Kubernetes' rules.Matcher reads them
// (k8s.io/apiserver plugin/webhook/predicates/rules/rules.go), then
// resourceNames, with generateName for an unnamed object, as Kyverno's
// matcher adds (pkg/cel/matching/matcher.go matchesResourceRules).
func matchesRules(rs []admissionregistrationv1.NamedRuleWithOperations, attr attributes, u *unstructured.Unstructured) bool {
	for _, r := range rs {
		if !ruleMatches(&r.RuleWithOperations, attr) {
			continue
		}
		if len(r.ResourceNames) == 0 {
			return true
		}
		name := u.GetName()
		for _, n := range r.ResourceNames {
			if name == n || (name == "" && u.GetGenerateName() != "" && strings.HasPrefix(u.GetGenerateName(), n)) {
				return true
			}
		}
	}
	return false
}

func ruleMatches(r *admissionregistrationv1.RuleWithOperations, attr attributes) bool {
	if r.Scope != nil && *r.Scope != admissionregistrationv1.AllScopes {
		cluster := attr.isNamespace() || attr.namespace == ""
		if (*r.Scope == admissionregistrationv1.NamespacedScope) == cluster || (*r.Scope != admissionregistrationv1.NamespacedScope && *r.Scope != admissionregistrationv1.ClusterScope) {
			return false
		}
	}
	if !slices.ContainsFunc(r.Operations, func(o admissionregistrationv1.OperationType) bool {
		return o == admissionregistrationv1.OperationAll || o == admissionregistrationv1.Create
	}) {
		return false
	}
	if !anyOrExact(r.APIGroups, attr.resource.Group) || !anyOrExact(r.APIVersions, attr.resource.Version) {
		return false
	}
	for _, res := range r.Resources {
		name, sub, _ := strings.Cut(res, "/")
		if (name == "*" || name == attr.resource.Resource) && (sub == "*" || sub == "") {
			return true
		}
	}
	return false
}

func anyOrExact(items []string, s string) bool {
	return slices.Contains(items, "*") || slices.Contains(items, s)
}

// request is the admission request `kyverno apply` builds for a resource
// (pkg/cel/engine/request.go:34-65: a CREATE by an empty user, the kind
// and resource also as requestKind and requestResource), as the map CEL
// reads: the AdmissionRequest's JSON, so empty name, namespace and
// subresources are absent.
func request(u *unstructured.Unstructured, gvk schema.GroupVersionKind, gvr schema.GroupVersionResource) map[string]any {
	kind := func() map[string]any {
		return map[string]any{"group": gvk.Group, "version": gvk.Version, "kind": gvk.Kind}
	}
	resource := func() map[string]any {
		return map[string]any{"group": gvr.Group, "version": gvr.Version, "resource": gvr.Resource}
	}
	r := map[string]any{
		"uid":             "",
		"kind":            kind(),
		"resource":        resource(),
		"requestKind":     kind(),
		"requestResource": resource(),
		"operation":       string(admissionregistrationv1.Create),
		"userInfo":        map[string]any{},
		"object":          u.Object,
		"oldObject":       map[string]any{},
		"dryRun":          false,
		"options":         nil,
	}
	if n := u.GetName(); n != "" {
		r["name"] = n
	}
	if ns := u.GetNamespace(); ns != "" {
		r["namespace"] = ns
	}
	return r
}

// patch runs one mutation on obj and returns the new object.
func (m *mutationStep) patch(ctx context.Context, data map[string]any, obj map[string]any, gvk schema.GroupVersionKind, serverSide bool) (map[string]any, error) {
	val, _, err := m.prog.ContextEval(ctx, data)
	if err != nil {
		return nil, err
	}
	if m.apply {
		return applyConfiguration(val, obj, gvk, serverSide)
	}
	return applyJSONPatch(val, obj)
}

// applyJSONPatch turns the expression's list of JSONPatch values into a
// JSON patch and applies it (mpol/compiler/json.go): a failed test
// operation leaves the object as it was.
func applyJSONPatch(val ref.Val, obj map[string]any) (map[string]any, error) {
	list, ok := val.(traits.Lister)
	if !ok {
		return nil, fmt.Errorf("type mismatch: JSONPatchType.expression should evaluate to array")
	}
	p := jsonpatch.Patch{}
	for it := list.Iterator(); it.HasNext() == types.True; {
		native, err := it.Next().ConvertToNative(reflect.TypeOf(&mutation.JSONPatchVal{}))
		if err != nil {
			return nil, fmt.Errorf("type mismatch: JSONPatchType.expression should evaluate to array of JSONPatch: %w", err)
		}
		op := native.(*mutation.JSONPatchVal)
		o := jsonpatch.Operation{}
		o["op"] = rawString(op.Op)
		o["path"] = rawString(op.Path)
		if op.From != "" {
			o["from"] = rawString(op.From)
		}
		if op.Val != nil {
			if ov, ok := op.Val.(*dynamic.ObjectVal); ok {
				if err := ov.CheckTypeNamesMatchFieldPathNames(); err != nil {
					return nil, fmt.Errorf("type mismatch: %w", err)
				}
			}
			pv, err := op.Val.ConvertToNative(reflect.TypeOf(&structpb.Value{}))
			if err != nil {
				return nil, fmt.Errorf("JSONPath valueExpression evaluated to a type that could not marshal to JSON: %w", err)
			}
			b, err := json.Marshal(pv)
			if err != nil {
				return nil, fmt.Errorf("JSONPath valueExpression evaluated to a type that could not marshal to JSON: %w", err)
			}
			raw := json.RawMessage(b)
			o["value"] = &raw
		}
		p = append(p, o)
	}
	doc, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	patched, err := p.Apply(doc)
	if err != nil {
		if errors.Is(err, jsonpatch.ErrTestFailed) {
			return obj, nil
		}
		return nil, fmt.Errorf("JSON Patch: %w", err)
	}
	return decodeObject(patched)
}

func rawString(s string) *json.RawMessage {
	r := json.RawMessage(strconv.Quote(s))
	return &r
}
