// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"bufio"
	"bytes"
	"compress/flate"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/parallel"
	"github.com/apply-overrides/apply-overrides/internal/resourcelist"
	"github.com/apply-overrides/apply-overrides/policy"
)

// streamFanOut renders a fan-out run (spec.render) from one parse of the
// input, without a node tree per resource and cluster, and returns its
// output, to be written once the run is over: byte for byte what the
// whole-list path (processFleet, fanOutItems) writes.
//
// Pass 1 is the streaming path's (prepareSplit): the configuration,
// inventory and policies, bound to every cluster. Pass 2 takes the items a
// group at a time, on all cores. For each resource and cluster, placement
// and the override rules are asked first on the resource as read; a copy
// is made and rendered only where placement revises it or a rule applies.
// Every copy is encoded with placeholders for its path and index
// annotations, and copies that come out the same node for node share one
// encoding: a resource no cluster changes is encoded once for the fleet.
// The output holds one text per distinct copy, deflated (packText), and,
// per cluster, which text each resource gets; WriteTo inflates each text
// and splices the copy's path and index into it as it writes. Of each
// render the run keeps only what its results need (fanOutcome), so that a
// fan-out holds little more than the input and the deflated texts.
//
// ok is false when the run is not a fan-out, when it explains, when the
// input is not in the layout Split splits, or when anything fails or is
// reported as an error: the caller then runs the whole-list path, which
// reports every problem, so that the output and exit status are those of
// the whole list.
func streamFanOut(data []byte) (out *fanOutput, results framework.Results, ok bool) {
	sl, ok := resourcelist.Split(data, listOptions)
	if !ok {
		return nil, nil, false
	}
	if cfg, err := ParseConfig(sl.FunctionConfig); err != nil || cfg.Render == nil || cfg.Explain {
		return nil, nil, false
	}
	if bytes.Contains(data, []byte(placeholderStem)) {
		return nil, nil, false // the input holds the placeholders' text: splicing could not tell them apart
	}
	r, plans, first, ok := prepareSplit(sl)
	if !ok {
		return nil, nil, false
	}
	reportOnce(plans)
	chunks := sl.Sources
	out = &fanOutput{apiVersion: sl.APIVersion, kind: sl.Kind, fc: sl.FunctionConfig, template: r.cfg.Render.PathTemplate, items: make([]fanItem, len(chunks))}
	for _, pl := range plans {
		out.clusters = append(out.clusters, pl.cluster.Name)
	}
	outcomes := make([][]fanOutcome, len(plans)) // by cluster, then item
	for c := range plans {
		outcomes[c] = make([]fanOutcome, len(chunks))
	}
	refs := make([]policy.Ref, len(chunks)) // by item: a resource's identity as read
	left := make([]notPlaced, len(chunks))  // by item: the clusters placement leaves it out of
	keys := make([]resourcelist.Key, len(chunks))
	leftBefore := make([]atomic.Bool, len(plans)) // by cluster: an item an earlier run left out (leftOutBefore)
	groups := (len(chunks) + fanOutGroup - 1) / fanOutGroup
	errs := make([]error, groups)
	parallel.ForEach(groups, func(g int) {
		lo, hi := g*fanOutGroup, min((g+1)*fanOutGroup, len(chunks))
		nodes, expanded, ok := sl.Parse(lo, hi)
		if !ok {
			errs[g] = errRestart // a problem to report
			return
		}
		for i := lo; i < hi; i++ {
			it, ok := splitItem(plans[0], first, i, nodes[i-lo])
			if !ok {
				errs[g] = errRestart
				return
			}
			keys[i] = resourcelist.KeyOf(it.node)
			for c, pl := range plans {
				if leftOutBefore(pl, it) {
					leftBefore[c].Store(true)
				}
			}
			if !r.output(it) {
				continue
			}
			fi := &out.items[i]
			if !it.resource() {
				if errs[g] = out.once(fi, it.node, chunks[i], expanded[i-lo]); errs[g] != nil {
					return
				}
				continue
			}
			if errs[g] = r.fanOutResource(fi, it.node, plans, i, outcomes, &left[i], &refs[i]); errs[g] != nil {
				return
			}
		}
	})
	if errors.Join(errs...) != nil || resourcelist.HasDuplicates(keys) {
		return nil, nil, false
	}
	rl := r.rl
	copies := 0
	for c, pl := range plans {
		var total tally
		r.bind(pl)
		if leftBefore[c].Load() {
			r.claimedBefore(pl)
		}
		for i := range outcomes[c] {
			o := outcomes[c][i].outcome(refs[i])
			total.add(o)
			r.account(pl, i, o)
		}
		r.summarize(pl, total)
		for i := range out.items {
			if fi := &out.items[i]; fi.texts != nil && fi.pick[c] >= 0 {
				copies++
			}
		}
	}
	r.reportNotPlaced(left)
	r.reportPolicies()
	rl.Results = append(rl.Results, fanOutSummary(out.clusters, copies, out.template))
	var err error
	if out.results, err = resourcelist.EncodeResults(rl.Results); err != nil {
		return nil, nil, false
	}
	if !out.layOut() {
		return nil, nil, false // a path the input keeps, or one the splice cannot write: the whole list reports or writes it
	}
	return out, rl.Results, true
}

// fanOutGroup is how many consecutive items one core renders for every
// cluster at a time.
const fanOutGroup = 32

// The placeholders a copy's path and index annotations hold while it is
// encoded; WriteTo puts the real values' text in place of each quoted
// placeholder (yaml.SetAnnotation asks for single quotes). No input holds
// them (streamFanOut checks).
const (
	placeholderStem  = "zzapplyoverridesfanout"
	pathPlaceholder  = placeholderStem + "path"
	indexPlaceholder = placeholderStem + "index"
)

// The placeholders as the encoder writes them.
var (
	pathHole  = []byte("'" + pathPlaceholder + "'")
	indexHole = []byte("'" + indexPlaceholder + "'")
)

// fanOutput is the output of a streamed fan-out run, written by WriteTo.
type fanOutput struct {
	apiVersion, kind string
	fc               *yaml.RNode
	results          []byte
	template         string
	clusters         []string
	items            []fanItem // by input item
	// taken: the paths the items written once keep → the item, which no
	// copy may take.
	taken map[string]string
	// pathText holds the YAML text of a path value that is not written as
	// it reads (see scalarText); indexText the text of each index value.
	pathText  map[string]string
	indexText []string
}

// fanItem is one input item in the output: written once (once, local
// configuration and kept control-plane objects), or a resource with a copy
// per cluster (texts, pick), or nothing (neither is set).
type fanItem struct {
	once []byte
	// ownPath is the path an item written once keeps (empty when it has no
	// path annotation), owner the item.
	ownPath, owner string
	texts          []copyText
	// pick is, by cluster, the index into texts of the cluster's copy, or -1
	// when placement leaves the resource out of the cluster.
	pick []int32
}

// copyText is the text of one distinct copy of a resource, its path and
// index values left as placeholders (at the offsets of holes, in order).
// The text is held deflated (packText) until it is written: the copies'
// texts are most of what a fan-out holds.
type copyText struct {
	packed []byte
	size   int    // the text's length
	raw    bool   // packed is the text itself (deflating did not shrink it)
	path   string // the copy's own path (itemPath), which {path} stands for
	holes  []hole
}

// hole is where a placeholder sits in a copy's text.
type hole struct {
	at    int
	index bool // the index placeholder (else the path's)
}

// once records an item written once, at its own path: its text in the
// input unless it held an alias, now expanded.
func (out *fanOutput) once(fi *fanItem, n *yaml.RNode, source []byte, expanded bool) error {
	var buf bytes.Buffer
	it := resourcelist.Item{Node: n}
	if !expanded {
		it.Source = source
	}
	if err := resourcelist.WriteItem(&buf, it); err != nil {
		return err
	}
	fi.once = buf.Bytes()
	if len(n.GetAnnotations(pathAnnotations...)) > 0 {
		fi.ownPath, fi.owner = itemPath(n), policy.RefOf(n).GVKString()
	}
	return nil
}

// fanOutResource renders resource n (input item i) for every cluster:
// outcomes[c][i] is what cluster c's render did, np the clusters that
// leave the resource out and why, ref the resource's identity, fi the
// copies. Placement is decided on the resource as read; a copy is made
// only for a cluster whose placement revises it or whose rules select it
// (or, under keepPolicies, that keeps it though left out): the others
// share the resource as read.
// A resource an earlier run rendered (ClusterAnnotation) gets the full
// render on a copy for every cluster.
func (r *run) fanOutResource(fi *fanItem, n *yaml.RNode, plans []*plan, i int, outcomes [][]fanOutcome, np *notPlaced, ref *policy.Ref) error {
	fi.pick = make([]int32, len(plans))
	var trees []*yaml.RNode // the distinct copies so far, by texts' index
	asRead := -1            // index of the copy as read, once encoded
	res := policy.NewResource(n)
	*ref = res.Ref
	prior := n.GetAnnotations(ClusterAnnotation)[ClusterAnnotation] != ""
	for c, pl := range plans {
		var o outcome
		var cp *yaml.RNode
		var claims []policy.Claim // as render asks them (plan.claims)
		if pl.claims && !prior {
			for _, p := range pl.placers {
				if cl, ok := p.(policy.Claimer); ok {
					claims = append(claims, cl.Claim(res))
				}
			}
		}
		if prior {
			cp = n.Copy()
			if o = r.render(cp, pl); o.err != nil {
				return o.err
			}
		} else {
			placed, err := policy.Place(res, pl.placers)
			if err != nil {
				return err
			}
			switch {
			case !placed.Placed:
				o = outcome{rendered: true, dropped: true, left: &placed, claims: claims, ref: res.Ref}
				if r.cfg.KeepPolicies {
					cp = n.Copy() // kept, as local configuration
				}
			case placed.Revise.Filter == nil && !selected(res, pl):
				o = outcome{rendered: true, claims: claims, ref: res.Ref}
			default:
				cp = n.Copy()
				cres, tr := policy.NewResource(cp), &policy.Trace{}
				applied, err := r.renderPlaced(cres, pl, tr, placed)
				if err != nil {
					return err
				}
				o = outcome{rendered: true, applied: applied, changed: cres.Touched, steps: tr.Applied, matched: tr.Matched, claims: claims, ref: res.Ref}
			}
		}
		if o.dropped {
			target := n
			if cp != nil {
				target = cp
			}
			_, kept, err := r.leaveOut(target, pl, o, np)
			if err != nil {
				return err
			}
			if !kept {
				outcomes[c][i] = compactOutcome(o)
				fi.pick[c] = -1
				continue
			}
		}
		o.left = nil // read by leaveOut only
		outcomes[c][i] = compactOutcome(o)
		if cp == nil {
			if asRead < 0 {
				k, err := fi.add(&trees, n.Copy())
				if err != nil {
					return err
				}
				asRead = k
			}
			fi.pick[c] = int32(asRead)
			continue
		}
		k, err := fi.add(&trees, cp)
		if err != nil {
			return err
		}
		fi.pick[c] = int32(k)
	}
	return nil
}

// fanOutcome is what a fan-out keeps of one resource's render for one
// cluster until the run's results are made (account, tally): an outcome
// without what only explain and leaveOut read (the steps, the placements
// and their reasons) and without the resource's identity, which is the
// same for every cluster and kept once per resource. A fan-out holds one
// per resource and cluster.
type fanOutcome struct {
	applied                  int32
	rendered, dropped, prior bool
	matched                  []policy.Match
	claims                   []policy.Claim
	// left is what account reads of the placement that left the resource
	// out: set only when a rule of an override policy did (Placement.Rule).
	left *policy.Placement
}

// compactOutcome is what a fan-out keeps of o.
func compactOutcome(o outcome) fanOutcome {
	f := fanOutcome{applied: int32(o.applied), rendered: o.rendered, dropped: o.dropped, prior: o.prior, matched: o.matched, claims: o.claims}
	if p := o.left; p != nil && p.By != nil && p.Rule != "" {
		f.left = &policy.Placement{By: p.By, Rule: p.Rule}
	}
	return f
}

// outcome is f as account and tally read it, for the resource ref.
func (f *fanOutcome) outcome(ref policy.Ref) outcome {
	return outcome{rendered: f.rendered, applied: int(f.applied), dropped: f.dropped, prior: f.prior, matched: f.matched, claims: f.claims, left: f.left, ref: ref}
}

// selected reports whether any of pl's override rules selects res as read
// (or cannot tell: its error is reported by the render that follows).
func selected(res *policy.Resource, pl *plan) bool {
	for _, set := range pl.sets {
		if rules, err := set.Rules(res); err != nil || len(rules) > 0 {
			return true
		}
	}
	return false
}

// add gives copy cp of a resource its placeholders and returns the index
// of its text: that of an earlier copy that is the same node for node, or
// a new one. trees holds the earlier copies.
func (fi *fanItem) add(trees *[]*yaml.RNode, cp *yaml.RNode) (int, error) {
	path := itemPath(cp)
	if err := setPlaceholders(cp); err != nil {
		return 0, err
	}
	for k, t := range *trees {
		if fi.texts[k].path == path && sameNode(t.YNode(), cp.YNode()) {
			return k, nil
		}
	}
	var buf bytes.Buffer
	if err := resourcelist.WriteItem(&buf, resourcelist.Item{Node: cp}); err != nil {
		return 0, err
	}
	text := buf.Bytes()
	ct := copyText{size: len(text), path: path}
	for at := 0; ; {
		k := bytes.Index(text[at:], []byte(placeholderStem))
		if k < 1 {
			break
		}
		at += k - 1 // at the quote
		switch {
		case bytes.HasPrefix(text[at:], pathHole):
			ct.holes = append(ct.holes, hole{at: at})
			at += len(pathHole)
		case bytes.HasPrefix(text[at:], indexHole):
			ct.holes = append(ct.holes, hole{at: at, index: true})
			at += len(indexHole)
		default:
			return 0, errRestart // a placeholder the encoder did not write in single quotes
		}
	}
	if len(ct.holes) != len(pathAnnotations)+len(indexAnnotations) {
		return 0, errRestart
	}
	var err error
	if ct.packed, ct.raw, err = packText(text); err != nil {
		return 0, fmt.Errorf("%s: hold its text: %w", policy.RefOf(cp).GVKString(), err)
	}
	fi.texts = append(fi.texts, ct)
	*trees = append(*trees, cp)
	return len(fi.texts) - 1, nil
}

// setPlaceholders sets a copy's path and index annotations as fanOutItems
// sets them, to the placeholders.
func setPlaceholders(n *yaml.RNode) error {
	for _, set := range []struct {
		keys  []string
		value string
	}{{pathAnnotations, pathPlaceholder}, {indexAnnotations, indexPlaceholder}} {
		for _, k := range set.keys {
			if err := n.PipeE(yaml.SetAnnotation(k, set.value)); err != nil {
				return fmt.Errorf("%s: set annotation %s: %w", policy.RefOf(n).GVKString(), k, err)
			}
		}
	}
	return nil
}

// sameNode reports whether two node trees encode alike: the same kinds,
// styles, tags, values, comments and children, in order.
func sameNode(a, b *yaml.Node) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.Kind != b.Kind || a.Style != b.Style || a.Tag != b.Tag || a.Value != b.Value ||
		a.Anchor != b.Anchor || a.HeadComment != b.HeadComment || a.LineComment != b.LineComment ||
		a.FootComment != b.FootComment || len(a.Content) != len(b.Content) || !sameNode(a.Alias, b.Alias) {
		return false
	}
	for i := range a.Content {
		if !sameNode(a.Content[i], b.Content[i]) {
			return false
		}
	}
	return true
}

// copyPath is where cluster's copy of a resource goes.
func (out *fanOutput) copyPath(cluster, path string) string {
	return strings.NewReplacer("{cluster}", cluster, "{path}", path).Replace(out.template)
}

// layOut checks, before anything is written, what WriteTo will write: no
// copy takes a path an item written once keeps (the whole list reports
// that), and every path and index value has a text the splice can write.
// It records the texts of the values that are not written as they read.
func (out *fanOutput) layOut() bool {
	out.taken = map[string]string{}
	for i := range out.items {
		if fi := &out.items[i]; fi.ownPath != "" {
			out.taken[fi.ownPath] = fi.owner
		}
	}
	out.pathText = map[string]string{}
	next := map[string]int{}
	for c, cluster := range out.clusters {
		for i := range out.items {
			fi := &out.items[i]
			if fi.texts == nil || fi.pick[c] < 0 {
				continue
			}
			path := out.copyPath(cluster, fi.texts[fi.pick[c]].path)
			if _, ok := out.taken[path]; ok {
				return false
			}
			if _, ok := out.pathText[path]; !ok && !plainPath(path) {
				text, ok := scalarText(path)
				if !ok {
					return false
				}
				out.pathText[path] = text
			}
			next[path]++
		}
	}
	most := 0
	for _, k := range next {
		most = max(most, k)
	}
	out.indexText = make([]string, most)
	for k := range out.indexText {
		text, ok := scalarText(strconv.Itoa(k))
		if !ok {
			return false
		}
		out.indexText[k] = text
	}
	return true
}

// plainPath reports whether a path is written as it reads between single
// quotes, in block and flow mappings alike: letters, digits and _ . / -
// only, a letter or digit first.
func plainPath(p string) bool {
	if p == "" || !isAlnum(p[0]) {
		return false
	}
	for i := 0; i < len(p); i++ {
		if c := p[i]; !isAlnum(c) && c != '_' && c != '.' && c != '/' && c != '-' {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// scalarText is how the encoder writes v as an annotation's value set by
// yaml.SetAnnotation (in quotes), and ok when that text is one line without blanks
// (which the encoder never folds) and the same in block and flow mappings,
// so that it can stand in for a placeholder anywhere.
func scalarText(v string) (text string, ok bool) {
	if strings.ContainsAny(v, " \t\r\n") {
		return "", false
	}
	var texts [2]string
	for k, style := range []yaml.Style{0, yaml.FlowStyle} {
		n := yaml.NewMapRNode(nil)
		if err := n.PipeE(yaml.SetAnnotation("k", v)); err != nil {
			return "", false
		}
		annos, err := n.Pipe(yaml.Lookup(yaml.MetadataField, yaml.AnnotationsField))
		if err != nil || annos == nil {
			return "", false
		}
		annos.YNode().Style = style
		var buf bytes.Buffer
		if err := resourcelist.WriteItem(&buf, resourcelist.Item{Node: n}); err != nil {
			return "", false
		}
		s := buf.String()
		at := strings.Index(s, "k: ")
		if at < 0 {
			return "", false
		}
		s = s[at+len("k: "):]
		if style == yaml.FlowStyle {
			end := strings.LastIndex(s, "}")
			if end < 0 {
				return "", false
			}
			s = s[:end]
		} else {
			s = strings.TrimSuffix(s, "\n")
		}
		texts[k] = s
	}
	if texts[0] != texts[1] || strings.ContainsAny(texts[0], " \n") {
		return "", false
	}
	return texts[0], true
}

// WriteTo writes the output list: the items written once, in input order,
// then each cluster's copies in input order, each with its path and index
// spliced in; then the functionConfig and the results.
func (out *fanOutput) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	cw := &countingWriter{w: bw}
	lw, err := resourcelist.NewWriter(cw, out.apiVersion, out.kind)
	if err != nil {
		return cw.n, err
	}
	for i := range out.items {
		if once := out.items[i].once; once != nil {
			if err := lw.WriteText(once); err != nil {
				return cw.n, err
			}
		}
	}
	next := map[string]int{}
	var buf []byte
	var unpack unpacker
	for c, cluster := range out.clusters {
		for i := range out.items {
			fi := &out.items[i]
			if fi.texts == nil || fi.pick[c] < 0 {
				continue
			}
			ct := &fi.texts[fi.pick[c]]
			text, err := unpack.text(ct)
			if err != nil {
				return cw.n, err
			}
			path := out.copyPath(cluster, ct.path)
			pathText, ok := out.pathText[path]
			if !ok {
				pathText = "'" + path + "'"
			}
			indexText := out.indexText[next[path]]
			next[path]++
			buf = buf[:0]
			from := 0
			for _, h := range ct.holes {
				buf = append(buf, text[from:h.at]...)
				if h.index {
					buf = append(buf, indexText...)
					from = h.at + len(indexHole)
				} else {
					buf = append(buf, pathText...)
					from = h.at + len(pathHole)
				}
			}
			buf = append(buf, text[from:]...)
			if err := lw.WriteText(buf); err != nil {
				return cw.n, err
			}
		}
	}
	if err := lw.Finish(out.fc, out.results); err != nil {
		return cw.n, err
	}
	err = bw.Flush()
	return cw.n, err
}

// countingWriter counts what it writes, for io.WriterTo.
type countingWriter struct {
	w io.Writer
	n int64
}

func (cw *countingWriter) Write(p []byte) (int, error) {
	n, err := cw.w.Write(p)
	cw.n += int64(n)
	return n, err
}

// packers are deflate writers for packText, reused: each holds a few
// hundred kilobytes of state.
var packers sync.Pool

// packText is text as a copyText holds it: deflated at the fastest level,
// or the text itself (raw) when deflating does not shrink it.
func packText(text []byte) (packed []byte, raw bool, err error) {
	var buf bytes.Buffer
	buf.Grow(len(text) / 3)
	w, _ := packers.Get().(*flate.Writer) // nil when the pool is empty
	if w == nil {
		if w, err = flate.NewWriter(&buf, flate.BestSpeed); err != nil {
			return nil, false, err
		}
	} else {
		w.Reset(&buf)
	}
	defer packers.Put(w)
	if _, err := w.Write(text); err != nil {
		return nil, false, err
	}
	if err := w.Close(); err != nil {
		return nil, false, err
	}
	if buf.Len() >= len(text) {
		return bytes.Clone(text), true, nil
	}
	return bytes.Clone(buf.Bytes()), false, nil
}

// unpacker inflates the texts packText packed, reusing its reader and
// buffer: the text it returns is valid until its next call.
type unpacker struct {
	r   io.ReadCloser
	src bytes.Reader
	buf []byte
}

// text is ct's text.
func (u *unpacker) text(ct *copyText) ([]byte, error) {
	if ct.raw {
		return ct.packed, nil
	}
	u.src.Reset(ct.packed)
	if u.r == nil {
		u.r = flate.NewReader(&u.src)
	} else if err := u.r.(flate.Resetter).Reset(&u.src, nil); err != nil {
		return nil, fmt.Errorf("inflate a copy's text: %w", err)
	}
	if cap(u.buf) < ct.size+1 {
		u.buf = make([]byte, ct.size+1)
	}
	buf := u.buf[:ct.size+1]
	n, err := io.ReadFull(u.r, buf)
	if err != io.ErrUnexpectedEOF || n != ct.size {
		// A text packText deflated inflates to its length exactly.
		return nil, fmt.Errorf("inflate a copy's text: %d bytes, not %d (%v)", n, ct.size, err)
	}
	return buf[:n], nil
}
