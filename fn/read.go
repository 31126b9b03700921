// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync/atomic"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/parallel"
	"github.com/apply-overrides/apply-overrides/policy"
)

// input is a ResourceList read and checked: every item a mapping with an
// identity, no alias left in any tree, no duplicate key, no duplicate item.
type input struct {
	apiVersion, kind string
	fc               *yaml.RNode
	items            []*yaml.RNode
	// sources holds each item's text, when the items were split out of the
	// input text: an item no policy changes is written back as it came.
	sources [][]byte
}

// source returns item i's text in the input, or nil.
func (in *input) source(i int) []byte {
	if in.sources == nil {
		return nil
	}
	return in.sources[i]
}

// The ResourceList's API, as the KRM functions specification defines it.
var resourceListAPIVersions = []string{kio.ResourceListAPIVersion, "config.kubernetes.io/v1alpha1"}

// inputErrors collects the problems of an input.
type inputErrors []*framework.Result

func (e inputErrors) Error() string {
	msgs := make([]string, len(e))
	for i, r := range e {
		msgs[i] = r.Message
	}
	return strings.Join(msgs, "; ")
}

// listError reports a problem with the input as a whole.
func listError(format string, args ...any) inputErrors {
	return inputErrors{{Severity: framework.Error, Message: fmt.Sprintf(format, args...)}}
}

// readAll reads at most MaxInputBytes from r.
func readAll(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxInputBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read the input ResourceList: %w", err)
	}
	if len(data) > MaxInputBytes {
		return nil, listError("the input is larger than %d MiB, the most the function reads: split the package, or render it in parts (one ResourceList per part)", MaxInputBytes>>20)
	}
	return data, nil
}

// readInput parses and checks the input ResourceList. A ResourceList in
// the layout every orchestrator writes (top-level keys at column 0, the items
// a block sequence whose entries start with "- " at column 0) is split into
// its items textually and the items are parsed and checked on all cores, in
// groups; anything else, an alias across groups and an alias bomb are
// parsed and checked as a whole, one item after another. Either way the
// result is the same nodes and comments (TestStreamMatchesWholeList,
// TestLayoutDoesNotChangeWhatIsWritten); an input that splits keeps each
// item's text.
func readInput(data []byte) (*input, error) {
	if sp, ok := splitItems(data); ok {
		// A header that fails its checks is reported from the whole input,
		// whose lines its messages name.
		budget := newAliasBudget()
		h, herr := decodeHeader(sp.rest, budget)
		if herr == nil {
			if items, checks, ok := sp.parseAll(budget); ok && !slices.ContainsFunc(checks, func(c checked) bool { return c.bomb }) {
				if err := collect(checks, items, sp.chunks); err != nil {
					return nil, err
				}
				return &input{apiVersion: h.apiVersion, kind: h.kind, fc: h.fc, items: items, sources: sp.chunks}, nil
			}
		}
	}
	budget := newAliasBudget()
	h, err := decodeHeader(data, budget)
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
	return &input{apiVersion: h.apiVersion, kind: h.kind, fc: h.fc, items: h.items, sources: sources}, nil
}

// collect joins the items' problems with the duplicate-identity check and
// forgets the text of items whose aliases were expanded.
func collect(checks []checked, items []*yaml.RNode, sources [][]byte) error {
	var out inputErrors
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
func decodeHeader(data []byte, budget *aliasBudget) (*header, error) {
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
			return nil, listError("the input ResourceList's functionConfig (line %d) is a YAML %s: expected a mapping, a ConfigMap or an %s %s", fc.Value.YNode().Line, kindName(fc.Value.YNode()), ConfigAPIVersion, ConfigKind)
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
func duplicateItems(items []*yaml.RNode, checks []checked) inputErrors {
	first := make(map[itemKey]int, len(items))
	var out inputErrors
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

// splitInput is a ResourceList cut into its items' texts.
type splitInput struct {
	rest   []byte   // the input with `items: []` in place of the items
	chunks [][]byte // each item's text, its comments above it included
	lines  []int    // the number of input lines before each chunk
	data   []byte   // the text the chunks are cut from, one after another
	starts []int    // each chunk's offset in data
}

// groupSize is how many consecutive items are parsed as one sequence: one
// parser per item would spend most of its time setting itself up.
const groupSize = 64

// group returns the text of chunks [lo, hi), which follow each other.
func (sp *splitInput) group(lo, hi int) []byte {
	end := sp.starts[hi-1] + len(sp.chunks[hi-1])
	return sp.data[sp.starts[lo]:end]
}

// parseGroup parses chunks [lo, hi) as one sequence and checks its items in
// order (an alias may name an anchor of an earlier item of the group); ok is
// false when the text is not exactly hi-lo sequence entries (a syntax error,
// an alias of an anchor outside the group): the whole input is then parsed
// to tell.
func (sp *splitInput) parseGroup(lo, hi int, budget *aliasBudget) (items []*yaml.RNode, checks []checked, ok bool) {
	seq, err := yaml.Parse(string(sp.group(lo, hi)))
	if err != nil || seq.YNode().Kind != yaml.SequenceNode || len(seq.YNode().Content) != hi-lo {
		return nil, nil, false
	}
	items = make([]*yaml.RNode, hi-lo)
	checks = make([]checked, hi-lo)
	for k, n := range seq.YNode().Content {
		items[k] = yaml.NewRNode(n)
		checks[k] = checkItem(lo+k, items[k], sp.lines[lo], budget)
	}
	return items, checks, true
}

// parseAll parses and checks every item, a group per core at a time.
func (sp *splitInput) parseAll(budget *aliasBudget) ([]*yaml.RNode, []checked, bool) {
	n := len(sp.chunks)
	items := make([]*yaml.RNode, n)
	checks := make([]checked, n)
	var failed atomic.Bool
	parallel.ForEach((n+groupSize-1)/groupSize, func(g int) {
		lo, hi := g*groupSize, min((g+1)*groupSize, n)
		its, es, ok := sp.parseGroup(lo, hi, budget)
		if !ok {
			failed.Store(true)
			return
		}
		copy(items[lo:], its)
		copy(checks[lo:], es)
	})
	return items, checks, !failed.Load()
}

// splitItems cuts the entries of a top-level `items:` block sequence out of
// data. Leading comments, blank lines and document markers, and trailing
// ones, are allowed; any other document marker declines the split.
func splitItems(data []byte) (*splitInput, bool) {
	data, skipped := trimDocument(data)
	start := bytes.Index(data, []byte("\nitems:\n"))
	if start < 0 || bytes.Contains(data, []byte("\n---")) || bytes.Contains(data, []byte("\n...")) || bytes.HasPrefix(data, []byte("---")) {
		return nil, false
	}
	sp := &splitInput{}
	line := skipped + bytes.Count(data[:start+len("\nitems:\n")], []byte("\n"))
	pos := start + len("\nitems:\n")
	end := pos
	chunkStart, commentStart := -1, -1
	chunkLine, commentLine := 0, 0
	for end < len(data) {
		lineEnd := bytes.IndexByte(data[end:], '\n')
		if lineEnd < 0 {
			lineEnd = len(data)
		} else {
			lineEnd += end + 1
		}
		l := data[end:lineEnd]
		switch {
		case bytes.HasPrefix(l, []byte("- ")) || bytes.Equal(bytes.TrimRight(l, "\n"), []byte("-")):
			begin, beginLine := end, line
			if commentStart >= 0 {
				begin, beginLine, commentStart = commentStart, commentLine, -1 // comments above an entry belong to it
			}
			if chunkStart >= 0 {
				sp.chunks = append(sp.chunks, data[chunkStart:begin])
				sp.lines = append(sp.lines, chunkLine)
				sp.starts = append(sp.starts, chunkStart)
			}
			chunkStart, chunkLine = begin, beginLine
		case l[0] == '#':
			if commentStart < 0 {
				commentStart, commentLine = end, line
			}
		case bytes.HasPrefix(l, []byte("  ")) || len(bytes.TrimRight(l, "\n")) == 0:
			if commentStart >= 0 || (chunkStart < 0 && len(bytes.TrimSpace(l)) > 0) {
				return nil, false // an item after a comment line, or before any entry
			}
		case l[0] == ' ' || l[0] == '\t':
			return nil, false // odd indentation
		default:
			goto done // the next top-level key
		}
		end = lineEnd
		line++
	}
done:
	if chunkStart < 0 || commentStart >= 0 {
		return nil, false // no entries, or comments after the last one
	}
	sp.chunks = append(sp.chunks, data[chunkStart:end])
	sp.lines = append(sp.lines, chunkLine)
	sp.starts = append(sp.starts, chunkStart)
	sp.data = data
	sp.rest = make([]byte, 0, start+len(data)-end+16)
	sp.rest = append(sp.rest, data[:start]...)
	sp.rest = append(sp.rest, "\nitems: []\n"...)
	sp.rest = append(sp.rest, data[end:]...)
	return sp, true
}

// trimDocument drops the lines before the document's first key that are
// blank, comments or a document start marker, and the trailing lines that
// are blank, comments or document markers; skipped is the number of lines
// dropped at the start.
func trimDocument(data []byte) (body []byte, skipped int) {
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 || !ignorableLine(data[:i], true) {
			break
		}
		data, skipped = data[i+1:], skipped+1
	}
	for len(data) > 0 {
		end := len(data)
		if data[end-1] == '\n' {
			end--
		}
		i := bytes.LastIndexByte(data[:end], '\n')
		if i < 0 || !ignorableLine(data[i+1:end], false) {
			break
		}
		data = data[:i+1]
	}
	return data, skipped
}

// ignorableLine reports whether a line outside the document's content is
// blank, a comment at column 0 or a document marker.
func ignorableLine(l []byte, leading bool) bool {
	t := bytes.TrimRight(l, " \t")
	switch {
	case len(t) == 0, t[0] == '#':
		return true
	case bytes.Equal(t, []byte("---")), bytes.HasPrefix(t, []byte("--- #")):
		return true
	case !leading && bytes.Equal(t, []byte("...")):
		return true
	}
	return false
}

// normalize strips a UTF-8 byte order mark and turns CRLF line ends into
// LF, as kyaml's reader does; enc records what to restore on output.
func normalize(data []byte) ([]byte, encoding) {
	var enc encoding
	if rest, ok := bytes.CutPrefix(data, []byte("\xef\xbb\xbf")); ok {
		data, enc.bom = rest, true
	}
	if bytes.Contains(data, []byte("\r\n")) {
		enc.crlf = bytes.Count(data, []byte("\r\n")) == bytes.Count(data, []byte("\n"))
		data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	}
	// A byte order mark may also open the document after a leading ---
	// (files concatenated by a tool); it is not part of the content.
	data = bytes.ReplaceAll(data, []byte("---\n\xef\xbb\xbf"), []byte("---\n"))
	return data, enc
}

// encoding is what the output restores of the input's bytes: a byte order
// mark, and CRLF line ends when every line of the input had one.
type encoding struct{ bom, crlf bool }

// apply turns LF-ended output back into the input's encoding.
func (e encoding) apply(out []byte) []byte {
	if e.crlf {
		out = bytes.ReplaceAll(out, []byte("\n"), []byte("\r\n"))
	}
	if e.bom {
		out = append([]byte("\xef\xbb\xbf"), out...)
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

// itemKey is what no two items may share.
type itemKey struct{ apiVersion, kind, namespace, name string }

func (r itemRef) key() itemKey { return itemKey{r.APIVersion, r.Kind, r.Namespace, r.Name} }

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
