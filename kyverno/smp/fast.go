// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package smp

import (
	"slices"
	"sort"
	"strings"
	"sync"

	"sigs.k8s.io/kustomize/kyaml/openapi"
	"sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/kustomize/kyaml/yaml/schema"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
)

// This file is the fast path of Apply: the patch shapes Kyverno policies
// use most, applied directly on the resource's nodes in one walk, without
// the JSON view, kyaml's walker or a copy of the resource. It handles
// exactly what it can prove gives Apply's result (the same nodes as
// printed, the same changed), and declines everything else, before
// touching the resource, so that the caller runs Apply:
//
//   - the patch is a map of plain keys and +() add-if-not-present
//     anchors whose values are strings, booleans and maps (no nulls,
//     numbers, empty collections, $-directives, other anchors, or strings
//     spelled like an anchor);
//   - one list is allowed: a one-element list of maps at an associative
//     list merged by "name" (containers, initContainers, ...), the shape of
//     a foreach over containers. An element with +() anchors is expanded
//     as upstream's preprocessing does (one template walked against every
//     element in turn, its +() decisions shared, a copy per element named
//     after it); an element without anchors must name the list's first
//     element;
//   - on the resource side, every map the patch enters and every value it
//     sets is a plain block map or a string/boolean scalar of the patch
//     value's type, without anchors, aliases, merge keys or duplicate
//     keys, and every subtree the patch does not mention is calm: kyaml's
//     walk over it changes nothing (see calm).
//
// The fast path's result is checked against Apply's by
// TestFastMatchesGeneral (kyverno conformance cases, generated scenarios
// and the benchmark's policies on the benchmark corpus) and FuzzFast.

// TryFast applies patch (a substituted patchStrategicMerge value) to
// resource when the fast path handles its shape, and reports ok. When ok is
// false the resource is untouched and the caller runs ApplyJSON.
func TryFast(resource *yaml.RNode, patch any) (changed, ok bool) {
	changed, ok, _ = TryFastEdits(resource, patch)
	return changed, ok
}

// Edit is one place where the fast path changed the resource's JSON
// value: the scalar at Path took a new value, or the map at Path gained
// the keys Added. Path holds map keys (string) and list indexes (int) from
// the resource's root; Node is the scalar or the map, as edited.
type Edit struct {
	Path  []any
	Node  *yaml.Node
	Added []string
}

// TryFastEdits is TryFast that also reports, when it changed the resource,
// every place whose JSON value changed (a caller holding the resource's
// JSON value can bring it up to date from them instead of reading the
// whole resource again). A scalar set to the value it had is not an edit.
func TryFastEdits(resource *yaml.RNode, patch any) (changed, ok bool, edits []Edit) {
	return TryFastCalm(resource, patch, nil)
}

// TryFastCalm is TryFastEdits remembering in memo (nil: nowhere) what it
// found calm, across the patches applied to the resource.
func TryFastCalm(resource *yaml.RNode, patch any, memo *Calm) (changed, ok bool, edits []Edit) {
	root := resource.YNode()
	pm, isMap := patch.(map[string]any)
	if !isMap || root == nil || root.Kind != yaml.MappingNode || root.Anchor != "" {
		return false, false, nil
	}
	tree, ok := patchTree(pm)
	if !ok {
		return false, false, nil
	}
	s, ok := rootSchema(root)
	if !ok {
		return false, false, nil
	}
	p := fastPlan{memo: memo}
	if !p.mergeMap(root, tree, s, true) {
		return false, false, nil
	}
	if !p.changed {
		return false, true, nil
	}
	p.apply()
	normalise(root)
	for _, st := range p.sets {
		memo.forgetPath(root, st.path)
		if len(st.path) == 1 && (st.path[0] == yaml.APIVersionField || st.path[0] == yaml.KindField) {
			memo.Forget() // the root schema, which every part was judged with, changed
		}
	}
	for _, a := range p.adds {
		memo.forgetPath(root, a.path)
		if len(a.path) == 0 && slices.ContainsFunc(a.fields, func(f pfield) bool { return f.key == yaml.APIVersionField || f.key == yaml.KindField }) {
			memo.Forget()
		}
	}
	for _, st := range p.sets {
		if st.changed {
			edits = append(edits, Edit{Path: st.path, Node: st.n})
		}
	}
	for _, a := range p.adds {
		keys := make([]string, len(a.fields))
		for i, f := range a.fields {
			keys[i] = f.key
		}
		edits = append(edits, Edit{Path: a.path, Node: a.m, Added: keys})
	}
	return true, true, edits
}

// pnode is a patch value: a string, a boolean, a map (fields in the order
// of their raw keys, as the patch's JSON text has them) or a list of maps.
type pnode struct {
	kind   byte // 's', 'b', 'm', 'l'
	str    string
	b      bool
	fields []pfield
	list   []*pnode
}

type pfield struct {
	key string // as written, maybe a +() anchor
	v   *pnode
}

// patchTree converts a patch map, declining what the fast path does not
// handle.
func patchTree(m map[string]any) (*pnode, bool) {
	if len(m) == 0 {
		return nil, false
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	n := &pnode{kind: 'm', fields: make([]pfield, 0, len(keys))}
	for _, k := range keys {
		if !fastKey(k) {
			return nil, false
		}
		v, ok := patchValue(m[k])
		if !ok {
			return nil, false
		}
		n.fields = append(n.fields, pfield{k, v})
	}
	// A +(k) beside a plain k would make two keys k after preprocessing.
	for _, f := range n.fields {
		if a := parseAnchor(f.key); a != nil && m[a.key] != nil {
			return nil, false
		}
	}
	return n, true
}

func patchValue(v any) (*pnode, bool) {
	switch v := v.(type) {
	case string:
		if parseAnchor(v) != nil {
			return nil, false // upstream counts "(x)" values as anchors
		}
		return &pnode{kind: 's', str: v}, true
	case bool:
		return &pnode{kind: 'b', b: v}, true
	case map[string]any:
		return patchTree(v)
	case []any:
		if len(v) == 0 {
			return nil, false
		}
		n := &pnode{kind: 'l'}
		for _, e := range v {
			em, ok := e.(map[string]any)
			if !ok {
				return nil, false
			}
			t, ok := patchTree(em)
			if !ok {
				return nil, false
			}
			n.list = append(n.list, t)
		}
		return n, true
	}
	return nil, false
}

// fastKey accepts plain keys and exactly spelled +() anchors.
func fastKey(k string) bool {
	if k == "" || k[0] == '$' || k == "<<" || !shortKey(k) {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < 0x20 || k[i] > 0x7e {
			return false // the general path parses such JSON with go-yaml
		}
	}
	a := parseAnchor(k)
	if a == nil {
		return !strings.ContainsAny(k, "()")
	}
	return isAdd(a) && a.String() == k && parseAnchor(a.key) == nil && !strings.ContainsAny(a.key, "()")
}

// shortKey reports a key go-yaml reads back from JSON: a flow map's
// implicit keys are limited to 1024 characters, so the general path fails
// on longer ones.
func shortKey(k string) bool { return len(k) <= 1000 }

// hasAdd reports a +() key anywhere in n.
func (n *pnode) hasAdd() bool {
	for _, f := range n.fields {
		if parseAnchor(f.key) != nil || f.v.hasAdd() {
			return true
		}
	}
	for _, e := range n.list {
		if e.hasAdd() {
			return true
		}
	}
	return false
}

// hasList reports a list anywhere in n.
func (n *pnode) hasList() bool {
	if n.kind == 'l' {
		return true
	}
	for _, f := range n.fields {
		if f.v.hasList() {
			return true
		}
	}
	return false
}

func (n *pnode) clone() *pnode {
	c := *n
	if n.fields != nil {
		c.fields = make([]pfield, len(n.fields))
		for i, f := range n.fields {
			c.fields[i] = pfield{f.key, f.v.clone()}
		}
	}
	if n.list != nil {
		c.list = make([]*pnode, len(n.list))
		for i, e := range n.list {
			c.list[i] = e.clone()
		}
	}
	return &c
}

// field returns the value of key k in map n.
func (n *pnode) field(k string) *pnode {
	for _, f := range n.fields {
		if f.key == k {
			return f.v
		}
	}
	return nil
}

// fastPlan collects the edits of a patch before any is made.
type fastPlan struct {
	changed bool // the JSON value changes
	sets    []scalarSet
	adds    []fieldAdd
	empties []*yaml.Node // empty dest maps that receive fields: their style goes
	at      []any        // the path of the value being planned (keys, indexes)
	memo    *Calm
}

type scalarSet struct {
	n       *yaml.Node
	str     bool
	v       string
	changed bool  // the JSON value changes
	path    []any // where n is
}

type fieldAdd struct {
	m      *yaml.Node
	fields []pfield // final names, in the order kyaml appends them
	path   []any    // where m is
}

// here is a copy of the path being planned.
func (p *fastPlan) here() []any { return slices.Clone(p.at) }

// mergeMap plans merging patch map pm into dest map d, with schema s.
// Anchors of pm are resolved against d (pm is not modified). root marks the
// resource's root map.
func (p *fastPlan) mergeMap(d *yaml.Node, pm *pnode, s *openapi.ResourceSchema, root bool) bool {
	if !plainMap(d) || (s == nil && !root && hasTypeKeys(d)) {
		return false
	}
	if len(d.Content) == 0 {
		p.empties = append(p.empties, d)
	}
	// The effective fields: +(k) dropped when d has k, renamed otherwise;
	// values emptied by that dropped in turn.
	var added []pfield
	var patched []*yaml.Node // values of d the patch merges into
	for _, f := range pm.fields {
		name := f.key
		if a := parseAnchor(f.key); a != nil {
			if lookup(d, a.key) != nil {
				continue
			}
			name = a.key
		}
		dv := lookup(d, name)
		if dv == nil {
			v := resolved(f.v)
			if v == nil {
				continue
			}
			if v.hasList() {
				return false // a list the resource lacks: kyaml's schema decides
			}
			added = append(added, pfield{name, v})
			continue
		}
		if dv == errDup {
			return false
		}
		p.at = append(p.at, name)
		ok, used := p.mergeValue(dv, f.v, fieldSchema(s, name))
		p.at = p.at[:len(p.at)-1]
		if !ok {
			return false
		}
		if used {
			patched = append(patched, dv)
		}
	}
	// Every value the patch leaves alone must be calm.
	for i := 1; i < len(d.Content); i += 2 {
		if slices.Contains(patched, d.Content[i]) {
			continue
		}
		if !p.memo.calmField(d.Content[i], s, d.Content[i-1].Value) {
			return false
		}
	}
	if len(added) > 0 {
		sort.SliceStable(added, func(i, j int) bool { return added[i].key < added[j].key })
		p.adds = append(p.adds, fieldAdd{d, added, p.here()})
		p.changed = true
	}
	return true
}

// mergeValue plans merging patch value v into dest value dv; used is false
// when anchors emptied v (the key then counts as not patched).
func (p *fastPlan) mergeValue(dv *yaml.Node, v *pnode, s *openapi.ResourceSchema) (ok, used bool) {
	if dv.Anchor != "" || dv.Kind == yaml.AliasNode {
		return false, false
	}
	switch v.kind {
	case 's', 'b':
		if dv.Kind != yaml.ScalarNode {
			return false, false
		}
		tag := shortTag(dv)
		if v.kind == 's' {
			if tag != yaml.NodeTagString {
				return false, false
			}
			p.sets = append(p.sets, scalarSet{dv, true, v.str, dv.Value != v.str, p.here()})
			p.changed = p.changed || dv.Value != v.str
			return true, true
		}
		if tag != yaml.NodeTagBool {
			return false, false
		}
		cur, known := boolValue(dv.Value)
		if !known {
			return false, false
		}
		p.sets = append(p.sets, scalarSet{dv, false, boolText(v.b), cur != v.b, p.here()})
		p.changed = p.changed || cur != v.b
		return true, true
	case 'm':
		if dv.Kind != yaml.MappingNode {
			return false, false
		}
		if !p.nonEmptyAgainst(v, dv) {
			return true, false
		}
		return p.mergeMap(dv, v, s, false), true
	case 'l':
		return p.mergeList(dv, v, s), true
	}
	return false, false
}

// nonEmptyAgainst reports whether map patch v keeps a field once its +()
// keys are resolved against d (upstream drops a map left empty).
func (p *fastPlan) nonEmptyAgainst(v *pnode, d *yaml.Node) bool {
	for _, f := range v.fields {
		name := f.key
		if a := parseAnchor(f.key); a != nil {
			if lookup(d, a.key) != nil {
				continue
			}
			name = a.key
		}
		if f.v.kind != 'm' {
			return true
		}
		dv := lookup(d, name)
		if dv == nil || dv == errDup || dv.Kind != yaml.MappingNode {
			if resolved(f.v) != nil {
				return true
			}
			continue
		}
		if p.nonEmptyAgainst(f.v, dv) {
			return true
		}
	}
	return false
}

// mergeList plans the one list shape handled: one map element merged into
// an associative list by name.
func (p *fastPlan) mergeList(d *yaml.Node, v *pnode, s *openapi.ResourceSchema) bool {
	if d.Kind != yaml.SequenceNode || d.Style != 0 || d.Anchor != "" || len(v.list) != 1 || len(d.Content) == 0 {
		return false
	}
	if s == nil || !schema.IsAssociative(s, nil, false) {
		return false
	}
	if key, ok := mergeKey(nil, s); !ok || key != "name" {
		return false
	}
	if _, ok := keyValues(d, "name"); !ok {
		return false
	}
	es := elementSchema(s)
	for _, e := range d.Content {
		if !plainMap(e) {
			return false
		}
		if n := lookup(e, "name"); n == nil || n == errDup || n.Anchor != "" || shortTag(n) != yaml.NodeTagString {
			return false
		}
	}
	elem := v.list[0]
	if !elem.hasAdd() {
		// A plain element: merged into the element of its name, which must
		// come first (kyaml puts the elements the patch names first).
		name := elem.field("name")
		if name == nil || name.kind != 's' || lookup(d.Content[0], "name").Value != name.str {
			return false
		}
		p.at = append(p.at, 0)
		ok := p.mergeMap(d.Content[0], elem, es, false)
		p.at = p.at[:len(p.at)-1]
		if !ok {
			return false
		}
		for _, e := range d.Content[1:] {
			if !p.memo.calm(e, es) {
				return false
			}
		}
		return true
	}
	// Upstream's expansion: one template, walked against each element in
	// turn (its +() decisions stick), and per element a copy without
	// anchors named after it. All elements are named, so the merged list
	// keeps its order.
	tmpl := elem.clone()
	for i, target := range d.Content {
		if !walkAdds(tmpl, target) {
			return false
		}
		cp := resolved(tmpl)
		if cp == nil {
			return false // upstream adds no copy: the element would move
		}
		setName(cp, lookup(target, "name").Value)
		p.at = append(p.at, i)
		ok := p.mergeMap(target, cp, es, false)
		p.at = p.at[:len(p.at)-1]
		if !ok {
			return false
		}
	}
	return true
}

// walkAdds resolves the +() keys of the template map t against resource
// map r (nil: absent) in place, as preprocessing does: a +(k) whose k r
// has is dropped, the others become plain k, and plain map keys are walked
// against r's values.
func walkAdds(t *pnode, r *yaml.Node) bool {
	if r != nil && (r.Kind != yaml.MappingNode || r.Anchor != "") {
		return false
	}
	kept := t.fields[:0]
	for _, f := range t.fields {
		if a := parseAnchor(f.key); a != nil {
			if r != nil && lookup(r, a.key) != nil {
				continue
			}
			f.key = a.key
		}
		kept = append(kept, f)
	}
	t.fields = kept
	for _, f := range t.fields {
		switch f.v.kind {
		case 'm':
			var rv *yaml.Node
			if r != nil {
				rv = lookup(r, f.key)
				if rv == errDup {
					return false
				}
			}
			if rv != nil && rv.Kind != yaml.MappingNode {
				return false
			}
			if !walkAdds(f.v, rv) {
				return false
			}
		case 'l':
			return false
		}
	}
	return true
}

// setName sets the "name" field of map n (appended when missing).
func setName(n *pnode, name string) {
	for i, f := range n.fields {
		if f.key == "name" {
			n.fields[i].v = &pnode{kind: 's', str: name}
			return
		}
	}
	n.fields = append(n.fields, pfield{"name", &pnode{kind: 's', str: name}})
}

// resolved is a patch value for a place the resource lacks: every +() key
// un-anchored, maps left empty dropped (nil when nothing is left).
func resolved(v *pnode) *pnode {
	if v.kind != 'm' {
		return v
	}
	out := &pnode{kind: 'm'}
	for _, f := range v.fields {
		name := f.key
		if a := parseAnchor(f.key); a != nil {
			name = a.key
		}
		if c := resolved(f.v); c != nil {
			out.fields = append(out.fields, pfield{name, c})
		}
	}
	if len(out.fields) == 0 {
		return nil
	}
	return out
}

// errDup marks a key found twice.
var errDup = &yaml.Node{}

// lookup is the value of key k in map m: nil when absent, errDup when the
// key is there twice.
func lookup(m *yaml.Node, k string) *yaml.Node {
	var v *yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == k {
			if v != nil {
				return errDup
			}
			v = m.Content[i+1]
		}
	}
	return v
}

// plainMap reports a block map without anchors, aliases, merge keys or
// keys that are not strings.
func plainMap(m *yaml.Node) bool {
	if m.Kind != yaml.MappingNode || m.Anchor != "" {
		return false
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Anchor != "" || shortTag(k) != yaml.NodeTagString || !shortKey(k.Value) || v.Kind == yaml.AliasNode {
			return false
		}
	}
	return true
}

// hasTypeKeys reports an apiVersion or kind key: kyaml looks a nested
// object's schema up by them.
func hasTypeKeys(m *yaml.Node) bool {
	return lookup(m, yaml.APIVersionField) != nil || lookup(m, yaml.KindField) != nil
}

// calm reports that kyaml's merge walk leaves the subtree n (which the
// patch does not mention) as it is: like quiet (trim.go), but without
// regard to comments, which Apply takes off before the walk, and
// accepting associative lists whose elements have distinct names and are
// calm themselves.
func (c *Calm) calm(n *yaml.Node, s *openapi.ResourceSchema) bool {
	if n.Anchor != "" {
		return false
	}
	if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
		if c.has(n) {
			return true
		}
		if !c.walk(n, s) {
			return false
		}
		c.add(n)
		return true
	}
	return c.walk(n, s)
}

// walk is calm without the memory for n itself.
func (c *Calm) walk(n *yaml.Node, s *openapi.ResourceSchema) bool {
	switch n.Kind {
	case yaml.ScalarNode:
		tag := shortTag(n)
		switch {
		case tag == yaml.NodeTagNull:
			return false
		case tag == yaml.NodeTagString && n.Style == 0:
			return !yaml11NonString(n)
		case tag == yaml.NodeTagString || tag == yaml.NodeTagBool || tag == yaml.NodeTagInt || tag == yaml.NodeTagFloat:
			return true
		}
		return false
	case yaml.SequenceNode:
		assoc, _ := listSchema(s)
		if !assoc {
			return true
		}
		if n.Style != 0 || !distinctKeys(n, s) {
			return false
		}
		es := elementSchema(s)
		for _, e := range n.Content {
			if !c.calm(e, es) {
				return false
			}
		}
		return true
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode || k.Anchor != "" || shortTag(k) != yaml.NodeTagString || !shortKey(k.Value) {
				return false
			}
			if s == nil && (k.Value == yaml.APIVersionField || k.Value == yaml.KindField) {
				return false
			}
			if repeatedKey(n, i) {
				return false
			}
			if !c.calmField(n.Content[i+1], s, k.Value) {
				return false
			}
		}
		return true
	}
	return false
}

// calmField is calm for the value v of field name of a map of schema s;
// a scalar needs no schema, so none is looked up.
func (c *Calm) calmField(v *yaml.Node, s *openapi.ResourceSchema, name string) bool {
	if v.Kind == yaml.ScalarNode {
		return c.calm(v, nil)
	}
	if c.has(v) {
		return true // its schema need not be looked up
	}
	return c.calm(v, fieldSchema(s, name))
}

// Calm remembers, across the patches the fast path applies to one
// resource, the maps and lists it found calm, so that a part of the
// resource no patch enters is walked once, not once per patch.
// TryFastEdits forgets the maps and lists on the paths it edits; the
// caller calls Forget when anything else edits the resource. A nil *Calm
// remembers nothing.
type Calm struct {
	known map[*yaml.Node]struct{}
}

func (c *Calm) has(n *yaml.Node) bool {
	if c == nil {
		return false
	}
	_, ok := c.known[n]
	return ok
}

func (c *Calm) add(n *yaml.Node) {
	if c == nil {
		return
	}
	if c.known == nil {
		c.known = make(map[*yaml.Node]struct{}, 64)
	}
	c.known[n] = struct{}{}
}

// Forget forgets everything (after an edit other than the fast path's).
func (c *Calm) Forget() {
	if c != nil {
		clear(c.known)
	}
}

// ForgetNode forgets n (whose contents changed).
func (c *Calm) ForgetNode(n *yaml.Node) {
	if c != nil {
		delete(c.known, n)
	}
}

// forgetPath forgets the maps and lists from root along path.
func (c *Calm) forgetPath(root *yaml.Node, path []any) {
	if c == nil || len(c.known) == 0 {
		return
	}
	n := root
	delete(c.known, n)
	for _, step := range path {
		switch k := step.(type) {
		case string:
			n = lookup(n, k)
		case int:
			if n.Kind != yaml.SequenceNode || k >= len(n.Content) {
				return
			}
			n = n.Content[k]
		}
		if n == nil || n == errDup {
			return
		}
		delete(c.known, n)
	}
}

// distinctKeys reports that every element of associative list n is a map
// with a non-empty first merge key and that no two elements have the same
// merge key values (kyaml then walks each element alone, in place).
func distinctKeys(n *yaml.Node, s *openapi.ResourceSchema) bool {
	_, keys := listSchema(s)
	if len(keys) == 0 {
		return false
	}
	var buf [16]string
	seen := buf[:0]
	for _, e := range n.Content {
		if e.Kind != yaml.MappingNode {
			return false
		}
		if len(keys) == 1 { // the usual case: the id is the key's value
			v := lookup(e, keys[0])
			if v == nil || v == errDup || v.Kind != yaml.ScalarNode || v.Value == "" || shortTag(v) == yaml.NodeTagNull || slices.Contains(seen, v.Value) {
				return false
			}
			seen = append(seen, v.Value)
			continue
		}
		var id strings.Builder
		for i, k := range keys {
			v := lookup(e, k)
			switch {
			case v == nil && i > 0:
			case v == nil || v == errDup || v.Kind != yaml.ScalarNode || v.Value == "" || shortTag(v) == yaml.NodeTagNull:
				return false
			default:
				id.WriteString(v.Value)
			}
			id.WriteByte(0)
		}
		if slices.Contains(seen, id.String()) {
			return false
		}
		seen = append(seen, id.String())
	}
	return true
}

// yaml11NonString is yaml.IsYaml1_1NonString without its YAML 1.1 parse
// where the first characters settle it (yamlnode.YAML11NonString).
func yaml11NonString(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && yamlnode.YAML11NonString(n.Value)
}

// shortTag is n.ShortTag() without resolving a tag the parser already set.
func shortTag(n *yaml.Node) string {
	switch n.Tag {
	case yaml.NodeTagString, yaml.NodeTagBool, yaml.NodeTagInt, yaml.NodeTagFloat, yaml.NodeTagNull, yaml.NodeTagMap, yaml.NodeTagSeq:
		return n.Tag
	}
	return n.ShortTag()
}

func boolValue(s string) (v, ok bool) {
	switch s {
	case "true", "True", "TRUE":
		return true, true
	case "false", "False", "FALSE":
		return false, true
	}
	return false, false
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// apply makes the planned edits as the comment-keeping merge makes them.
func (p *fastPlan) apply() {
	for _, m := range p.empties {
		m.Style = 0
	}
	for _, s := range p.sets {
		if s.str {
			yamlpatch.SetString(s.n, s.v)
		} else {
			s.n.Tag, s.n.Value, s.n.Style = yaml.NodeTagBool, s.v, 0
		}
	}
	for _, a := range p.adds {
		for _, f := range a.fields {
			v := newNode(f.v)
			k := &yaml.Node{Kind: yaml.ScalarNode, Value: f.key, Style: keyStyle(f.key)}
			a.m.Content = append(a.m.Content, k, v)
		}
	}
}

// keyStyle is the style the merge gives a new key: that of the patch's
// restyled key node.
func keyStyle(k string) yaml.Style {
	if s, ok := keyStyles.Load(k); ok {
		return s.(yaml.Style)
	}
	n := &yaml.Node{Kind: yaml.ScalarNode}
	yamlpatch.SetString(n, k)
	keyStyles.Store(k, n.Style)
	return n.Style
}

// keyStyles caches keyStyle: keys come from policies, a few per run.
var keyStyles sync.Map // string -> yaml.Style

// newNode builds the node the merge adds for a patch value (restyle's
// look, and kyaml's FieldSetter quoting of YAML 1.1 non-strings).
func newNode(v *pnode) *yaml.Node {
	switch v.kind {
	case 's':
		n := &yaml.Node{Kind: yaml.ScalarNode}
		yamlpatch.SetString(n, v.str)
		if n.Style == 0 && yaml11NonString(n) {
			n.Style = yaml.DoubleQuotedStyle
		}
		return n
	case 'b':
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagBool, Value: boolText(v.b)}
	}
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: yaml.NodeTagMap}
	for _, f := range v.fields {
		k := &yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagString}
		yamlpatch.SetString(k, f.key)
		m.Content = append(m.Content, k, newNode(f.v))
	}
	return m
}

// normalise does to the whole tree what comments.restore does after the
// general merge: empty collections in flow style, line comments of map
// entries where the encoder prints them.
func normalise(n *yaml.Node) {
	for _, c := range n.Content {
		normalise(c)
	}
	if n.Kind == yaml.MappingNode {
		placeMapComments(n)
	}
}

// Schemas: kyaml's ResourceSchema.Field resolves references on every
// call; the fast path caches the lookups for the life of the process.
var schemaCache struct {
	sync.RWMutex
	m map[schemaKey]*openapi.ResourceSchema // nil: kyaml has none
}

type schemaKey struct {
	s    *openapi.ResourceSchema
	name string // a field name; for a root schema, apiVersion
	kind string // a root schema's kind
}

func fieldSchema(s *openapi.ResourceSchema, name string) *openapi.ResourceSchema {
	if s == nil {
		return nil
	}
	return cachedSchema(schemaKey{s: s, name: name}, func() *openapi.ResourceSchema { return s.Field(name) })
}

func elementSchema(s *openapi.ResourceSchema) *openapi.ResourceSchema {
	if s == nil {
		return nil
	}
	return cachedSchema(schemaKey{s: s, kind: "[]"}, s.Elements)
}

// listSchema is what calm reads of a list's schema s, remembered per
// schema: schema.IsAssociative(s, nil, false) and the merge keys
// (PatchStrategyAndKeyList).
func listSchema(s *openapi.ResourceSchema) (associative bool, keys []string) {
	if s == nil {
		return schema.IsAssociative(s, nil, false), nil
	}
	if v, ok := listSchemas.Load(s); ok {
		l := v.(*listInfo)
		return l.associative, l.keys
	}
	l := &listInfo{associative: schema.IsAssociative(s, nil, false)}
	_, l.keys = s.PatchStrategyAndKeyList()
	listSchemas.Store(s, l)
	return l.associative, l.keys
}

type listInfo struct {
	associative bool
	keys        []string
}

var listSchemas sync.Map // *openapi.ResourceSchema -> *listInfo

// rootSchema is kyaml's schema for the resource's apiVersion and kind, as
// its walker finds it; ok is false when they are not plain strings.
func rootSchema(root *yaml.Node) (*openapi.ResourceSchema, bool) {
	av, k := lookup(root, yaml.APIVersionField), lookup(root, yaml.KindField)
	if av == errDup || k == errDup {
		return nil, false
	}
	if av == nil || k == nil {
		return nil, true
	}
	if av.Kind != yaml.ScalarNode || k.Kind != yaml.ScalarNode || shortTag(av) != yaml.NodeTagString || shortTag(k) != yaml.NodeTagString {
		return nil, false
	}
	if av.Value == "" || k.Value == "" {
		return nil, true
	}
	return cachedSchema(schemaKey{name: av.Value, kind: k.Value}, func() *openapi.ResourceSchema {
		return openapi.SchemaForResourceType(yaml.TypeMeta{APIVersion: av.Value, Kind: k.Value})
	}), true
}

func cachedSchema(key schemaKey, find func() *openapi.ResourceSchema) *openapi.ResourceSchema {
	schemaCache.RLock()
	s, ok := schemaCache.m[key]
	schemaCache.RUnlock()
	if ok {
		return s
	}
	s = find()
	schemaCache.Lock()
	if schemaCache.m == nil {
		schemaCache.m = map[schemaKey]*openapi.ResourceSchema{}
	}
	schemaCache.m[key] = s
	schemaCache.Unlock()
	return s
}
