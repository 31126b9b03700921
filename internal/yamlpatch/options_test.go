// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlpatch

import (
	"fmt"
	"math/rand"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func optionsName(o Options) string {
	return fmt.Sprintf("ensure=%v,allowMissing=%v", o.EnsurePathExistsOnAdd, o.AllowMissingPathOnRemove)
}

// runCorpus holds every case of corpus against evanphx under each of opts.
func runCorpus(t *testing.T, corpus map[string]diffCase, opts []Options, nilNulls ...bool) {
	names := make([]string, 0, len(corpus))
	for name := range corpus {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		c := corpus[name]
		for _, o := range opts {
			for _, nilNull := range nilNulls {
				t.Run(fmt.Sprintf("%s/%s/nilNull=%v", name, optionsName(o), nilNull), func(t *testing.T) {
					checkAgainstEvanphxWith(t, c.doc, c.patch, nilNull, o)
				})
			}
		}
	}
}

func TestOptionsCorpus(t *testing.T) {
	runCorpus(t, optionsCorpus, allOptions, false, true)
}

// TestCorporaWithOptions runs the default-option corpora with the options
// turned on: most cases do not depend on them, and those that do must still
// match evanphx.
func TestCorporaWithOptions(t *testing.T) {
	runCorpus(t, differentialCorpus, allOptions[1:], false)
	runCorpus(t, yamlCorpus, allOptions[1:], false)
}

// TestOptionsCorpusOutcomes makes sure the options corpus exercises both
// outcomes with the Kyverno options on.
func TestOptionsCorpusOutcomes(t *testing.T) {
	o := Options{EnsurePathExistsOnAdd: true, AllowMissingPathOnRemove: true}
	succeed, fail, differ := 0, 0, 0
	for _, c := range optionsCorpus {
		ev := runEvanphxWith(c.doc, c.patch, o)
		if ev.err == nil {
			succeed++
		} else {
			fail++
		}
		if def := runEvanphx(c.doc, c.patch); (def.err == nil) != (ev.err == nil) || def.out != ev.out {
			differ++
		}
	}
	assert.GreaterOrEqual(t, succeed, 40)
	assert.GreaterOrEqual(t, fail, 15)
	assert.GreaterOrEqual(t, differ, 40, "cases whose outcome the options change")
}

// TestRandomWithOptions runs the generator, tuned towards missing parents,
// under every combination of Options.
func TestRandomWithOptions(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	n := 3000
	if testing.Short() {
		n = 300
	}
	var succeeded, failed int
	for i := 0; i < n; i++ {
		b := make([]byte, 10+r.Intn(200))
		r.Read(b)
		g := &generator{b: b, deep: true}
		d := g.document()
		doc, patch := d.String(), g.patch(d)
		if !usablePatch(patch) {
			continue
		}
		o := allOptions[i%len(allOptions)]
		if makesCycle(patch) {
			checkOursOnly(t, doc, patch, o)
			continue
		}
		if ev := runEvanphxWith(doc, patch, o); ev.err == nil {
			succeeded++
		} else {
			failed++
		}
		checkAgainstEvanphxWith(t, doc, patch, i%3 == 0, o)
	}
	t.Logf("evanphx succeeded %d, failed %d", succeeded, failed)
	if succeeded < n/10 || failed < n/10 {
		t.Fatalf("generator mix degraded: %d succeeded, %d failed", succeeded, failed)
	}
}

// TestEnsurePathResults pins what EnsurePathExistsOnAdd builds, quirks
// included, independently of evanphx.
func TestEnsurePathResults(t *testing.T) {
	ensure := Options{EnsurePathExistsOnAdd: true}
	tests := map[string]struct{ doc, patch, want, err string }{
		"objects":             {`{}`, `[{"op":"add","path":"/a/b/c","value":1}]`, `{"a":{"b":{"c":1}}}`, ""},
		"array padded":        {`{}`, `[{"op":"add","path":"/a/2/b","value":1}]`, `{"a":[null,null,{"b":1}]}`, ""},
		"last index padded":   {`{}`, `[{"op":"add","path":"/a/2","value":1}]`, `{"a":[null,null,1]}`, ""},
		"dash":                {`{}`, `[{"op":"add","path":"/a/-","value":1}]`, `{"a":[1]}`, ""},
		"minus one":           {`{}`, `[{"op":"add","path":"/a/-1/b","value":1}]`, `{"a":[{"b":1}]}`, ""},
		"minus two":           {`{}`, `[{"op":"add","path":"/a/-2","value":1}]`, "", "Unable to ensure path for negative index other than -1: -2: invalid index referenced"},
		"null replaced":       {`{"a":null,"z":0}`, `[{"op":"add","path":"/a/b","value":1}]`, `{"a":{"b":1},"z":0}`, ""},
		"null item pushed":    {`{"a":[1,null]}`, `[{"op":"add","path":"/a/1/x","value":1}]`, `{"a":[1,{"x":1},null]}`, ""},
		"scalar parent":       {`{"a":"s"}`, `[{"op":"add","path":"/a/b","value":1}]`, "", "invalid state detected"},
		"escaped token":       {`{}`, `[{"op":"add","path":"/a~1b/c","value":1}]`, "", `add operation does not apply: doc is missing path: "/a~1b/c": missing value`},
		"existing array pad":  {`{"a":[0]}`, `[{"op":"add","path":"/a/3/x","value":1}]`, `{"a":[0,null,null,{"x":1}]}`, ""},
		"padded null is set":  {`{}`, `[{"op":"add","path":"/a/1","value":1},{"op":"test","path":"/a/0","value":null}]`, "", "testing value /a/0 failed: test failed"},
		"huge index is a key": {`{}`, `[{"op":"add","path":"/a/99999999999999999999/x","value":1}]`, `{"a":{"99999999999999999999":{"x":1}}}`, ""},
		"padding limit":       {`{}`, `[{"op":"add","path":"/a/10001/x","value":1}]`, "", "Unable to ensure path: more than 10000 nulls of padding: invalid index referenced"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			n, err := parseDoc(tc.doc)
			require.NoError(t, err)
			p, err := toPatch(tc.patch, false)
			require.NoError(t, err)
			err = p.ApplyWithOptions(n, ensure)
			got, jerr := toJSON(n)
			require.NoError(t, jerr)
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				assert.Equal(t, tc.doc, got, "document must be unchanged")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestAllowMissingPathOnRemove(t *testing.T) {
	allow := Options{AllowMissingPathOnRemove: true}
	tests := map[string]struct{ patch, want, err string }{
		"missing key":       {`[{"op":"remove","path":"/x"}]`, `{"a":[1,2],"b":{"c":1}}`, ""},
		"missing parent":    {`[{"op":"remove","path":"/x/y/z"}]`, `{"a":[1,2],"b":{"c":1}}`, ""},
		"index high":        {`[{"op":"remove","path":"/a/2"}]`, `{"a":[1,2],"b":{"c":1}}`, ""},
		"index low":         {`[{"op":"remove","path":"/a/-3"}]`, `{"a":[1,2],"b":{"c":1}}`, ""},
		"negative index":    {`[{"op":"remove","path":"/a/-1"}]`, `{"a":[1],"b":{"c":1}}`, ""},
		"present":           {`[{"op":"remove","path":"/b/c"}]`, `{"a":[1,2],"b":{}}`, ""},
		"malformed index":   {`[{"op":"remove","path":"/a/x"}]`, "", `error in remove for path: '/a/x': strconv.Atoi: parsing "x": invalid syntax`},
		"move from missing": {`[{"op":"move","from":"/x","path":"/y"}]`, "", "error in move for path: 'x': unable to get nonexistent key: x: missing value"},
		"move root self":    {`[{"op":"move","from":"/","path":"/s"}]`, `{"a":[1,2],"b":{"c":1},"s":{"a":[1,2],"b":{"c":1}}}`, ""},
	}
	const doc = `{"a":[1,2],"b":{"c":1}}`
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			n, err := parseDoc(doc)
			require.NoError(t, err)
			p, err := toPatch(tc.patch, false)
			require.NoError(t, err)
			err = p.ApplyWithOptions(n, allow)
			got, jerr := toJSON(n)
			require.NoError(t, jerr)
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				assert.Equal(t, doc, got)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}
