// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"bytes"

	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// input is a parsed ResourceList (or, read by kyaml, any other stream).
type input struct {
	rw    *kio.ByteReadWriter // wrapping kind and apiVersion, functionConfig, results
	items []*yaml.RNode
	// sources holds each item's text when the items were parsed one by one.
	sources map[*yaml.Node][]byte
}

// restore re-parses an item from its text in the input.
func (in *input) restore(n *yaml.RNode) (*yaml.RNode, bool) {
	src, ok := in.sources[n.YNode()]
	if !ok {
		return nil, false
	}
	items, ok := parseItems([][]byte{src})
	if !ok {
		return nil, false
	}
	return items[0], true
}

// readInput parses the input as kyaml's kio.ByteReader does. A ResourceList
// in the layout every orchestrator writes (top-level keys at column 0, the
// items a block sequence whose entries start with "- " at column 0) is split
// into its items textually and the items are parsed on all cores: parsing is
// the one step that would otherwise run on a single core. Each item is parsed
// as a one-entry sequence at its original columns, so it gets the same nodes
// and comments as in the whole document; anything else, or any item that
// does not parse so, takes kyaml's path.
func readInput(data []byte) (*input, error) {
	data = normalizeNewlines(data)
	if rest, chunks, ok := splitItems(data); ok {
		rw := &kio.ByteReadWriter{Reader: bytes.NewReader(rest), KeepReaderAnnotations: true}
		if _, err := rw.Read(); err == nil && rw.WrappingKind == kio.ResourceListKind {
			if items, ok := parseItems(chunks); ok {
				sources := make(map[*yaml.Node][]byte, len(items))
				for i, it := range items {
					sources[it.YNode()] = chunks[i]
				}
				return &input{rw: rw, items: items, sources: sources}, nil
			}
		}
	}
	rw := &kio.ByteReadWriter{Reader: bytes.NewReader(data), KeepReaderAnnotations: true}
	items, err := rw.Read()
	if err != nil {
		return nil, err
	}
	return &input{rw: rw, items: items}, nil
}

// normalizeNewlines turns CRLF line ends into LF, as kyaml's reader does.
func normalizeNewlines(data []byte) []byte {
	if !bytes.Contains(data, []byte("\r\n")) {
		return data
	}
	return bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
}

// splitItems cuts the entries of a top-level `items:` block sequence out of
// data. rest is data with `items: []` in their place.
func splitItems(data []byte) (rest []byte, chunks [][]byte, ok bool) {
	start := bytes.Index(data, []byte("\nitems:\n"))
	if start < 0 || bytes.Contains(data, []byte("\n---")) || bytes.Contains(data, []byte("\n...")) {
		return nil, nil, false
	}
	pos := start + len("\nitems:\n")
	end := pos
	chunkStart, commentStart := -1, -1
	for end < len(data) {
		lineEnd := bytes.IndexByte(data[end:], '\n')
		if lineEnd < 0 {
			lineEnd = len(data)
		} else {
			lineEnd += end + 1
		}
		line := data[end:lineEnd]
		switch {
		case bytes.HasPrefix(line, []byte("- ")) || bytes.Equal(bytes.TrimRight(line, "\n"), []byte("-")):
			begin := end
			if commentStart >= 0 {
				begin, commentStart = commentStart, -1 // comments above an entry belong to it
			}
			if chunkStart >= 0 {
				chunks = append(chunks, data[chunkStart:begin])
			}
			chunkStart = begin
		case line[0] == '#':
			if commentStart < 0 {
				commentStart = end
			}
		case bytes.HasPrefix(line, []byte("  ")) || len(bytes.TrimRight(line, "\n")) == 0:
			if commentStart >= 0 || (chunkStart < 0 && len(bytes.TrimSpace(line)) > 0) {
				return nil, nil, false // an item after a comment line, or before any entry
			}
		case line[0] == ' ' || line[0] == '\t':
			return nil, nil, false // odd indentation
		default:
			goto done // the next top-level key
		}
		end = lineEnd
	}
done:
	if chunkStart < 0 || commentStart >= 0 {
		return nil, nil, false // no entries, or comments after the last one
	}
	chunks = append(chunks, data[chunkStart:end])
	rest = make([]byte, 0, start+len(data)-end+16)
	rest = append(rest, data[:start]...)
	rest = append(rest, "\nitems: []\n"...)
	rest = append(rest, data[end:]...)
	return rest, chunks, true
}

// parseItems parses the chunks in parallel; ok is false if any chunk is not
// exactly one sequence entry.
func parseItems(chunks [][]byte) ([]*yaml.RNode, bool) {
	items := make([]*yaml.RNode, len(chunks))
	failed := make([]bool, len(chunks))
	forEach(len(chunks), func(i int) {
		seq, err := yaml.Parse(string(chunks[i]))
		if err != nil || seq.YNode().Kind != yaml.SequenceNode || len(seq.YNode().Content) != 1 {
			failed[i] = true
			return
		}
		items[i] = yaml.NewRNode(seq.YNode().Content[0])
	})
	for i, f := range failed {
		if f || items[i] == nil || yaml.IsMissingOrNull(items[i]) {
			return nil, false
		}
	}
	return items, true
}
