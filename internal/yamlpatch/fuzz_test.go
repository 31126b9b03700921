// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlpatch

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// FuzzPatchMatchesEvanphx holds Patch.Apply to evanphx's behaviour on
// random documents and patches. With gen empty the (doc, patch) strings are
// used as they are (the differential corpus seeds them); otherwise gen drives
// a generator of patches against doc (or against a generated document when
// doc is not usable). See checkAgainstEvanphx for what must match.
func FuzzPatchMatchesEvanphx(f *testing.F) {
	for _, c := range differentialCorpus {
		f.Add(c.doc, c.patch, []byte{})
		f.Add(c.doc, c.patch, []byte(c.patch))
	}
	f.Fuzz(func(t *testing.T, doc, patch string, gen []byte) {
		if len(doc) > 4096 || len(patch) > 4096 || len(gen) > 4096 {
			return
		}
		nilNull := len(gen)%2 == 1
		if len(gen) > 0 {
			g := &generator{b: gen}
			d, ok := usableJSON(doc)
			if !ok {
				d = g.document()
			}
			doc, patch = d.String(), g.patch(d)
		} else {
			d, ok := usableJSON(doc)
			if !ok {
				return
			}
			doc = d.String()
		}
		if !usablePatch(patch) || makesCycle(patch) {
			return
		}
		checkAgainstEvanphx(t, doc, patch, nilNull)
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
// contain itself (a move from "/" plus a path through "//"); evanphx then
// overflows its stack, which no recover can catch.
func makesCycle(patch string) bool {
	p, err := toPatch(patch, false)
	if err != nil {
		return true
	}
	moveSelf, throughSelf := false, false
	for _, op := range p {
		for _, ptr := range []string{op.Path, op.From} {
			parts := strings.Split(ptr, "/")
			if len(parts) > 2 && parts[1] == "" {
				throughSelf = true
			}
		}
		parts := strings.Split(op.From, "/")
		if op.Op == "move" && len(parts) == 2 && parts[1] == "" {
			moveSelf = true
		}
	}
	return moveSelf && throughSelf
}

// generator turns fuzz bytes into documents and patches.
type generator struct {
	b []byte
	i int
}

func (g *generator) next() int {
	if g.i >= len(g.b) {
		return 0
	}
	g.i++
	return int(g.b[g.i-1])
}

func (g *generator) pick(n int) int { return g.next() % n }

var (
	genNumbers = []string{"0", "1", "-1", "2", "10", "1.0", "1.5", "-0", "1e2", "1E2", "100", "0.5"}
	genStrings = []string{"", "a", "b", "x", "0", "1", "-", "/", "~", "a/b", "~1", "é", "on", "true", "null", " ", "a b", "8080"}
	genKeys    = []string{"a", "b", "c", "", "0", "1", "-", "a/b", "~", "~1", "x y", "é", "~0"}
	genTokens  = []string{"a", "b", "c", "", "0", "1", "2", "5", "-1", "-2", "-9", "-", "01", "+1", "x", "a~1b", "~0", "~1", "~01", "~"}
)

func (g *generator) value(depth int) jv {
	k := g.pick(9)
	if depth >= 3 && k >= 5 {
		k -= 5
	}
	switch k {
	case 0:
		return jv{kind: 'n'}
	case 1:
		return jv{kind: 'b', text: strconv.FormatBool(g.pick(2) == 0)}
	case 2:
		return jv{kind: 'd', text: genNumbers[g.pick(len(genNumbers))]}
	case 3, 4:
		return jv{kind: 's', text: genStrings[g.pick(len(genStrings))]}
	case 5, 6:
		v := jv{kind: 'o'}
		for range g.pick(4) {
			key := genKeys[g.pick(len(genKeys))]
			if indexOf(v.keys, key) < 0 {
				v.keys = append(v.keys, key)
				v.vals = append(v.vals, g.value(depth+1))
			}
		}
		return v
	default:
		v := jv{kind: 'a'}
		for range g.pick(4) {
			v.vals = append(v.vals, g.value(depth+1))
		}
		return v
	}
}

func (g *generator) document() jv {
	switch g.pick(16) {
	case 0:
		return jv{kind: 'n'}
	case 1, 2, 3, 4:
		v := g.value(1)
		return jv{kind: 'a', vals: append(v.vals, g.value(1))}
	default:
		v := g.value(0)
		for v.kind != 'o' && v.kind != 'a' {
			v = g.value(0)
			if g.i >= len(g.b) {
				return jv{kind: 'o'}
			}
		}
		return v
	}
}

// pointers lists the escaped pointers of every value in v.
func pointers(v jv, prefix string, out []string) []string {
	out = append(out, prefix)
	for i, c := range v.vals {
		tok := strconv.Itoa(i)
		if v.kind == 'o' {
			tok = strings.NewReplacer("~", "~0", "/", "~1").Replace(v.keys[i])
		}
		out = pointers(c, prefix+"/"+tok, out)
	}
	return out
}

func (g *generator) path(ptrs []string) string {
	p := ptrs[g.pick(len(ptrs))]
	tok := func() string { return genTokens[g.pick(len(genTokens))] }
	switch g.pick(12) {
	case 0, 1, 2, 3:
		return p
	case 4, 5:
		return p + "/" + tok()
	case 6:
		return "/" + tok() + "/" + tok()
	case 7:
		return []string{"", "/", "//", "-"}[g.pick(4)]
	case 8:
		return strings.TrimPrefix(p, "/") + "/" + tok()
	case 9:
		return "//" + tok()
	case 10:
		if i := strings.LastIndex(p, "/"); i >= 0 {
			return p[:i] + "/" + tok()
		}
		return tok()
	default:
		return p + "/-"
	}
}

func (g *generator) patch(doc jv) string {
	ptrs := pointers(doc, "", nil)
	var ops []string
	for range 1 + g.pick(4) {
		kind := []string{"add", "remove", "replace", "move", "copy", "test"}[g.pick(6)]
		fields := []string{`"op":` + strconv.Quote(kind), `"path":` + quoteJSON(g.path(ptrs))}
		switch kind {
		case "move", "copy":
			fields = append(fields, `"from":`+quoteJSON(g.path(ptrs)))
		case "add", "replace":
			fields = append(fields, `"value":`+g.value(1).String())
		case "test":
			switch g.pick(4) {
			case 0:
			case 1:
				fields = append(fields, `"value":`+g.value(1).String())
			default:
				fields = append(fields, `"value":`+valueAt(doc, ptrs[g.pick(len(ptrs))]))
			}
		}
		ops = append(ops, "{"+strings.Join(fields, ",")+"}")
	}
	return "[" + strings.Join(ops, ",") + "]"
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// valueAt returns the JSON text at an escaped pointer of v (null if absent).
func valueAt(v jv, ptr string) string {
	if ptr == "" {
		return v.String()
	}
	for _, tok := range strings.Split(ptr, "/")[1:] {
		tok = decodeToken(tok)
		if v.kind == 'o' {
			i := indexOf(v.keys, tok)
			if i < 0 {
				return "null"
			}
			v = v.vals[i]
			continue
		}
		i, err := strconv.Atoi(tok)
		if err != nil || i < 0 || i >= len(v.vals) {
			return "null"
		}
		v = v.vals[i]
	}
	return v.String()
}
