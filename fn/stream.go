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
	"github.com/apply-overrides/apply-overrides/internal/resourcelist"
)

// stream renders a ResourceList without holding every item's node tree at
// once, which is most of a large run's memory. It makes two passes over the
// items, split from the input text (resourcelist.Split):
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
// ok is false when the input is not a ResourceList in the layout Split
// splits, or when any check fails or any error is reported: the caller then
// runs the whole-list path, which reports every problem.
func stream(data []byte, w *bytes.Buffer) (results framework.Results, ok bool) {
	start := w.Len()
	defer func() {
		if !ok {
			w.Truncate(start) // a run that hands over leaves w as it was
		}
	}()
	sl, ok := resourcelist.Split(data, listOptions)
	if !ok {
		return nil, false
	}
	// A fan-out run has a path of its own (streamFanOut). An explaining
	// run goes to the whole list, whose results name what changed each
	// resource; so does a functionConfig that does not parse, which it
	// reports.
	if cfg, err := ParseConfig(sl.FunctionConfig); err != nil || cfg.Render != nil || cfg.Explain {
		return nil, false
	}
	chunks := sl.Sources
	r, plans, first, ok := prepareSplit(sl)
	if !ok {
		return nil, false
	}
	pl := plans[0]
	rl := r.rl

	// Pass 2: every item, in order. The items go straight into w, after the
	// head: the caller drops w unless the run succeeds.
	outcomes := make([]outcome, len(chunks))
	left := make([]*framework.Result, len(chunks)) // what placement left out, by item
	keys := make([]resourcelist.Key, len(chunks))
	var leftBefore atomic.Bool // an item an earlier run left out (leftOutBefore)
	lw, err := resourcelist.NewWriter(w, sl.APIVersion, sl.Kind)
	if err != nil {
		return nil, false
	}
	werr := lw.WriteItems(len(chunks), func(lo, hi int, buf *bytes.Buffer) error {
		group, expanded, ok := sl.Parse(lo, hi)
		if !ok {
			return errRestart // a problem to report
		}
		for i := lo; i < hi; i++ {
			it, ok := splitItem(pl, first, i, group[i-lo])
			if !ok {
				return errRestart
			}
			keys[i] = resourcelist.KeyOf(it.node)
			if leftOutBefore(pl, it) {
				leftBefore.Store(true)
			}
			if !r.output(it) {
				continue
			}
			if it.resource() {
				if outcomes[i] = r.render(it.node, pl); outcomes[i].err != nil {
					return errRestart
				}
				if outcomes[i].dropped {
					res, kept, err := r.leaveOut(it.node, pl, outcomes[i], nil)
					if err != nil {
						return errRestart
					}
					left[i] = res
					if !kept {
						continue // placement left it out of the cluster
					}
					outcomes[i].changed = true
				}
			}
			out := resourcelist.Item{Node: it.node}
			if !outcomes[i].touched() && !expanded[i-lo] {
				out.Source = chunks[i]
			}
			if err := resourcelist.WriteItem(buf, out); err != nil {
				return err
			}
		}
		return nil
	})
	if werr != nil || resourcelist.HasDuplicates(keys) {
		return nil, false
	}
	var total tally
	r.bind(pl)
	if leftBefore.Load() {
		r.claimedBefore(pl)
	}
	for i, o := range outcomes {
		if left[i] != nil {
			rl.Results = append(rl.Results, left[i])
		}
		total.add(o)
		r.account(pl, i, o)
	}
	r.summarize(pl, total)
	r.reportPolicies()
	enc, err := resourcelist.EncodeResults(rl.Results)
	if err != nil {
		return nil, false
	}
	if lw.Finish(sl.FunctionConfig, enc) != nil {
		return nil, false
	}
	return rl.Results, true
}

// prepareSplit is pass 1 of a streaming run (see stream): it parses and
// checks the items that shape the run, compiles the configuration,
// inventory and policies from them and binds them to each cluster the run
// renders. first[i] is item i's index in the plans' items + 1, or 0 when
// the item is left for pass 2. ok is false when the whole list must serve
// the run: a problem to report, an alias in a policy, or placement decided
// from every resource at once.
func prepareSplit(sl *resourcelist.SplitList) (r *run, plans []*plan, first []int, ok bool) {
	chunks := sl.Sources
	first = make([]int, len(chunks))
	var earlyIdx []int
	for i, c := range chunks {
		if apiVersion, kind, ok := resourcelist.Peek(c); ok && !shapesRun(apiVersion, kind) {
			continue
		}
		earlyIdx = append(earlyIdx, i)
		first[i] = len(earlyIdx)
	}
	nodes := make([]*yaml.RNode, len(earlyIdx))
	var declined atomic.Bool
	parallel.ForEach(len(earlyIdx), func(k int) {
		i := earlyIdx[k]
		parsed, expanded, ok := sl.Parse(i, i+1)
		if !ok || expanded[0] {
			declined.Store(true) // a problem to report, or an alias in a policy: the whole-list path copes
			return
		}
		nodes[k] = parsed[0]
	})
	if declined.Load() {
		return nil, nil, nil, false
	}
	r = &run{rl: &framework.ResourceList{Items: nodes, FunctionConfig: sl.FunctionConfig}}
	plans, ok = r.prepareTargets(nil)
	if !ok {
		return nil, nil, nil, false
	}
	for _, pl := range plans {
		if pl.placesWhole {
			return nil, nil, nil, false // placement decided from every resource at once: the whole list serves it
		}
	}
	return r, plans, first, true
}

// splitItem is item i of a split list in pass 2: the plans' item when pass
// 1 read it, else the parsed node n, which is a resource or local
// configuration. ok is false when n's kind shapes the run after all (the
// text misled Peek): the whole list must serve the run.
func splitItem(pl *plan, first []int, i int, n *yaml.RNode) (it item, ok bool) {
	if k := first[i]; k > 0 {
		return pl.items[k-1], true
	}
	if shapesRun(n.GetApiVersion(), n.GetKind()) {
		return item{}, false
	}
	return item{node: n, dialect: -1, local: isLocal(n)}, true
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

// isLocal reports whether an item is local configuration, which the
// function passes through untouched.
func isLocal(n *yaml.RNode) bool {
	return n.GetAnnotations(localConfigAnnotation)[localConfigAnnotation] == "true"
}
