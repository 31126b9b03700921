// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlpatch

import (
	"fmt"
	"sort"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// diffCase is a (document, patch) pair in JSON.
type diffCase struct{ doc, patch string }

// checkAgainstEvanphx applies patch to doc with evanphx and with this
// package and requires the same outcome: both fail with the same text (and
// our document is left unchanged), or both succeed with the same JSON,
// object key order included. Where evanphx panics only our own sanity is
// checked. Our result must also survive a YAML render and re-parse.
//
// doc may be any YAML; evanphx gets its JSON view.
func checkAgainstEvanphx(t testing.TB, doc, patch string, nilNull bool) {
	t.Helper()
	checkAgainstEvanphxWith(t, doc, patch, nilNull, Options{})
}

// checkAgainstEvanphxWith is checkAgainstEvanphx with options o on both
// sides (ApplyWithOptions).
func checkAgainstEvanphxWith(t testing.TB, doc, patch string, nilNull bool, o Options) {
	t.Helper()
	node, before := docAndView(t, doc)
	ev := runEvanphxWith(before, patch, o)
	p, err := toPatch(patch, nilNull)
	if err != nil {
		t.Fatalf("convert patch %s: %v", patch, err)
	}
	checkAgainstOracle(t, "evanphx", doc, patch, node, before, p, o, ev, true)
}

// docAndView parses doc and returns its tree and JSON view.
func docAndView(t testing.TB, doc string) (*yaml.Node, string) {
	t.Helper()
	node, err := parseDoc(doc)
	if err != nil {
		t.Fatalf("parse doc %s: %v", doc, err)
	}
	view, err := toJSON(node)
	if err != nil {
		t.Fatalf("json view of %s: %v", doc, err)
	}
	return node, view
}

// checkAgainstOracle applies p with o to node, doc's tree whose JSON view
// is before, and compares the outcome with the oracle library's, ev: both
// fail with the same text (and our document is left unchanged), or both
// succeed with the same JSON (object key order too when keyOrder). Where
// the oracle panicked only our own sanity is checked.
func checkAgainstOracle(t testing.TB, oracle, doc, patch string, node *yaml.Node, before string, p Patch, o Options, ev evanphxResult, keyOrder bool) {
	t.Helper()
	var ours error
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("panic applying %s to %s: %v", patch, doc, r)
			}
		}()
		ours = p.ApplyWithOptions(node, o)
	}()
	after, err := toJSON(node)
	if err != nil {
		t.Fatalf("json view after %s on %s: %v", patch, doc, err)
	}
	if ours == nil {
		checkRender(t, node, after)
	}
	if ev.panicked {
		return
	}
	switch {
	case ev.err != nil && ours == nil:
		t.Fatalf("doc %s patch %s: %s failed with %q, we gave %s", doc, patch, oracle, ev.err, after)
	case ev.err != nil:
		if ours.Error() != ev.err.Error() {
			t.Fatalf("doc %s patch %s: error\n got %q\nwant %q", doc, patch, ours, ev.err)
		}
		if after != before {
			t.Fatalf("doc %s patch %s: failed Apply changed the document to %s", doc, patch, after)
		}
	case ours != nil:
		t.Fatalf("doc %s patch %s: we failed with %q, %s gave %s", doc, patch, ours, oracle, ev.out)
	default:
		want, err := parseOrdered(ev.out)
		if err != nil {
			t.Fatalf("parse %s output %s: %v", oracle, ev.out, err)
		}
		got, err := parseOrdered(after)
		if err != nil {
			t.Fatalf("parse our output %s: %v", after, err)
		}
		if !sameJSONUnordered(got, want) {
			t.Fatalf("doc %s patch %s:\n got %s\nwant %s", doc, patch, got, want)
		}
		if keyOrder && !sameJSON(got, want) {
			t.Fatalf("doc %s patch %s: key order differs:\n got %s\nwant %s", doc, patch, got, want)
		}
	}
}

// checkRender renders n with kyaml, parses it back and requires the same
// JSON view.
func checkRender(t testing.TB, n *yaml.Node, view string) {
	t.Helper()
	s, err := yaml.String(n)
	if err != nil {
		t.Fatalf("render %s: %v", view, err)
	}
	back, err := parseDoc(s)
	if err != nil {
		t.Fatalf("re-parse of rendered %s:\n%s\n%v", view, s, err)
	}
	got, err := toJSON(back)
	if err != nil || got != view {
		t.Fatalf("render round trip of %s gave %s (%v):\n%s", view, got, err, s)
	}
}

func TestDifferentialCorpus(t *testing.T) {
	names := make([]string, 0, len(differentialCorpus))
	for name := range differentialCorpus {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		c := differentialCorpus[name]
		for _, nilNull := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/nilNull=%v", name, nilNull), func(t *testing.T) {
				checkAgainstEvanphx(t, c.doc, c.patch, nilNull)
			})
		}
	}
}

// TestDifferentialCorpusOutcomes pins a few outcomes so the corpus cannot
// silently degrade into "both fail the same way".
func TestDifferentialCorpusOutcomes(t *testing.T) {
	succeed, fail := 0, 0
	for _, c := range differentialCorpus {
		if ev := runEvanphx(c.doc, c.patch); ev.err == nil {
			succeed++
		} else {
			fail++
		}
	}
	if succeed < 60 || fail < 60 {
		t.Fatalf("corpus too lopsided: %d succeed, %d fail", succeed, fail)
	}
}
