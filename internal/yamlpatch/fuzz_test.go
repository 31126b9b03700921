// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlpatch

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// FuzzPatchMatchesEvanphx holds Patch.ApplyWithOptions to evanphx's
// behaviour on random documents and patches, under every combination of
// Options. doc is JSON or YAML (evanphx gets its JSON view). With gen empty
// the (doc, patch) strings are used as they are (the differential, YAML and
// options corpora seed them); otherwise gen drives a generator
// of patches against doc (or against a generated document when doc is not
// usable). See checkAgainstEvanphx for what must match; a panic fails too.
func FuzzPatchMatchesEvanphx(f *testing.F) {
	for _, corpus := range []map[string]diffCase{differentialCorpus, yamlCorpus, optionsCorpus} {
		for _, c := range corpus {
			f.Add(c.doc, c.patch, []byte{})
			f.Add(c.doc, c.patch, []byte(c.patch))
		}
	}
	f.Fuzz(func(t *testing.T, doc, patch string, gen []byte) {
		doc, patch, nilNull, ok := fuzzCase(doc, patch, gen)
		if !ok {
			return
		}
		for _, o := range allOptions {
			if makesCycle(patch) {
				checkOursOnly(t, doc, patch, o)
				continue
			}
			checkAgainstEvanphxWith(t, doc, patch, nilNull, o)
		}
	})
}

// usableJSON parses s as a JSON value both evanphx and YAML read the same
// way: no duplicate keys, finite numbers, and a YAML parse with the same
// JSON view (YAML cannot hold some characters JSON can).
func usableJSON(s string) (jv, bool) {
	v, err := parseOrdered(s)
	if err != nil || !finiteNumbers(v) {
		return jv{}, false
	}
	n, err := parseDoc(v.String())
	if err != nil {
		return jv{}, false
	}
	view, err := toJSON(n)
	if err != nil || view != v.String() {
		return jv{}, false
	}
	return v, true
}

// usableDoc accepts usable JSON (its text returned in canonical form) or a
// YAML document whose JSON view is usable and which kyaml renders and
// re-reads unchanged before any patch (so render checks blame the patch).
// It returns the JSON view and the text to test with.
func usableDoc(s string) (jv, string, bool) {
	if v, ok := usableJSON(s); ok {
		return v, v.String(), true
	}
	n, err := parseDoc(s)
	if err != nil || n == nil {
		return jv{}, "", false
	}
	view, err := toJSON(n)
	if err != nil {
		return jv{}, "", false
	}
	v, ok := usableJSON(view)
	if !ok {
		return jv{}, "", false
	}
	out, err := yaml.String(n)
	if err != nil {
		return jv{}, "", false
	}
	back, err := parseDoc(out)
	if err != nil {
		return jv{}, "", false
	}
	if again, err := toJSON(back); err != nil || again != view {
		return jv{}, "", false
	}
	return v, s, true
}

func finiteNumbers(v jv) bool {
	if v.kind == 'd' {
		_, err := strconv.ParseFloat(v.text, 64)
		return err == nil
	}
	for _, c := range v.vals {
		if !finiteNumbers(c) {
			return false
		}
	}
	return true
}

// usablePatch reports whether evanphx decodes patch and every value in it
// is usable JSON.
func usablePatch(patch string) bool {
	if r := runEvanphx("{}", patch); r.err != nil && strings.HasPrefix(r.err.Error(), "decode: ") {
		return false
	}
	var ops []map[string]json.RawMessage
	if json.Unmarshal([]byte(patch), &ops) != nil {
		return false
	}
	for _, op := range ops {
		if v, ok := op["value"]; ok {
			if _, ok := usableJSON(string(v)); !ok {
				return false
			}
		}
		if _, err := toPatch(patch, false); err != nil {
			return false
		}
	}
	return true
}

// makesCycle reports patches with which evanphx can make its root's self
// contain itself: a move from "/" (which moves the self) into a path that
// reaches the self, either through "//" or through where an earlier move
// from "/" put it. evanphx then overflows its stack when serialising, which
// no recover can catch, so such patches are only run through Apply.
func makesCycle(patch string) bool {
	p, err := toPatch(patch, false)
	if err != nil {
		return true
	}
	moves, throughSelf := 0, false
	for _, op := range p {
		for _, ptr := range []string{op.Path, op.From} {
			parts := strings.Split(ptr, "/")
			if len(parts) > 2 && parts[1] == "" {
				throughSelf = true
			}
		}
		parts := strings.Split(op.From, "/")
		if op.Op == "move" && len(parts) == 2 && parts[1] == "" {
			moves++
		}
	}
	return moves >= 2 || (moves == 1 && throughSelf)
}

// checkOursOnly applies patch to doc without evanphx: no panic, and a
// successful result must render and re-read to the same JSON view.
func checkOursOnly(t *testing.T, doc, patch string, o Options) {
	t.Helper()
	n, err := parseDoc(doc)
	if err != nil {
		t.Fatalf("parse doc %s: %v", doc, err)
	}
	p, err := toPatch(patch, false)
	if err != nil {
		t.Fatalf("convert patch %s: %v", patch, err)
	}
	if err := p.ApplyWithOptions(n, o); err == nil {
		view, err := toJSON(n)
		if err != nil {
			t.Fatalf("json view after %s on %s: %v", patch, doc, err)
		}
		checkRender(t, n, view)
	}
}

// fuzzCase turns a fuzzer's input into a (document, patch) pair: with gen
// empty the strings as they are, otherwise a patch generated by gen against
// doc (or against a generated document when doc is not usable). ok is false
// for inputs out of scope: too large, unusable, or a patch of more than 16
// operations (a long patch of copies can grow the document exponentially).
func fuzzCase(doc, patch string, gen []byte) (string, string, bool, bool) {
	if len(doc) > 4096 || len(patch) > 4096 || len(gen) > 4096 {
		return "", "", false, false
	}
	nilNull := len(gen)%2 == 1
	view, text, ok := usableDoc(doc)
	doc = text
	switch {
	case len(gen) > 0:
		g := &generator{b: gen}
		if !ok {
			view = g.document()
			doc = view.String()
		}
		patch = g.patch(view)
	case !ok:
		return "", "", false, false
	}
	if !usablePatch(patch) || strings.Count(patch, `"op"`) > 16 {
		return "", "", false, false
	}
	return doc, patch, nilNull, true
}
