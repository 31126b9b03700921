// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyverno

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/jsonview"
	"github.com/apply-overrides/apply-overrides/kyverno/conditions"
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
// the resource; a rule error stops it.
func (p *compiled) apply(n *yaml.RNode, ns Namespaces) (applied int, err error) {
	undo, err := asKyvernoSeesIt(n)
	if err != nil {
		return 0, err
	}
	defer func() {
		if uerr := undo(); uerr != nil && err == nil {
			err = uerr
		}
	}()
	return p.run(n, ns)
}

func (p *compiled) run(n *yaml.RNode, ns Namespaces) (int, error) {
	obj, err := jsonView(n)
	if err != nil {
		return 0, err
	}
	defaultNamespace(obj)
	if p.namespaced {
		// A Policy applies only to resources of its own namespace.
		meta, _ := obj["metadata"].(map[string]any)
		if ns, _ := meta["namespace"].(string); ns != p.namespace || !namespacedKind(obj) {
			return 0, nil
		}
	}
	r := &run{p: p, node: n, obj: obj, ctx: vars.NewContext()}
	r.ident.group, r.ident.version, r.ident.kind = gvk(obj)
	r.ident.nsLabels, r.ident.nsKnown = ns.labels(obj)
	for _, step := range []func() error{
		func() error { return r.ctx.SetObject(obj) },
		func() error { return r.ctx.SetOperation(operation) },
		func() error { return r.ctx.AddImages(obj) },
	} {
		if err := step(); err != nil {
			return 0, fmt.Errorf("build the JSON context: %w", err)
		}
	}
	applied := 0
	for _, cr := range p.rules {
		changed, err := r.rule(cr)
		if err != nil {
			return applied, &RuleError{Rule: cr.name, Field: cr.field, Err: err}
		}
		if !changed {
			continue
		}
		applied++
		if err := r.refresh(); err != nil {
			return applied, &RuleError{Rule: cr.name, Field: cr.field, Err: err}
		}
		if p.applyOne {
			break
		}
	}
	return applied, nil
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
// read request.object on it.
func (r *run) refresh() error {
	obj, err := jsonView(r.node)
	if err != nil {
		return err
	}
	defaultNamespace(obj)
	r.obj = obj
	return r.ctx.SetObject(obj)
}

// rule runs one rule: match, context, preconditions, then the patch or
// foreach. changed reports a pass; false is a skip.
func (r *run) rule(cr *compiledRule) (changed bool, err error) {
	o := r.object()
	if cr.usesNamespaceSelector && o.kind != "Namespace" && !r.ident.nsKnown {
		return false, fmt.Errorf("%s: namespaceSelector needs the labels of namespace %q, and the input has no Namespace object of that name: add it to the input (an offline render cannot read namespaces from a cluster)", cr.selectorField, o.namespace)
	}
	if !cr.rule.matches(o) {
		return false, nil
	}
	r.ctx.Checkpoint()
	defer r.ctx.Restore()
	if err := r.loadContext(cr.rule.Context); err != nil {
		return false, fmt.Errorf("failed to load context: %w", err)
	}
	ok, _, err := conditions.Evaluate(cr.rule.Preconditions, r.substituter())
	if err != nil {
		return false, fmt.Errorf("failed to evaluate preconditions: %w", err)
	}
	if !ok {
		return false, nil
	}
	if len(cr.rule.Mutate.ForEach) > 0 {
		changed, err := r.foreach(cr.rule.Mutate.ForEach, 0)
		if err != nil {
			return false, fmt.Errorf("failed to mutate elements: %w", err)
		}
		return changed, nil
	}
	doc, err := vars.Substitute(r.ctx, vars.DeepCopy(cr.doc))
	if err != nil {
		return false, fmt.Errorf("variable substitution failed: %w", err)
	}
	m, _ := doc.(map[string]any)
	mutate, _ := m["mutate"].(map[string]any)
	return r.patch(mutate)
}

// object is the current resource as rule matching reads it.
func (r *run) object() *object {
	o := &object{group: r.ident.group, version: r.ident.version, kind: r.ident.kind, nsLabels: r.ident.nsLabels}
	meta, _ := r.obj["metadata"].(map[string]any)
	o.name, _ = meta["name"].(string)
	if o.name == "" {
		o.name, _ = meta["generateName"].(string)
	}
	o.namespace, _ = meta["namespace"].(string)
	o.labels = stringMap(meta["labels"])
	o.annotations = stringMap(meta["annotations"])
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

// patch applies a substituted {patchStrategicMerge, patchesJson6902} pair.
func (r *run) patch(m map[string]any) (bool, error) {
	if psm, ok := m["patchStrategicMerge"]; ok && psm != nil {
		changed, err := smp.Apply(r.node, psm)
		if err != nil {
			return false, err
		}
		return changed, nil
	}
	jp, _ := m["patchesJson6902"].(string)
	if jp == "" {
		return false, nil
	}
	before, err := jsonView(r.node)
	if err != nil {
		return false, err
	}
	if err := jsonpatch.Apply(r.node, jp); err != nil {
		return false, fmt.Errorf("failed to patch resource: %w", err)
	}
	after, err := jsonView(r.node)
	if err != nil {
		return false, err
	}
	return !reflect.DeepEqual(before, after), nil
}

// foreach runs foreach entries in order (spec §8): the list is evaluated
// once per entry, elements run in the entry's order on the accumulated
// resource, and request.object is refreshed between top-level entries only.
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
		entryChanged, err := r.foreachEntry(i, &fe, list, order == "Descending", nesting)
		if err != nil {
			return changed, err
		}
		changed = changed || entryChanged
		if entryChanged && nesting == 0 { // nested entries run on one request.object
			if err := r.refresh(); err != nil {
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
			doc := map[string]any{}
			if fe.PatchStrategicMerge != nil {
				doc["patchStrategicMerge"] = vars.DeepCopy(fe.PatchStrategicMerge)
			}
			if fe.PatchesJSON6902 != "" {
				doc["patchesJson6902"] = fe.PatchesJSON6902
			}
			sub, err := vars.Substitute(r.ctx, doc)
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

var errNotObject = errors.New("the resource is not a JSON object")

// jsonView is the resource as Kyverno sees it: its JSON value.
func jsonView(n *yaml.RNode) (map[string]any, error) {
	b, err := jsonview.Marshal(n.YNode())
	if err != nil {
		return nil, fmt.Errorf("read the resource as JSON: %w", err)
	}
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

// wirePrefixes are the annotations orchestrators add to items; Kyverno
// never sees them.
var wirePrefixes = []string{"config.kubernetes.io/", "internal.config.kubernetes.io/", "config.k8s.io/", "kustomize.config.k8s.io/"}

// asKyvernoSeesIt makes the node what `kyverno apply` would hold while a
// policy runs: without the orchestrators' wire annotations, and with the
// namespace "default" when a namespaced resource has none. undo puts the
// annotations back and removes the default namespace again (when it is
// still "default"), so the output differs from the input only by what the
// policy changed.
func asKyvernoSeesIt(n *yaml.RNode) (undo func() error, err error) {
	type pair struct {
		at         int // index of the pair in the annotations
		key, value *yaml.Node
	}
	var wire []pair
	if annos := n.Field(yaml.MetadataField); annos != nil {
		if a := annos.Value.Field(yaml.AnnotationsField); a != nil && a.Value.YNode().Kind == yaml.MappingNode {
			m := a.Value.YNode()
			kept := m.Content[:0:0]
			for i := 0; i+1 < len(m.Content); i += 2 {
				if hasWirePrefix(m.Content[i].Value) {
					wire = append(wire, pair{i / 2, m.Content[i], m.Content[i+1]})
				} else {
					kept = append(kept, m.Content[i], m.Content[i+1])
				}
			}
			m.Content = kept
			if len(kept) == 0 && len(wire) > 0 {
				if _, err := n.Pipe(yaml.Lookup(yaml.MetadataField), yaml.FieldClearer{Name: yaml.AnnotationsField}); err != nil {
					return nil, err
				}
			}
		}
	}
	defaulted := false
	obj, err := jsonView(n)
	if err != nil {
		return nil, err
	}
	if meta, ok := obj["metadata"].(map[string]any); ok && namespacedKind(obj) {
		if ns, _ := meta["namespace"].(string); ns == "" {
			if err := n.PipeE(yaml.Lookup(yaml.MetadataField), yaml.SetField(yaml.NamespaceField, yaml.NewStringRNode("default"))); err != nil {
				return nil, err
			}
			defaulted = true
		}
	}
	return func() error {
		if defaulted && n.GetNamespace() == "default" {
			if _, err := n.Pipe(yaml.Lookup(yaml.MetadataField), yaml.FieldClearer{Name: yaml.NamespaceField}); err != nil {
				return err
			}
		}
		if len(wire) == 0 {
			return nil
		}
		a, err := n.Pipe(yaml.LookupCreate(yaml.MappingNode, yaml.MetadataField, yaml.AnnotationsField))
		if err != nil {
			return err
		}
		for _, w := range wire { // back where they were, as far as still possible
			c := a.YNode().Content
			at := min(2*w.at, len(c))
			a.YNode().Content = append(c[:at], append([]*yaml.Node{w.key, w.value}, c[at:]...)...)
		}
		return nil
	}, nil
}

func hasWirePrefix(key string) bool {
	for _, p := range wirePrefixes {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}
