// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlpatch

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	jsonpatchv4 "github.com/evanphx/json-patch"
)

// v4Corpus aims at where Options.LegacyV4 differs from v5.
var v4Corpus = map[string]diffCase{
	"replace missing key adds":   {`{"a":{"b":1}}`, `[{"op":"replace","path":"/a/c","value":{"d":[1]}}]`},
	"replace missing parent":     {`{"a":{}}`, `[{"op":"replace","path":"/x/c","value":1}]`},
	"replace index out of range": {`{"a":[1]}`, `[{"op":"replace","path":"/a/3","value":1}]`},
	"remove missing key":         {`{"a":{}}`, `[{"op":"remove","path":"/a/b","value":null}]`},
	"empty path add":             {`{"a":1}`, `[{"op":"add","path":"","value":{}}]`},
	"empty path replace":         {`{"a":1}`, `[{"op":"replace","path":"","value":{}}]`},
	"empty path remove":          {`{"a":1}`, `[{"op":"remove","path":"","value":null}]`},
	"empty path test":            {`{"a":1}`, `[{"op":"test","path":"","value":{"a":1}}]`},
	"empty key is a key":         {`{"":{"x":1},"a":2}`, `[{"op":"test","path":"/","value":{"x":1}},{"op":"replace","path":"//x","value":3}]`},
	"empty key added":            {`{"a":2}`, `[{"op":"add","path":"/","value":1},{"op":"test","path":"/","value":1}]`},
	"test null after add null":   {`{"a":1}`, `[{"op":"add","path":"/b","value":null},{"op":"test","path":"/b","value":null}]`},
	"test null nested":           {`{"a":{}}`, `[{"op":"add","path":"/a/b","value":null},{"op":"test","path":"/a","value":{"b":null}}]`},
	"test missing key null":      {`{"a":1}`, `[{"op":"test","path":"/b","value":null}]`},
	"move":                       {`{"a":1}`, `[{"op":"move","path":"/b","value":null}]`},
	"copy":                       {`{"a":1}`, `[{"op":"copy","path":"/b","value":null}]`},
	"unknown op":                 {`{"a":1}`, `[{"op":"merge","path":"/b","value":1}]`},
	"scalar document":            {`1`, `[{"op":"add","path":"/b","value":1}]`},
	"array document":             {`[1,2]`, `[{"op":"add","path":"/-1","value":3},{"op":"remove","path":"/0","value":null}]`},
}

// FuzzPatchMatchesV4 holds ApplyWithOptions(Options{LegacyV4: true}) to
// evanphx's v4 API (github.com/evanphx/json-patch v5.6.0+incompatible, the
// root package KubeAdmiral uses) the way FuzzPatchMatchesEvanphx holds the
// default mode to v5: the same error text with the document unchanged, or
// the same JSON (v4 keeps objects in Go maps, so key order is not compared).
//
// Patches are in LegacyV4's domain: every op keeps its op, path and value
// and loses any "from". Values and the document are given to v4 in
// canonical JSON, as KubeAdmiral's json.Marshal gives them (v4 compares
// strings by their raw bytes). Null documents and inputs on which v4
// panics are skipped (see Options.LegacyV4).
func FuzzPatchMatchesV4(f *testing.F) {
	for _, corpus := range []map[string]diffCase{v4Corpus, differentialCorpus, yamlCorpus} {
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
		v4patch, ok := v4Domain(patch)
		if !ok {
			return
		}
		checkAgainstV4(t, doc, v4patch, nilNull)
	})
}

func TestV4Corpus(t *testing.T) {
	for name, c := range v4Corpus {
		for _, nilNull := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/nilNull=%v", name, nilNull), func(t *testing.T) {
				p, ok := v4Domain(c.patch)
				if !ok {
					t.Fatalf("patch %s is not in LegacyV4's domain", c.patch)
				}
				checkAgainstV4(t, c.doc, p, nilNull)
			})
		}
	}
}

// v4Domain rewrites patch as KubeAdmiral would send it: each op as
// {"op","path","value"} (a missing value is null), no "from", values in
// canonical JSON.
func v4Domain(patch string) (string, bool) {
	var raw []map[string]json.RawMessage
	if json.Unmarshal([]byte(patch), &raw) != nil {
		return "", false
	}
	ops := make([]string, 0, len(raw))
	for _, m := range raw {
		var op, path string
		if json.Unmarshal(m["op"], &op) != nil || json.Unmarshal(m["path"], &path) != nil {
			return "", false
		}
		value := "null"
		if v, ok := m["value"]; ok {
			parsed, err := parseOrdered(string(v))
			if err != nil {
				return "", false
			}
			value = parsed.String()
		}
		ops = append(ops, `{"op":`+quoteJSON(op)+`,"path":`+quoteJSON(path)+`,"value":`+value+`}`)
	}
	return "[" + strings.Join(ops, ",") + "]", true
}

// checkAgainstV4 applies patch to doc with v4 and with LegacyV4.
func checkAgainstV4(t testing.TB, doc, patch string, nilNull bool) {
	t.Helper()
	node, before := docAndView(t, doc)
	canonical, err := parseOrdered(before)
	if err != nil {
		t.Fatalf("parse view %s: %v", before, err)
	}
	if canonical.kind == 'n' {
		return // v4 holds a null document as a nil map, and panics writing it
	}
	ev := runV4(canonical.String(), patch)
	p, err := toPatch(patch, nilNull)
	if err != nil {
		t.Fatalf("convert patch %s: %v", patch, err)
	}
	checkAgainstOracle(t, "v4", doc, patch, node, before, p, Options{LegacyV4: true}, ev, false)
}

// runV4 runs evanphx's v4 DecodePatch and Apply.
func runV4(doc, patch string) (r evanphxResult) {
	defer func() {
		if p := recover(); p != nil {
			r = evanphxResult{panicked: true, err: fmt.Errorf("panic: %v", p)}
		}
	}()
	p, err := jsonpatchv4.DecodePatch([]byte(patch))
	if err != nil {
		return evanphxResult{err: fmt.Errorf("decode: %w", err)}
	}
	out, err := p.Apply([]byte(doc))
	return evanphxResult{out: string(out), err: err}
}
