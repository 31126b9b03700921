// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"bytes"
	"errors"
	"sync/atomic"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/parallel"
)

// stream renders a ResourceList without holding every item's node tree at
// once, which is most of a large run's memory. It makes two passes over the
// items, split from the input text as readInput splits them:
//
//  1. the items the run must know before it overrides anything (policies,
//     inventory, anything whose apiVersion and kind a glance at the text
//     cannot tell) are parsed and checked, and the configuration, inventory
//     and policies are compiled from them;
//  2. every item is then parsed (if it was not), checked, overridden and
//     encoded on all cores, in order, and its nodes dropped.
//
// The whole output is built in w, in memory, and written out by the caller
// only when the run succeeded; it is byte for byte what the whole-list path
// writes. A run that hands over leaves w as it found it.
// ok is false when the input is not a ResourceList in the layout readInput
// splits, or when any check fails or any error is reported: the caller then
// runs the whole-list path, which reports every problem.
func stream(data []byte, w *bytes.Buffer) (results framework.Results, ok bool) {
	start := w.Len()
	defer func() {
		if !ok {
			w.Truncate(start) // a run that hands over leaves w as it was
		}
	}()
	sp, ok := splitItems(data)
	if !ok {
		return nil, false
	}
	budget := newAliasBudget()
	h, err := decodeHeader(sp.rest, budget)
	if err != nil {
		return nil, false
	}
	chunks := sp.chunks

	// Pass 1: the items that shape the run.
	first := make([]int, len(chunks)) // index into the parsed items + 1, or 0 when deferred
	var earlyIdx []int
	for i, c := range chunks {
		if apiVersion, kind, ok := chunkHead(c); ok && !shapesRun(apiVersion, kind) {
			continue
		}
		earlyIdx = append(earlyIdx, i)
		first[i] = len(earlyIdx)
	}
	nodes := make([]*yaml.RNode, len(earlyIdx))
	var declined atomic.Bool
	parallel.ForEach(len(earlyIdx), func(k int) {
		i := earlyIdx[k]
		parsed, checks, ok := sp.parseGroup(i, i+1, budget)
		if !ok || checks[0].err != nil || checks[0].expanded {
			declined.Store(true) // a problem to report, or an alias in a policy: the whole-list path copes
			return
		}
		nodes[k] = parsed[0]
	})
	if declined.Load() {
		return nil, false
	}
	rl := &framework.ResourceList{Items: nodes, FunctionConfig: h.fc}
	r := &run{rl: rl}
	pl, ok := r.prepare()
	if !ok {
		return nil, false
	}

	// Pass 2: every item, in order.
	outcomes := make([]outcome, len(chunks))
	ids := make([]itemRef, len(chunks))
	// The items go straight into w, after the head: the caller drops w
	// unless the run succeeds.
	if writeHead(w, h.apiVersion, h.kind) != nil {
		return nil, false
	}
	itemsAt := w.Len()
	w.WriteString(itemsKey)
	bodyAt := w.Len()
	werr := writeOrdered(w, len(chunks), func(lo, hi int, buf *bytes.Buffer) error {
		group, checks, ok := sp.parseGroup(lo, hi, budget)
		if !ok {
			return errRestart
		}
		for i := lo; i < hi; i++ {
			var it item
			if k := first[i]; k > 0 {
				it = pl.items[k-1]
			} else {
				n := group[i-lo]
				if checks[i-lo].err != nil || shapesRun(n.GetApiVersion(), n.GetKind()) {
					return errRestart // a problem to report, or the text misled chunkHead
				}
				it = item{node: n, dialect: -1, local: isLocal(n)}
			}
			ids[i] = refOfItem(it.node)
			if !r.output(it) {
				continue
			}
			if it.resource() {
				if outcomes[i] = r.override(it.node, pl); outcomes[i].err != nil {
					return errRestart
				}
			}
			if err := writeItem(buf, it.node, chunks[i], outcomes[i].touched() || checks[i-lo].expanded); err != nil {
				return err
			}
		}
		return nil
	})
	if werr != nil || hasDuplicates(ids) {
		return nil, false
	}
	var total tally
	for _, o := range outcomes {
		total.add(o)
	}
	r.summarize(pl, total)
	enc, err := encodeResults(rl.Results)
	if err != nil {
		return nil, false
	}
	if w.Len() == bodyAt {
		w.Truncate(itemsAt)
		w.WriteString(emptyItems)
	}
	if writeTail(w, h.fc, enc) != nil {
		return nil, false
	}
	return rl.Results, true
}

// hasDuplicates reports whether two items share an identity.
func hasDuplicates(ids []itemRef) bool {
	seen := make(map[itemKey]struct{}, len(ids))
	for _, r := range ids {
		if _, ok := seen[r.key()]; ok {
			return true
		}
		seen[r.key()] = struct{}{}
	}
	return false
}

// errRestart stops a streaming run: the whole-list path takes over.
var errRestart = errors.New("restart on the whole list")

// shapesRun reports whether an item of this kind must be read before any
// resource is overridden: policies, inventory and what dialects observe.
func shapesRun(apiVersion, kind string) bool {
	if isInventory(apiVersion, kind) {
		return true
	}
	for _, d := range Dialects {
		if ok, err := d.Claims(apiVersion, kind); ok || err != nil {
			return true
		}
		if o, ok := d.(observer); ok && o.Observes(apiVersion, kind) {
			return true
		}
	}
	return false
}

// chunkHead reads an item's apiVersion and kind from its text, when both
// are plain scalars on lines of their own at the item's top level. ok is
// false when the text does not say so plainly (quotes, flow style, a
// comment, a repeated key): the item is then parsed to find out.
func chunkHead(c []byte) (apiVersion, kind string, ok bool) {
	var nv, nk int
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

// isLocal reports whether an item is local configuration, which the
// function passes through untouched.
func isLocal(n *yaml.RNode) bool {
	return n.GetAnnotations(localConfigAnnotation)[localConfigAnnotation] == "true"
}
