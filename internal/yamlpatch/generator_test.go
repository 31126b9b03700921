// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlpatch

import (
	"encoding/json"
	"strconv"
	"strings"
)

// generator turns fuzz bytes into documents and patches. With deep set,
// paths more often run through parents that do not exist, which is where
// EnsurePathExistsOnAdd does its work.
type generator struct {
	b    []byte
	i    int
	deep bool
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
		for range g.pick(4) + boolInt(depth == 0) {
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

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (g *generator) document() jv {
	switch g.pick(32) {
	case 0:
		return jv{kind: 'n'}
	case 1, 2, 3, 4, 5, 6, 7:
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
	tok := func() string { return genTokens[g.pick(len(genTokens))] }
	if g.deep && g.i < len(g.b) && g.pick(3) == 0 {
		return g.path(ptrs) + "/" + tok() + "/" + tok()
	}
	p := ptrs[g.pick(len(ptrs))]
	switch g.pick(16) {
	case 0, 1, 2, 3, 4, 5, 6:
		return p
	case 7, 8, 9:
		return p + "/" + tok()
	case 10:
		return "/" + tok() + "/" + tok()
	case 11:
		return []string{"", "/", "//", "-"}[g.pick(4)]
	case 12:
		return strings.TrimPrefix(p, "/") + "/" + tok()
	case 13:
		return "//" + tok()
	case 14:
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
	if len(ptrs) > 1 {
		ptrs = ptrs[1:] // the root is reached by the odd paths below
	}
	var ops []string
	for range 1 + g.pick(3) {
		kind := []string{"add", "remove", "replace", "move", "copy", "test"}[g.pick(6)]
		path := g.path(ptrs)
		fields := []string{`"op":` + strconv.Quote(kind), `"path":` + quoteJSON(path)}
		switch kind {
		case "move", "copy":
			fields = append(fields, `"from":`+quoteJSON(g.path(ptrs)))
		case "add", "replace":
			fields = append(fields, `"value":`+g.value(1).String())
		case "test":
			switch g.pick(8) {
			case 0:
			case 1, 2:
				fields = append(fields, `"value":`+g.value(1).String())
			default:
				fields = append(fields, `"value":`+valueAt(doc, path))
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
