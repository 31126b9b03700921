// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package resourcelist

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

// List is a ResourceList read and checked: every item a mapping with an
// identity, no alias left in any tree, no duplicate key, no duplicate item.
type List struct {
	APIVersion, Kind string
	FunctionConfig   *yaml.RNode // nil when the list has none
	Items            []*yaml.RNode
	// Sources holds each item's text, when the items were split out of the
	// input text (nil otherwise, or nil for an item whose aliases were
	// expanded): an item no one changes can be written back as it came.
	Sources [][]byte
}

// Source returns item i's text in the input, or nil.
func (l *List) Source(i int) []byte {
	if l.Sources == nil {
		return nil
	}
	return l.Sources[i]
}

// Options adapts the reader to the function that reads the list.
type Options struct {
	// FunctionConfig says what the function takes as its functionConfig,
	// for the message that rejects one that is not a mapping: it completes
	// "expected ...", e.g. "a mapping, a ConfigMap or an example.com/v1
	// Settings". Empty means "a mapping".
	FunctionConfig string
}

// expectedFunctionConfig completes the message that rejects a
// functionConfig that is not a mapping.
func (o Options) expectedFunctionConfig() string {
	if o.FunctionConfig == "" {
		return "a mapping"
	}
	return o.FunctionConfig
}

// The ResourceList's API, as the KRM functions specification defines it.
var resourceListAPIVersions = []string{kio.ResourceListAPIVersion, "config.kubernetes.io/v1alpha1"}

// Errors are the problems of an input, as the results a failed run
// reports: the error Parse and ReadAll return when the input fails a check.
type Errors []*framework.Result

// Error joins the messages.
func (e Errors) Error() string {
	msgs := make([]string, len(e))
	for i, r := range e {
		msgs[i] = r.Message
	}
	return strings.Join(msgs, "; ")
}

// listError reports a problem with the input as a whole.
func listError(format string, args ...any) Errors {
	return Errors{{Severity: framework.Error, Message: fmt.Sprintf(format, args...)}}
}

// ReadAll reads the input, at most MaxInputBytes of it: a larger input is
// an error (Errors) that says so, a failed read one that wraps the reader's
// error.
func ReadAll(r io.Reader) ([]byte, error) {
	var data []byte
	var err error
	if p, ok := r.(*Preread); ok && !p.served && !p.partly {
		p.served = true
		data, err = p.data, p.err
	} else {
		data, err = readInput(r, MaxInputBytes+1)
	}
	if err != nil {
		return nil, fmt.Errorf("read the input ResourceList: %w", err)
	}
	if len(data) > MaxInputBytes {
		return nil, listError("the input is larger than %d MiB, the most the function reads: split the package, or render it in parts (one ResourceList per part)", MaxInputBytes>>20)
	}
	return data, nil
}

// Preread is an input read whole ahead of the run (PreRead): ReadAll takes
// its bytes without a copy, and reports its read error or its size as it
// would have.
type Preread struct {
	data   []byte
	err    error
	served bool // ReadAll took the bytes: nothing is left to Read
	partly bool // Read served some: ReadAll reads what is left
	r      *bytes.Reader
}

// PreRead reads r whole, up to one byte more than MaxInputBytes.
func PreRead(r io.Reader) *Preread {
	data, err := readInput(r, MaxInputBytes+1)
	return &Preread{data: data, err: err, r: bytes.NewReader(data)}
}

// Bytes are the bytes read.
func (p *Preread) Bytes() []byte { return p.data }

// Err is the error reading stopped on, if any.
func (p *Preread) Err() error { return p.err }

// Read serves the bytes read, then the read error or io.EOF.
func (p *Preread) Read(b []byte) (int, error) {
	if p.served {
		return 0, io.EOF
	}
	p.partly = true
	n, err := p.r.Read(b)
	if err == io.EOF && p.err != nil {
		err = p.err
	}
	return n, err
}

// Parse parses and checks a ResourceList, normalized (Normalize). A
// ResourceList in the layout every orchestrator writes (see Split) is split
// into its items textually and the items are parsed and checked on all
// cores, in groups; anything else, an alias across groups and an alias bomb
// are parsed and checked as a whole, one item after another. Either way the
// result is the same nodes and comments (TestParseMatchesKyaml, and fn's
// TestStreamMatchesWholeList and TestLayoutDoesNotChangeWhatIsWritten); an
// input that splits keeps each item's text. An input that fails a check
// returns Errors, every problem found, each naming its item, field and line.
func Parse(data []byte, opt Options) (*List, error) {
	// A header that fails its checks is reported from the whole input,
	// whose lines its messages name: Split then declines.
	if s, ok := Split(data, opt); ok {
		if items, checks, ok := s.sp.parseAll(s.budget); ok && !slices.ContainsFunc(checks, func(c checked) bool { return c.bomb }) {
			if err := collect(checks, items, s.Sources); err != nil {
				return nil, err
			}
			return &List{APIVersion: s.APIVersion, Kind: s.Kind, FunctionConfig: s.FunctionConfig, Items: items, Sources: s.Sources}, nil
		}
	}
	budget := newAliasBudget()
	h, err := decodeHeader(data, budget, opt)
	if err != nil {
		return nil, err
	}
	// Items may alias anchors of other items, and which item exhausts the
	// alias budget must not depend on scheduling: check them one after
	// another.
	checks := make([]checked, len(h.items))
	for i, it := range h.items {
		checks[i] = checkItem(i, it, 0, budget)
	}
	// The items' texts still serve when the input splits: only an alias
	// across groups of items (or a syntax error) sent it here.
	var sources [][]byte
	if sp, ok := splitItems(data); ok && len(sp.chunks) == len(h.items) {
		sources = sp.chunks
	}
	if err := collect(checks, h.items, sources); err != nil {
		return nil, err
	}
	return &List{APIVersion: h.apiVersion, Kind: h.kind, FunctionConfig: h.fc, Items: h.items, Sources: sources}, nil
}

// collect joins the items' problems with the duplicate-identity check and
// forgets the text of items whose aliases were expanded.
func collect(checks []checked, items []*yaml.RNode, sources [][]byte) error {
	var out Errors
	bombs := 0
	for _, c := range checks {
		if c.bomb {
			if bombs++; bombs > 1 {
				continue // the budget is spent: every later alias fails too
			}
		}
		if c.err != nil {
			out = append(out, c.err)
		}
	}
	if len(out) > 0 {
		return out
	}
	if dup := duplicateItems(items, checks); len(dup) > 0 {
		return dup
	}
	for i, c := range checks {
		if c.expanded && sources != nil {
			sources[i] = nil
		}
	}
	return nil
}

// header is the ResourceList without its items' checks.
type header struct {
	apiVersion, kind string
	fc               *yaml.RNode
	items            []*yaml.RNode // unchecked
}

// decodeHeader parses data as exactly one ResourceList document and checks
// its top level and its functionConfig (not its items), charging aliases to
// budget.
func decodeHeader(data []byte, budget *aliasBudget, opt Options) (*header, error) {
	var docs []*yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, listError("the input is not valid YAML: %s: fix the syntax at that line", strings.TrimPrefix(err.Error(), "yaml: "))
		}
		if len(doc.Content) == 0 || yaml.IsYNodeEmptyDoc(&doc) || (doc.Content[0].Kind == yaml.ScalarNode && doc.Content[0].Tag == "!!null") {
			continue // an empty document, e.g. after a trailing ---
		}
		docs = append(docs, doc.Content[0])
	}
	switch {
	case len(docs) == 0:
		return nil, listError("no input: apply-overrides reads one KRM ResourceList (apiVersion: %s, kind: ResourceList) on stdin; run it under kpt or kustomize, or see --help", kio.ResourceListAPIVersion)
	case len(docs) > 1:
		return nil, listError("the input holds %d YAML documents (%s): apply-overrides reads exactly one ResourceList document; put the manifests under a ResourceList's items, or run the function under kpt or kustomize, which do that", len(docs), describeDocs(docs))
	}
	root := docs[0]
	if root.Kind != yaml.MappingNode {
		return nil, listError("the input is a YAML %s, not a ResourceList: expected a mapping with apiVersion: %s, kind: ResourceList and items", kindName(root), kio.ResourceListAPIVersion)
	}
	if p := checkTop(root, budget); p != nil {
		return nil, listError("the input ResourceList, %s%s: %s", fieldOrTop(p.field), atLine(p.line), p.msg)
	}
	h := &header{}
	rn := yaml.NewRNode(root)
	h.kind = scalarField(root, "kind")
	h.apiVersion = scalarField(root, "apiVersion")
	if h.kind != kio.ResourceListKind {
		hint := ""
		if strings.EqualFold(h.kind, kio.ResourceListKind) || near(h.kind, kio.ResourceListKind) {
			hint = " (did you mean ResourceList?)"
		}
		if h.kind == "" {
			return nil, listError("the input has no kind: expected one ResourceList (apiVersion: %s, kind: ResourceList, items: [...]); to render plain manifests, put them under a ResourceList's items or run the function under kpt or kustomize", kio.ResourceListAPIVersion)
		}
		return nil, listError("the input is a %s, not a ResourceList%s: apply-overrides reads one ResourceList (apiVersion: %s, kind: ResourceList, items: [...], functionConfig: {...})", h.kind, hint, kio.ResourceListAPIVersion)
	}
	if !slices.Contains(resourceListAPIVersions, h.apiVersion) {
		return nil, listError("the input ResourceList has apiVersion %q: expected %s", h.apiVersion, kio.ResourceListAPIVersion)
	}
	for i := 0; i < len(root.Content); i += 2 {
		switch k := root.Content[i].Value; k {
		case "apiVersion", "kind", "items", "functionConfig", "results", "metadata":
		default:
			return nil, listError("the input ResourceList has an unknown field %q (line %d): a ResourceList holds apiVersion, kind, items, functionConfig and results", k, root.Content[i].Line)
		}
	}
	if fc := rn.Field("functionConfig"); fc != nil && !yaml.IsMissingOrNull(fc.Value) {
		if fc.Value.YNode().Kind != yaml.MappingNode {
			return nil, listError("the input ResourceList's functionConfig (line %d) is a YAML %s: expected %s", fc.Value.YNode().Line, kindName(fc.Value.YNode()), opt.expectedFunctionConfig())
		}
		h.fc = fc.Value
	}
	if items := rn.Field("items"); items != nil && !yaml.IsMissingOrNull(items.Value) {
		if items.Value.YNode().Kind != yaml.SequenceNode {
			return nil, listError("the input ResourceList's items (line %d) is a YAML %s: items must be a list of resources, each a mapping with apiVersion, kind and metadata", items.Value.YNode().Line, kindName(items.Value.YNode()))
		}
		for _, n := range items.Value.YNode().Content {
			h.items = append(h.items, yaml.NewRNode(n))
		}
	}
	return h, nil
}

// describeDocs names the first documents of a stream, for a message.
func describeDocs(docs []*yaml.Node) string {
	var names []string
	for i, d := range docs {
		if i == 3 {
			names = append(names, "…")
			break
		}
		if d.Kind != yaml.MappingNode {
			names = append(names, "a "+kindName(d))
			continue
		}
		name := scalarField(d, "kind")
		if name == "" {
			name = "a mapping without kind"
		}
		if m := fieldNode(d, "metadata"); m != nil {
			if n := scalarField(m, "name"); n != "" {
				name += " " + n
			}
		}
		names = append(names, name)
	}
	return strings.Join(names, ", ")
}

// checked is what checkItem found of an item.
type checked struct {
	err  *framework.Result
	line int // the item's first line in the input
	// expanded: the item held an alias or a merge key, now expanded; its
	// text in the input no longer says what it holds, so it is always
	// encoded.
	expanded bool
	// bomb: err is the alias budget running out (see nodeProblem.bomb).
	bomb bool
}

// checkItem checks item i, whose text starts after line base of the input
// (0 when its nodes carry lines of the whole input): a mapping with
// apiVersion, kind and metadata.name, no duplicate key, no alias left.
func checkItem(i int, it *yaml.RNode, base int, budget *aliasBudget) checked {
	n := it.YNode()
	c := checked{line: base + n.Line}
	fail := func(line int, field, msg string) checked {
		c.err = itemError(i, it, line, field, msg)
		return c
	}
	if n.Kind != yaml.MappingNode {
		return fail(c.line, "", fmt.Sprintf("the item is a YAML %s, not a resource: each item must be a mapping with apiVersion, kind and metadata", kindName(n)))
	}
	p, expanded := checkTree(n, base, budget)
	c.expanded = expanded
	if p != nil {
		c.bomb = p.bomb
		return fail(p.line, p.field, p.msg)
	}
	for _, f := range []string{"apiVersion", "kind"} {
		v := fieldNode(n, f)
		if v == nil || v.Kind != yaml.ScalarNode || v.Value == "" || v.Tag == "!!null" {
			return fail(c.line, f, fmt.Sprintf("%s is missing or empty: every resource needs apiVersion and kind (e.g. apiVersion: apps/v1, kind: Deployment)", f))
		}
	}
	meta := fieldNode(n, "metadata")
	if meta == nil || meta.Kind != yaml.MappingNode {
		return fail(c.line, "metadata", "metadata is missing or not a mapping: every resource needs metadata.name")
	}
	if name := fieldNode(meta, "name"); name == nil || name.Kind != yaml.ScalarNode || name.Value == "" || name.Tag == "!!null" {
		return fail(base+keyLine(n, "metadata"), "metadata.name", "metadata.name is missing or empty: every resource needs a name")
	}
	for _, f := range []string{"namespace", "labels", "annotations"} {
		v := fieldNode(meta, f)
		if v == nil || v.Tag == "!!null" {
			continue
		}
		want := yaml.MappingNode
		if f == "namespace" {
			want = yaml.ScalarNode
		}
		if v.Kind != want {
			return fail(base+keyLine(meta, f), "metadata."+f, fmt.Sprintf("metadata.%s is a YAML %s: expected a %s", f, kindName(v), map[yaml.Kind]string{yaml.ScalarNode: "string", yaml.MappingNode: "mapping of strings"}[want]))
		}
		for i := 1; want == yaml.MappingNode && i < len(v.Content); i += 2 {
			if e := v.Content[i]; e.Kind != yaml.ScalarNode {
				return fail(base+e.Line, "metadata."+f+"."+v.Content[i-1].Value, fmt.Sprintf("metadata.%s.%s is a YAML %s: %s values are strings", f, v.Content[i-1].Value, kindName(e), f))
			}
		}
	}
	return c
}

// itemError is an error result for item i at field.
func itemError(i int, it *yaml.RNode, line int, field, msg string) *framework.Result {
	res := &framework.Result{Severity: framework.Error}
	where := fmt.Sprintf("items[%d]", i)
	var desc []string
	if it.YNode().Kind == yaml.MappingNode {
		ref := refOfItem(it)
		if id := ref.describe(); id != "" {
			desc = append(desc, id)
		}
		if ref.File != "" {
			desc = append(desc, "file "+ref.File)
			res.File = &framework.File{Path: ref.File, Index: ref.Index}
		}
		if ref.Kind != "" || ref.Name != "" {
			res.ResourceRef = &yaml.ResourceIdentifier{
				TypeMeta: yaml.TypeMeta{APIVersion: ref.APIVersion, Kind: ref.Kind},
				NameMeta: yaml.NameMeta{Name: ref.Name, Namespace: ref.Namespace},
			}
		}
	}
	if line > 0 {
		desc = append(desc, fmt.Sprintf("line %d", line))
	}
	if len(desc) > 0 {
		where += " (" + strings.Join(desc, ", ") + ")"
	}
	if field != "" {
		res.Field = &framework.Field{Path: field}
		if !strings.HasPrefix(msg, field) {
			msg = field + ": " + msg
		}
	}
	res.Message = where + ": " + msg
	return res
}

// duplicateItems reports items that share apiVersion, kind, namespace and
// name: a cluster can hold only one of them.
func duplicateItems(items []*yaml.RNode, checks []checked) Errors {
	first := make(map[Key]int, len(items))
	var out Errors
	for i, it := range items {
		ref := refOfItem(it)
		j, seen := first[ref.key()]
		if !seen {
			first[ref.key()] = i
			continue
		}
		where := fmt.Sprintf("items[%d]", j)
		if f := refOfItem(items[j]).File; f != "" {
			where += " in " + f
		}
		out = append(out, itemError(i, it, checks[i].line, "metadata.name", fmt.Sprintf("a second %s: %s holds the same apiVersion, kind, namespace and name; remove or rename one of them", ref.describe(), where)))
	}
	return out
}

// A few node helpers that tolerate any shape of input.

func fieldNode(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// keyLine is the line of key in mapping m, or m's own line.
func keyLine(m *yaml.Node, key string) int {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i].Line
		}
	}
	return m.Line
}

func scalarField(m *yaml.Node, key string) string {
	if v := fieldNode(m, key); v != nil && v.Kind == yaml.ScalarNode && v.Tag != "!!null" {
		return v.Value
	}
	return ""
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "null"
		}
		return "scalar (" + strings.TrimPrefix(n.ShortTag(), "!!") + ")"
	case yaml.AliasNode:
		return "alias"
	}
	return "document"
}

func fieldOrTop(f string) string {
	if f == "" {
		return "top level"
	}
	return f
}

func atLine(line int) string {
	if line <= 0 {
		return ""
	}
	return fmt.Sprintf(" (line %d)", line)
}

// near reports whether a is b with one character added, dropped or
// changed: a likely typo.
func near(a, b string) bool {
	if a == b || len(a) == 0 {
		return false
	}
	la, lb := len(a), len(b)
	if la-lb > 1 || lb-la > 1 {
		return false
	}
	i := 0
	for i < la && i < lb && a[i] == b[i] {
		i++
	}
	switch {
	case la == lb:
		return a[i+1:] == b[i+1:]
	case la < lb:
		return a[i:] == b[i+1:]
	default:
		return a[i+1:] == b[i:]
	}
}

// itemRef is an item's identity, read from any shape of item.
type itemRef struct{ policy.Ref }

func refOfItem(it *yaml.RNode) itemRef {
	if it.YNode().Kind != yaml.MappingNode {
		return itemRef{}
	}
	return itemRef{policy.RefOf(it)}
}

// Key is what no two items of a list may share: apiVersion, kind,
// namespace and name (a cluster holds only one object of each).
type Key struct{ apiVersion, kind, namespace, name string }

// KeyOf is an item's Key; the zero Key for an item that is not a mapping.
func KeyOf(it *yaml.RNode) Key { return refOfItem(it).key() }

func (r itemRef) key() Key { return Key{r.APIVersion, r.Kind, r.Namespace, r.Name} }

// HasDuplicates reports whether two of keys are the same. The streaming
// path keeps only the items' keys, not their nodes, and hands a list with
// duplicates to Parse, which reports them.
func HasDuplicates(keys []Key) bool {
	seen := make(map[Key]struct{}, len(keys))
	for _, k := range keys {
		if _, ok := seen[k]; ok {
			return true
		}
		seen[k] = struct{}{}
	}
	return false
}

// describe names the item as messages do, leaving out what it lacks:
// "apps/v1 Deployment default/web".
func (r itemRef) describe() string {
	var parts []string
	if r.APIVersion != "" {
		parts = append(parts, r.APIVersion)
	}
	if r.Kind != "" {
		parts = append(parts, r.Kind)
	}
	name := r.Name
	if r.Namespace != "" {
		name = r.Namespace + "/" + r.Name
	}
	if name != "" {
		parts = append(parts, name)
	}
	return strings.Join(parts, " ")
}
