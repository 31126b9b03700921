// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package resourcelist

import (
	"bytes"
	"sync/atomic"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/parallel"
)

// SplitList is a ResourceList whose top level and functionConfig are read
// and checked and whose items are cut out of its text, not parsed yet: the
// streaming path parses them a group at a time and drops each group's
// nodes once it is written.
type SplitList struct {
	APIVersion, Kind string
	FunctionConfig   *yaml.RNode // nil when the list has none
	// Sources holds each item's text, its comments above it included.
	Sources [][]byte

	sp     *splitInput
	budget *aliasBudget // what is left of MaxAliasNodes for the whole list
}

// Split cuts a ResourceList, normalized (Normalize), into its items'
// texts when it is in the layout every orchestrator writes: top-level keys
// at column 0, the items a block sequence whose entries start with "- " at
// column 0, comments above an entry at column 0 (they belong to the entry
// below them). It then reads and checks the list without its items. ok is
// false when the input is in another layout or fails a check: Parse reads
// it as a whole and reports every problem.
func Split(data []byte, opt Options) (*SplitList, bool) {
	sp, ok := splitItems(data)
	if !ok {
		return nil, false
	}
	budget := newAliasBudget()
	h, err := decodeHeader(sp.rest, budget, opt)
	if err != nil {
		return nil, false
	}
	return &SplitList{APIVersion: h.apiVersion, Kind: h.kind, FunctionConfig: h.fc, Sources: sp.chunks, sp: sp, budget: budget}, true
}

// Parse parses items [lo, hi) as one sequence and checks them as Parse
// does, charging their aliases to the list's budget; expanded[k] reports
// whether item lo+k held an alias or a merge key, now expanded, so that its
// text no longer says what its node holds. ok is false when the items'
// text does not parse on its own (a syntax error, an alias of an anchor
// outside [lo, hi)) or an item fails a check: Parse, on the whole input,
// then reports it.
func (s *SplitList) Parse(lo, hi int) (items []*yaml.RNode, expanded []bool, ok bool) {
	items, checks, ok := s.sp.parseGroup(lo, hi, s.budget)
	if !ok {
		return nil, nil, false
	}
	expanded = make([]bool, len(checks))
	for k, c := range checks {
		if c.err != nil {
			return nil, nil, false
		}
		expanded[k] = c.expanded
	}
	return items, expanded, true
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

// Peek reads an item's apiVersion and kind from its text (one of a
// SplitList's Sources), when both are plain scalars on lines of their own
// at the item's top level. ok is false when the text does not say so
// plainly (quotes, flow style, a comment, a repeated key): the item must
// then be parsed to find out.
func Peek(src []byte) (apiVersion, kind string, ok bool) {
	var nv, nk int
	c := src
	for len(c) > 0 {
		line := c
		if i := bytes.IndexByte(c, '\n'); i >= 0 {
			line, c = c[:i], c[i+1:]
		} else {
			c = nil
		}
		if len(line) < 3 || (line[0] != '-' && line[0] != ' ') || line[1] != ' ' || line[2] == ' ' {
			continue // not a key of the item's top-level mapping
		}
		key, value, found := bytes.Cut(line[2:], []byte(": "))
		if !found {
			continue
		}
		switch string(key) {
		case "apiVersion":
			apiVersion, nv = string(value), nv+1
		case "kind":
			kind, nk = string(value), nk+1
		default:
			continue
		}
		if !plainName(value) {
			return "", "", false
		}
	}
	return apiVersion, kind, nv == 1 && nk == 1
}

// plainName reports whether v is a plain scalar made of the characters of
// an apiVersion or a kind.
func plainName(v []byte) bool {
	if len(v) == 0 {
		return false
	}
	for _, b := range v {
		if !(b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '.' || b == '/' || b == '-' || b == '_') {
			return false
		}
	}
	return true
}
