// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyverno

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/kyverno/conditions"
	"github.com/apply-overrides/apply-overrides/kyverno/internal/jsonvalue"
	"github.com/apply-overrides/apply-overrides/kyverno/jsonpatch"
	"github.com/apply-overrides/apply-overrides/kyverno/smp"
	"github.com/apply-overrides/apply-overrides/kyverno/vars"
)

// run is one policy applied to one resource: the resource node, edited in
// place, its JSON view and the policy's JSON context.
type run struct {
	p     *compiled
	node  *yaml.RNode
	obj   map[string]any
	ctx   *vars.Context
	ident identity
	// nodeJSON is the node's JSON view after the last strategic merge,
	// while nothing else has changed the node (nil otherwise): a foreach
	// over n elements then encodes the resource n times, not 2n.
	nodeJSON []byte
	// modified records that a patch edited the node, even where a rule's
	// net effect is nil and it does not count as applied.
	modified bool
	// objCurrent says that obj is the node's JSON view now (with the
	// default namespace): no patch has changed the node since obj was
	// read. obj is then handed to the context as request.object (which
	// turns its numbers into int64 in place: only its strings and shape
	// are read here).
	objCurrent bool
	// objIsView says that obj is also the node's view as read (no default
	// namespace added to it): a foreach entry then starts from it.
	objIsView bool
	// calm is what the fast path found calm in the node so far.
	calm *smp.Calm
}

// identity is what stays fixed while a policy runs: the GVK of the
// resource as it entered the policy and the labels of its namespace.
type identity struct {
	group, version, kind string
	nsLabels             map[string]string
	nsKnown              bool
}

// apply runs the policy's rules on the resource in order, each on the
// output of the previous one. It returns the number of rules that changed
// the resource, whether any patch edited its node and the rules that
// matched it (match, exclude and preconditions passed), by the field of
// the rule in spec.rules that they are or were generated from; a rule
// error stops it.
func (p *compiled) apply(n *yaml.RNode, ns Namespaces, share *viewShare) (applied int, modified bool, matched []string, err error) {
	if g, v, k, ok := nodeGVK(n); ok && !p.mayMatchKind(g, v, k) {
		return 0, false, nil, nil // no rule can match: the policy reads nothing of it
	}
	shared, calm := share.take(n)
	obj, undo, err := asKyvernoSeesIt(n, shared)
	if err != nil {
		return 0, false, nil, err
	}
	defer func() {
		if uerr := undo(); uerr != nil && err == nil {
			err = uerr
		}
	}()
	applied, modified, matched, final, err := p.run(n, obj, ns, calm)
	if err == nil {
		share.keep(n, final, calm)
	}
	return applied, modified, matched, err
}

// run runs the policy on n, whose JSON view is obj (owned by run). final
// is the view of n at the end, when run still holds it (else nil).
func (p *compiled) run(n *yaml.RNode, obj map[string]any, ns Namespaces, calm *smp.Calm) (applied int, modified bool, matched []string, final map[string]any, err error) {
	defaultNamespace(obj)
	if p.namespaced {
		// A Policy applies only to resources of its own namespace.
		meta, _ := obj["metadata"].(map[string]any)
		if ns, _ := meta["namespace"].(string); ns != p.namespace || !namespacedKind(obj) {
			return 0, false, nil, obj, nil
		}
	}
	// asKyvernoSeesIt wrote the default namespace into the node too.
	r := &run{p: p, node: n, obj: obj, objCurrent: true, objIsView: true, ctx: vars.NewContext(), calm: calm}
	r.ident.group, r.ident.version, r.ident.kind = gvk(obj)
	r.ident.nsLabels, r.ident.nsKnown = ns.labels(obj)
	for _, step := range []func() error{
		func() error { return r.ctx.SetObjectConverted(obj) },
		func() error { return r.ctx.SetOperation(operation) },
		func() error { return r.ctx.AddImages(obj) },
	} {
		if err := step(); err != nil {
			return 0, false, nil, nil, fmt.Errorf("build the JSON context: %w", err)
		}
	}
	// changedBy is the rule whose change later rules have not read yet:
	// the resource is read again (refresh) only when a later rule runs.
	var changedBy *compiledRule
	for _, cr := range p.rules {
		if changedBy != nil {
			if err := r.refresh(); err != nil {
				return applied, r.modified, matched, nil, &RuleError{Rule: changedBy.name, Field: changedBy.field, Err: err}
			}
			changedBy = nil
		}
		ok, changed, err := r.rule(cr)
		if err != nil {
			return applied, r.modified, matched, nil, &RuleError{Rule: cr.name, Field: cr.field, Err: err}
		}
		if ok && !slices.Contains(matched, cr.source) {
			matched = append(matched, cr.source)
		}
		if !changed {
			continue
		}
		applied++
		changedBy = cr
		if p.applyOne {
			break
		}
	}
	if r.objCurrent && r.objIsView {
		final = r.obj
	}
	return applied, r.modified, matched, final, nil
}

// nodeGVK is the group, version and kind of a resource read from its
// node; ok is false unless apiVersion and kind are plain strings (the JSON
// view decides then).
func nodeGVK(n *yaml.RNode) (group, version, kind string, ok bool) {
	y := n.YNode()
	if y == nil || y.Kind != yaml.MappingNode {
		return "", "", "", false
	}
	var apiVersion *yaml.Node
	for i := 0; i+1 < len(y.Content); i += 2 {
		k, v := y.Content[i], y.Content[i+1]
		if k.Value != yaml.APIVersionField && k.Value != yaml.KindField {
			continue
		}
		if k.Kind != yaml.ScalarNode || k.ShortTag() != yaml.NodeTagString || v.Kind != yaml.ScalarNode || v.ShortTag() != yaml.NodeTagString || v.Style&yaml.TaggedStyle != 0 {
			return "", "", "", false
		}
		if k.Value == yaml.KindField {
			if ok {
				return "", "", "", false // a repeated key: let the JSON view decide
			}
			kind, ok = v.Value, true
		} else {
			if apiVersion != nil {
				return "", "", "", false
			}
			apiVersion = v
		}
	}
	if !ok || apiVersion == nil {
		return "", "", "", false
	}
	group, version, found := strings.Cut(apiVersion.Value, "/")
	if !found {
		group, version = "", apiVersion.Value
	}
	return group, version, kind, true
}

// mayMatchKind reports whether some rule of the policy can match a
// resource of this group, version and kind: a necessary condition of
// Rule.matches, which checks kinds before anything else.
func (p *compiled) mayMatchKind(group, version, kind string) bool {
	key := [3]string{group, version, kind}
	p.kinds.RLock()
	may, known := p.kinds.m[key]
	p.kinds.RUnlock()
	if known {
		return may
	}
	o := &object{group: group, version: version, kind: kind}
	may = slices.ContainsFunc(p.rules, func(cr *compiledRule) bool { return cr.rule.mayMatchKind(o) })
	p.kinds.Lock()
	if p.kinds.m == nil {
		p.kinds.m = map[[3]string]bool{}
	}
	p.kinds.m[key] = may
	p.kinds.Unlock()
	return may
}

// RuleError is a rule failing on a resource.
type RuleError struct {
	Rule, Field string
	Err         error
}

func (e *RuleError) Error() string { return fmt.Sprintf("rule %q: %v", e.Rule, e.Err) }
func (e *RuleError) Unwrap() error { return e.Err }

// PolicyField is the rule's path in the policy, for results.
func (e *RuleError) PolicyField() string { return e.Field }

// refresh re-reads the resource after a change: later rules match and
// read request.object on it. A view still current (a foreach's last one)
// is not built again.
func (r *run) refresh() error {
	if !r.objCurrent {
		obj, err := r.view()
		if err != nil {
			return err
		}
		r.objIsView = !defaultNamespace(obj)
		r.obj, r.objCurrent = obj, true
	}
	return r.ctx.SetObjectConverted(r.obj)
}

// rule runs one rule: match, context, preconditions, then the patch or
// foreach. matched reports that match, exclude and preconditions passed;
// changed reports a pass; false is a skip.
func (r *run) rule(cr *compiledRule) (matched, changed bool, err error) {
	o := r.object()
	matched = cr.rule.matches(o)
	if o.namespaceNeeded {
		return false, false, fmt.Errorf("%s: namespaceSelector needs the labels of namespace %q, and the input has no Namespace object of that name: add it to the input (an offline render cannot read namespaces from a cluster)", cr.selectorField, o.namespace)
	}
	if !matched {
		return false, false, nil
	}
	r.ctx.Checkpoint()
	defer r.ctx.Restore()
	if err := r.loadContext(cr.rule.Context); err != nil {
		return false, false, fmt.Errorf("failed to load context: %w", err)
	}
	if cr.preErr != nil { // conditions.Evaluate's error
		return false, false, fmt.Errorf("failed to evaluate preconditions: %w", fmt.Errorf("failed to parse preconditions: %w", cr.preErr))
	}
	ok, _, err := cr.pre.Evaluate(r.substituter())
	if err != nil {
		return false, false, fmt.Errorf("failed to evaluate preconditions: %w", err)
	}
	if !ok {
		return false, false, nil
	}
	if len(cr.rule.Mutate.ForEach) > 0 {
		changed, err := r.foreach(cr.rule.Mutate.ForEach, 0)
		if err != nil {
			return true, false, fmt.Errorf("failed to mutate elements: %w", err)
		}
		return true, changed, nil
	}
	var mutate map[string]any
	if cr.mutateOnly {
		sub, err := vars.SubstituteShared(r.ctx, cr.mutate, "/mutate") // r.patch only reads it
		if err != nil {
			return true, false, fmt.Errorf("variable substitution failed: %w", err)
		}
		mutate, _ = sub.(map[string]any)
	} else {
		doc, err := vars.Substitute(r.ctx, cr.doc) // Substitute copies; cr.doc stays as compiled
		if err != nil {
			return true, false, fmt.Errorf("variable substitution failed: %w", err)
		}
		m, _ := doc.(map[string]any)
		mutate, _ = m["mutate"].(map[string]any)
	}
	changed, err = r.patch(mutate)
	return true, changed, err
}

// object is the current resource as rule matching reads it.
func (r *run) object() *object {
	o := &object{group: r.ident.group, version: r.ident.version, kind: r.ident.kind, nsLabels: r.ident.nsLabels, nsKnown: r.ident.nsKnown}
	meta, _ := r.obj["metadata"].(map[string]any)
	o.name, _ = meta["name"].(string)
	if o.name == "" {
		o.name, _ = meta["generateName"].(string)
	}
	o.namespace, _ = meta["namespace"].(string)
	o.meta = meta
	return o
}

func (r *run) substituter() conditions.Substituter {
	return func(v any) (any, error) { return vars.Substitute(r.ctx, v) }
}

// loadContext registers a rule's or foreach entry's variable context
// entries (the other kinds were rejected when the policy was compiled).
// As in Kyverno v1.19.1 they are evaluated lazily, on the first query that
// names them.
func (r *run) loadContext(entries []ContextEntry) error {
	for _, e := range entries {
		if e.Variable == nil {
			continue
		}
		ve := vars.VariableEntry{Name: e.Name, Value: e.Variable.Value, JMESPath: e.Variable.JMESPath, Default: e.Variable.Default,
			HasValue: e.Variable.Value != nil, HasDefault: e.Variable.Default != nil}
		if err := r.ctx.DeferVariable(ve); err != nil {
			return err
		}
	}
	return nil
}

// explainPatch adds, after upstream's text, what an error of a
// patchStrategicMerge that is not a mapping means (upstream reports kyaml's
// "wrong node kind" and the patch's contents only).
func explainPatch(err error, psm any) error {
	what := ""
	switch psm.(type) {
	case map[string]any:
		return err
	case []any:
		what = "a list"
	case string:
		what = "a string"
	default:
		what = "a scalar"
	}
	return fmt.Errorf("%w (patchStrategicMerge is %s, not a mapping: write the patch itself under patchStrategicMerge, not as a quoted string or a list)", err, what)
}

// patch applies a substituted {patchStrategicMerge, patchesJson6902} pair.
// It only reads m, which may share parts with the policy
// (vars.SubstituteShared).
func (r *run) patch(m map[string]any) (bool, error) {
	if psm, ok := m["patchStrategicMerge"]; ok && psm != nil {
		if changed, fast, edits := tryFast(r.node, psm, r.calm); fast {
			if changed {
				r.nodeJSON = nil // the node changed; its JSON text is unknown
				r.modified = true
				r.edited(edits)
			}
			return changed, nil
		}
		changed, after, err := smp.ApplyJSON(r.node, r.nodeJSON, psm)
		r.nodeJSON = after
		r.calm.Forget()
		if err != nil {
			r.modified = true // an error may leave the node half-merged
			r.objCurrent = false
			return false, explainPatch(err, psm)
		}
		r.modified = r.modified || changed
		r.objCurrent = r.objCurrent && !changed
		return changed, nil
	}
	r.nodeJSON = nil
	jp, _ := m["patchesJson6902"].(string)
	if jp == "" {
		return false, errors.New("empty mutate rule")
	}
	before, err := yamlnode.MarshalJSON(r.node.YNode())
	if err != nil {
		return false, fmt.Errorf("failed to marshal resource: %w", err)
	}
	changed, err := jsonpatch.Changes(before, jp)
	if err != nil {
		return false, fmt.Errorf("failed to patch resource: %w", jsonpatch.Explain(err))
	}
	if !changed {
		return false, nil // the JSON stays as it is: leave the node's bytes alone
	}
	r.modified = true
	r.objCurrent = false
	r.calm.Forget()
	if err := jsonpatch.Apply(r.node, jp); err != nil {
		return false, fmt.Errorf("failed to patch resource: %w", jsonpatch.Explain(err))
	}
	return true, nil
}

// foreach runs foreach entries in order (spec §8): the list is evaluated
// once per entry, elements run in the entry's order on the accumulated
// resource, and request.object is refreshed between entries, not between
// elements.
func (r *run) foreach(entries []ForEachMutation, nesting int) (bool, error) {
	changed := false
	for i, fe := range entries {
		list, err := vars.EvaluateList(r.ctx, fe.List)
		if err != nil {
			return changed, fmt.Errorf("failed to evaluate list %s: %w", fe.List, err)
		}
		order := fe.Order
		if order == "" {
			order = "Ascending"
			if fe.PatchStrategicMerge != nil {
				order = "Descending"
			}
		}
		beforeObj, _, err := r.currentView()
		if err != nil {
			return changed, err
		}
		if _, err := r.foreachEntry(i, &fe, list, order == "Descending", nesting); err != nil {
			return changed, err
		}
		// Upstream judges an entry by its net effect (the JSON values
		// before and after, compared deeply), and refreshes request.object
		// after it at every nesting level. beforeObj may be the view the
		// context holds as request.object, its numbers int64 already.
		afterObj, fresh, err := r.currentView()
		if err != nil {
			return changed, err
		}
		if !sameJSON(beforeObj, afterObj) {
			changed = true
			if fresh {
				r.objIsView = !defaultNamespace(afterObj)
			}
			r.obj, r.objCurrent = afterObj, true
			if err := r.ctx.SetObjectConverted(afterObj); err != nil {
				return changed, err
			}
		}
	}
	return changed, nil
}

func (r *run) foreachEntry(i int, fe *ForEachMutation, list []any, descending bool, nesting int) (bool, error) {
	r.ctx.Checkpoint()
	defer r.ctx.Restore()
	changed := false
	// The patch document, substituted for each element (and only read).
	doc := map[string]any{}
	if fe.PatchStrategicMerge != nil {
		doc["patchStrategicMerge"] = fe.PatchStrategicMerge
	}
	if fe.PatchesJSON6902 != "" {
		doc["patchesJson6902"] = fe.PatchesJSON6902
	}
	for k := range list {
		idx := k
		if descending {
			idx = len(list) - 1 - k
		}
		elem := list[idx]
		if elem == nil {
			continue
		}
		r.ctx.Reset()
		if err := r.ctx.AddElement(elem, idx, nesting); err != nil {
			return changed, err
		}
		if err := r.loadContext(fe.Context); err != nil {
			return changed, fmt.Errorf("failed to load to mutate.foreach[%d].context: %w", i, err)
		}
		ok, _, err := conditions.EvaluateForEach(fe.Preconditions, r.substituter())
		if err != nil {
			return changed, fmt.Errorf("failed to evaluate mutate.foreach[%d].preconditions: %w", i, err)
		}
		if !ok {
			continue
		}
		var c bool
		if fe.ForEach != nil {
			nested, err := nestedForEach(fe.ForEach)
			if err != nil {
				return changed, fmt.Errorf("mutate.foreach[%d].foreach: %w", i, err)
			}
			c, err = r.foreach(nested, nesting+1)
			if err != nil {
				return changed, err
			}
		} else {
			sub, err := vars.SubstituteShared(r.ctx, doc, "") // r.patch only reads it
			if err != nil {
				return changed, fmt.Errorf("variable substitution failed: %w", err)
			}
			m, _ := sub.(map[string]any)
			if c, err = r.patch(m); err != nil {
				return changed, err
			}
		}
		changed = changed || c
	}
	return changed, nil
}

// sameJSON is reflect.DeepEqual on JSON values, an int64 (request.object's
// integers, made from float64s) equal to the float64 of the same value.
func sameJSON(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) || (x == nil) != (y == nil) {
			return false
		}
		if mapID(x) == mapID(y) {
			return true // shared by an updated view (viewedit.go)
		}
		for k, v := range x {
			if w, ok := y[k]; !ok || !sameJSON(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) || (x == nil) != (y == nil) {
			return false
		}
		if len(x) > 0 && &x[0] == &y[0] {
			return true
		}
		for i := range x {
			if !sameJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	case float64, int64:
		fa, _ := number(a)
		fb, ok := number(b)
		return ok && fa == fb
	}
	return reflect.DeepEqual(a, b)
}

// number is a JSON number as a float64 (exact for the int64s made from
// float64s).
func number(v any) (float64, bool) {
	switch t := v.(type) {
	case float64:
		return t, true
	case int64:
		return float64(t), true
	}
	return 0, false
}

// nestedForEach decodes a nested foreach value (schemaless in the CRD).
func nestedForEach(v any) ([]ForEachMutation, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out []ForEachMutation
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil {
		return nil, fmt.Errorf("invalid nested foreach: %w", err)
	}
	return out, nil
}

// tryFast applies a substituted patchStrategicMerge by the fast path when
// it handles the patch's shape (the general path, smp.ApplyJSON, runs
// otherwise), with the places it changed; TestFastMatchesGeneral replaces
// it to compare the two.
var tryFast = smp.TryFastCalm

// edited brings the view up to date after the fast path changed the node
// at edits (viewedit.go), when it was current and the node's own view;
// otherwise, or when that fails, the view is no longer current.
func (r *run) edited(edits []smp.Edit) {
	if !r.objCurrent || !r.objIsView || len(edits) == 0 || !keepViews {
		r.objCurrent = false
		return
	}
	obj, ok := withEdits(r.obj, edits)
	if !ok {
		r.objCurrent = false
		return
	}
	r.obj = obj
	if checkView != nil {
		checkView(r)
	}
}

// checkView, when set (by TestIncrementalView), checks each view withEdits
// made against the node read again.
var checkView func(*run)

// keepViews turns off (in TestViewsChangeNothing) updating views from the
// fast path's edits, handing them from policy to policy and remembering
// calm parts (smp.Calm): every view is then read from the node, every
// part walked again.
var keepViews = true

// currentView is the node's JSON view now: obj while it is current and
// the node's own, else the node read again.
func (r *run) currentView() (obj map[string]any, fresh bool, err error) {
	if r.objCurrent && r.objIsView {
		return r.obj, false, nil
	}
	obj, err = r.view()
	return obj, true, err
}

var errNotObject = errors.New("the resource is not a JSON object")

// viewJSON is the JSON text of the resource node: the text the last
// strategic merge left (nodeJSON) while nothing else changed the node, or
// the node encoded. The text's keys are sorted (yamlnode.MarshalJSON).
func (r *run) viewJSON() ([]byte, error) {
	if r.nodeJSON != nil {
		return r.nodeJSON, nil
	}
	b, err := yamlnode.MarshalJSON(r.node.YNode())
	if err != nil {
		return nil, fmt.Errorf("read the resource as JSON: %w", err)
	}
	return b, nil
}

// view is the resource's JSON value now: built from the nodes where
// yamlnode.ObjectValue can, else decoded from the text the last strategic
// merge left (nodeJSON) or from the node's JSON text.
// Its integral numbers are int64s, as in all the views the engine holds
// (the context takes them with SetObjectConverted).
func (r *run) view() (map[string]any, error) {
	if obj, ok := yamlnode.ObjectValueInt64(r.node.YNode()); ok {
		return obj, nil
	}
	b, err := r.viewJSON()
	if err != nil {
		return nil, err
	}
	return decodeView(b)
}

// jsonView is the resource as Kyverno sees it: its JSON value, integral
// numbers as int64s (as in all the views the engine holds).
func jsonView(n *yaml.RNode) (map[string]any, error) {
	if obj, ok := yamlnode.ObjectValueInt64(n.YNode()); ok {
		return obj, nil
	}
	b, err := yamlnode.MarshalJSON(n.YNode())
	if err != nil {
		return nil, fmt.Errorf("read the resource as JSON: %w", err)
	}
	return decodeView(b)
}

// decodeView decodes a resource's JSON text, integral numbers as int64s.
func decodeView(b []byte) (map[string]any, error) {
	obj, err := decodeObject(b)
	if err != nil {
		return nil, err
	}
	jsonvalue.Int64NumbersInPlace(obj)
	return obj, nil
}

// decodeObject decodes a resource's JSON text as json.Unmarshal does.
func decodeObject(b []byte) (map[string]any, error) {
	var obj map[string]any
	if err := json.Unmarshal(b, &obj); err != nil {
		return nil, fmt.Errorf("read the resource as JSON: %w", err)
	}
	if obj == nil {
		return nil, errNotObject
	}
	return obj, nil
}

func stringMap(v any) map[string]string {
	m, _ := v.(map[string]any)
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, x := range m {
		if s, ok := x.(string); ok {
			out[k] = s // labels and annotations are strings; others never match
		}
	}
	return out
}

// isWireAnnotation reports whether an annotation is one the orchestrators
// (kpt, kustomize, kyaml) add to items in transit: Kyverno never sees them.
func isWireAnnotation(key string) bool {
	return strings.HasPrefix(key, kioutil.IndexAnnotation[:len(kioutil.IndexAnnotation)-len("index")]) ||
		key == kioutil.LegacyIndexAnnotation || key == kioutil.LegacyPathAnnotation || key == kioutil.LegacyIdAnnotation
}

// asKyvernoSeesIt makes the node what `kyverno apply` would hold while a
// policy runs: without the orchestrators' wire annotations, and with the
// namespace "default" when a namespaced resource has none. undo puts the
// annotations back where they were (unless the policy wrote the same key)
// and removes the default namespace again (when it is still "default"), so
// the output differs from the input only by what the policy changed.
//
// shared, when not nil, is the view the previous policy left (viewShare):
// it is taken as the view when the node's namespace, defaulted, agrees
// with it, instead of reading the node again.
func asKyvernoSeesIt(n *yaml.RNode, shared map[string]any) (obj map[string]any, undo func() error, err error) {
	meta := n.Field(yaml.MetadataField)
	if meta == nil || meta.Value.YNode().Kind != yaml.MappingNode {
		obj, err := jsonView(n)
		return obj, func() error { return nil }, err
	}
	m := meta.Value.YNode()
	type pair struct {
		at         int // pair index in the annotations
		key, value *yaml.Node
	}
	var wire []pair
	fieldAt := -1 // pair index of annotations in metadata, when it held only wire annotations
	var fieldKey, fieldValue *yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value != yaml.AnnotationsField || m.Content[i+1].Kind != yaml.MappingNode {
			continue
		}
		a := m.Content[i+1]
		kept := a.Content[:0:0]
		for j := 0; j+1 < len(a.Content); j += 2 {
			if isWireAnnotation(a.Content[j].Value) {
				wire = append(wire, pair{j / 2, a.Content[j], a.Content[j+1]})
			} else {
				kept = append(kept, a.Content[j], a.Content[j+1])
			}
		}
		if len(wire) == 0 {
			break
		}
		a.Content = kept
		if len(kept) == 0 { // Kyverno would see no annotations at all
			fieldAt, fieldKey, fieldValue = i/2, m.Content[i], a
			m.Content = append(m.Content[:i:i], m.Content[i+2:]...)
		}
		break
	}
	defaulted := false
	var nsValue *yaml.Node // the namespace value node that "default" replaced, if any
	obj, nsEmpty := fromShared(shared, meta.Value)
	if obj == nil {
		if obj, err = jsonView(n); err != nil {
			return nil, nil, err
		}
		ns, _ := obj["metadata"].(map[string]any)["namespace"].(string)
		nsEmpty = ns == ""
	} else if checkShared != nil {
		checkShared(n, obj, nsEmpty)
	}
	if nsEmpty && namespacedKind(obj) {
		if f := meta.Value.Field(yaml.NamespaceField); f != nil {
			written := *f.Value.YNode() // namespace: "" or ~, put back as written
			nsValue = &written
		}
		if err := meta.Value.PipeE(yaml.SetField(yaml.NamespaceField, yaml.NewStringRNode("default"))); err != nil {
			return nil, nil, err
		}
		defaulted = true
	}
	return obj, func() error {
		// Look metadata up again: a strategic merge replaces the node's tree.
		meta := n.Field(yaml.MetadataField)
		if meta == nil || meta.Value.YNode().Kind != yaml.MappingNode {
			return nil // the policy removed metadata: nothing to put back into
		}
		m := meta.Value.YNode()
		if defaulted && n.GetNamespace() == "default" {
			if f := meta.Value.Field(yaml.NamespaceField); nsValue != nil && f != nil {
				*f.Value.YNode() = *nsValue // in place: kyaml's setters would drop a null
			} else if _, err := meta.Value.Pipe(yaml.FieldClearer{Name: yaml.NamespaceField}); err != nil {
				return err
			}
		}
		if len(wire) == 0 {
			return nil
		}
		var a *yaml.Node
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value == yaml.AnnotationsField {
				a = m.Content[i+1]
			}
		}
		if a == nil || a.Kind != yaml.MappingNode {
			if a != nil || fieldKey == nil {
				return nil // the policy made annotations something else: leave it
			}
			a = fieldValue
			a.Content = nil
			at := min(2*fieldAt, len(m.Content))
			m.Content = append(m.Content[:at:at], append([]*yaml.Node{fieldKey, a}, m.Content[at:]...)...)
		}
		for _, w := range wire {
			if yaml.NewRNode(a).Field(w.key.Value) != nil {
				continue // the policy set it
			}
			at := min(2*w.at, len(a.Content))
			a.Content = append(a.Content[:at:at], append([]*yaml.Node{w.key, w.value}, a.Content[at:]...)...)
		}
		return nil
	}, nil
}
