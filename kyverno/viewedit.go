// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyverno

import (
	"maps"
	"reflect"
	"slices"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/kyverno/smp"
)

// Keeping the JSON view current. Rules read the resource as a JSON value
// (request.object, matching, foreach's net effect), and reading the whole
// node again after each patch costs as much as the patch. A patch the fast
// path applies says where the value changed (smp.Edit), so the view is
// brought up to date there instead: the maps and lists on the edits'
// paths are copied, everything else is shared with the view before the
// patch, which stays as it was (the context and its checkpoints may hold
// it as request.object; it is never edited in place).

// withEdits returns view with the fast path's edits. ok is false when an
// edit's path does not lead through view as the edit says or a new value
// cannot be read from its node as ObjectValue would read it; the caller
// then reads the whole resource again.
func withEdits(view map[string]any, edits []smp.Edit) (map[string]any, bool) {
	u := viewUpdate{}
	var root any = view
	for _, e := range edits {
		var ok bool
		if root, ok = u.at(root, e.Path, 0, func(old any) (any, bool) { return u.leaf(old, e, len(e.Path)) }); !ok {
			return nil, false
		}
	}
	m, ok := root.(map[string]any)
	return m, ok
}

// viewUpdate remembers the maps and lists one withEdits made, so that
// each is copied once however many edits pass through it.
type viewUpdate struct {
	fresh []uintptr
}

// at returns v with the value at path replaced by leaf's result, copying
// the maps and lists on the way.
func (u *viewUpdate) at(v any, path []any, depth int, leaf func(any) (any, bool)) (any, bool) {
	if depth == len(path) {
		return leaf(v)
	}
	switch k := path[depth].(type) {
	case string:
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		child, ok := m[k]
		if !ok {
			return nil, false
		}
		nc, ok := u.at(child, path, depth+1, leaf)
		if !ok {
			return nil, false
		}
		m = u.ownMap(m)
		m[k] = nc
		return m, true
	case int:
		l, ok := v.([]any)
		if !ok || k < 0 || k >= len(l) {
			return nil, false
		}
		nc, ok := u.at(l[k], path, depth+1, leaf)
		if !ok {
			return nil, false
		}
		l = u.ownList(l)
		l[k] = nc
		return l, true
	}
	return nil, false
}

// leaf is the new value of the place edit e changed, whose old value is
// old: the scalar read from its node, or the map with the added keys.
func (u *viewUpdate) leaf(old any, e smp.Edit, depth int) (any, bool) {
	if e.Added == nil {
		return yamlnode.ValueInt64(e.Node, depth)
	}
	m, ok := old.(map[string]any)
	if !ok {
		return nil, false
	}
	m = u.ownMap(m)
	c := e.Node.Content
	for _, k := range e.Added {
		if _, there := m[k]; there {
			return nil, false
		}
		found := false
		for i := 0; i+1 < len(c); i += 2 {
			if c[i].Value != k {
				continue
			}
			if found {
				return nil, false // a repeated key: the whole read decides
			}
			found = true
			v, ok := yamlnode.ValueInt64(c[i+1], depth+1)
			if !ok {
				return nil, false
			}
			m[k] = v
		}
		if !found {
			return nil, false
		}
	}
	return m, true
}

func (u *viewUpdate) ownMap(m map[string]any) map[string]any {
	if m == nil {
		m = map[string]any{}
		u.fresh = append(u.fresh, mapID(m))
		return m
	}
	if slices.Contains(u.fresh, mapID(m)) {
		return m
	}
	c := maps.Clone(m)
	u.fresh = append(u.fresh, mapID(c))
	return c
}

func (u *viewUpdate) ownList(l []any) []any {
	if slices.Contains(u.fresh, listID(l)) {
		return l
	}
	c := slices.Clone(l)
	u.fresh = append(u.fresh, listID(c))
	return c
}

// mapID and listID identify a map and a non-empty list by where their
// contents are.
func mapID(m map[string]any) uintptr { return reflect.ValueOf(m).Pointer() }
func listID(l []any) uintptr         { return reflect.ValueOf(l).Pointer() }

// viewShare hands the view one kyverno.io policy leaves to the next one run
// on the same resource: Set.Rules (and Reinvocation.Rules) make one per
// resource for its policies' steps, which run one after the other with
// nothing between them that edits the resource. The policy's undo (the
// wire annotations back, the default namespace off) and the next one's
// asKyvernoSeesIt (the same taken off and put on again) leave the node as
// the view describes it, except where the policy itself wrote a wire
// annotation or emptied the namespace: such a view is not kept.
//
// What the fast path found calm in the node (smp.Calm) is handed on with
// it, less the root, metadata and annotations, which the undo and the next
// asKyvernoSeesIt edit.
type viewShare struct {
	node *yaml.Node
	view map[string]any
	calm *smp.Calm
}

// take returns the view kept for n's node, if any, and forgets it, and
// the memory of calm parts for the policy to run (always one).
func (s *viewShare) take(n *yaml.RNode) (map[string]any, *smp.Calm) {
	if !keepViews {
		return nil, nil
	}
	if s == nil || s.view == nil || s.node != n.YNode() {
		if s != nil {
			s.node, s.view, s.calm = nil, nil, nil
		}
		return nil, &smp.Calm{}
	}
	v, calm := s.view, s.calm
	s.node, s.view, s.calm = nil, nil, nil
	root := n.YNode()
	calm.ForgetNode(root)
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != yaml.MetadataField {
			continue
		}
		meta := root.Content[i+1]
		calm.ForgetNode(meta)
		for j := 0; j+1 < len(meta.Content); j += 2 {
			calm.ForgetNode(meta.Content[j+1]) // annotations, namespace
		}
	}
	return v, calm
}

// keep records view (nil: none) as n's view once the policy is done, with
// calm.
func (s *viewShare) keep(n *yaml.RNode, view map[string]any, calm *smp.Calm) {
	if s == nil {
		return
	}
	s.node, s.view, s.calm = nil, nil, nil
	if view == nil {
		return
	}
	meta, ok := view["metadata"].(map[string]any)
	if !ok {
		return
	}
	if a, ok := meta["annotations"].(map[string]any); ok {
		for k := range a {
			if isWireAnnotation(k) {
				return
			}
		}
	}
	if ns, _ := meta["namespace"].(string); ns == "" && namespacedKind(view) {
		return
	}
	s.node, s.view, s.calm = n.YNode(), view, calm
}

// fromShared returns shared when it can be the view of the node whose
// metadata is meta (wire annotations already taken off), and whether the
// node's namespace is empty (asKyvernoSeesIt then writes "default"); nil
// when shared is nil or the namespace disagrees with it.
func fromShared(shared map[string]any, meta *yaml.RNode) (map[string]any, bool) {
	if shared == nil {
		return nil, false
	}
	ns := ""
	if f := meta.Field(yaml.NamespaceField); f != nil {
		v, ok := yamlnode.Value(f.Value.YNode(), 2)
		if !ok {
			return nil, false
		}
		ns, _ = v.(string)
	}
	empty := ns == ""
	if empty && namespacedKind(shared) {
		ns = "default"
	}
	m, _ := shared["metadata"].(map[string]any)
	if m == nil {
		return nil, false
	}
	if have, _ := m["namespace"].(string); have != ns {
		return nil, false
	}
	return shared, empty
}

// checkShared, when set (by TestIncrementalView), checks each view taken from
// the previous policy against the node read again.
var checkShared func(n *yaml.RNode, view map[string]any, nsEmpty bool)
