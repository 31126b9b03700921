// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlpatch

import (
	"encoding/json"
	"errors"
	"math/rand"
	"reflect"
	"testing"

	"github.com/go-openapi/jsonpointer"
	"github.com/stretchr/testify/require"
)

func TestGet(t *testing.T) {
	doc := node(t, "a:\n  b: [1, {c: x}]\n  'n': ~\n  s: str\n'': empty\nf/g: 1\nh~i: 2\nbase: &b {k: v}\nuse: *b\n")
	tests := map[string]struct {
		ptr, want, err string
	}{
		"empty pointer is the document": {ptr: "", want: `{"a":{"b":[1,{"c":"x"}],"n":null,"s":"str"},"":"empty","f/g":1,"h~i":2,"base":{"k":"v"},"use":{"k":"v"}}`},
		"nested":                        {ptr: "/a/b/1/c", want: `"x"`},
		"index":                         {ptr: "/a/b/0", want: `1`},
		"null value":                    {ptr: "/a/n", want: `null`},
		"empty key":                     {ptr: "/", want: `"empty"`},
		"escaped slash":                 {ptr: "/f~1g", want: `1`},
		"escaped tilde":                 {ptr: "/h~0i", want: `2`},
		"through alias":                 {ptr: "/use/k", want: `"v"`},
		"missing key":                   {ptr: "/a/x", err: `object has no key "x": JSON pointer error`},
		"out of bounds":                 {ptr: "/a/b/2", err: `index out of bounds array[0,1] index '2': JSON pointer error`},
		"negative index":                {ptr: "/a/b/-1", err: `index out of bounds array[0,1] index '-1': JSON pointer error`},
		"dash":                          {ptr: "/a/b/-", err: `cannot resolve "-" token on get: the "-" array token cannot be resolved here: JSON pointer error`},
		"not a number":                  {ptr: "/a/b/x", err: "strconv.Atoi: parsing \"x\": invalid syntax\nJSON pointer error"},
		"into a scalar":                 {ptr: "/a/s/x", err: `invalid token reference "x": JSON pointer error`},
		"into null":                     {ptr: "/a/n/x", err: `nil value has no field "x": JSON pointer error`},
		"no leading slash":              {ptr: "a", err: "JSON pointer must be empty or start with a \"/\"\nJSON pointer error"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := Get(doc, tc.ptr)
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				require.ErrorIs(t, err, ErrPointer)
				return
			}
			require.NoError(t, err)
			view, err := toJSON(got)
			require.NoError(t, err)
			require.Equal(t, tc.want, view)
		})
	}
}

// TestGetMatchesJSONPointer holds Get to go-openapi/jsonpointer on the
// decoded JSON view, as Karmada's fieldOverrider uses it.
func TestGetMatchesJSONPointer(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 20000; i++ {
		b := make([]byte, 8+r.Intn(64))
		r.Read(b)
		g := &generator{b: b}
		d := g.document()
		ptrs := pointers(d, "", nil)
		ptr := g.path(ptrs)
		checkGet(t, d.String(), ptr)
	}
	for _, c := range differentialCorpus {
		for _, ptr := range []string{"", "/", "/a", "/b/c/0", "/0", "/1/a/-", "/-", "/spec/template", "/metadata/labels/app"} {
			checkGet(t, c.doc, ptr)
		}
	}
}

func checkGet(t *testing.T, doc, ptr string) {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal([]byte(doc), &v))
	var want any
	var wantErr error
	p, err := jsonpointer.New(ptr)
	if err != nil {
		wantErr = err
	} else {
		want, _, wantErr = p.Get(v)
	}
	n, err := parseDoc(doc)
	require.NoError(t, err)
	got, gotErr := Get(n, ptr)
	if wantErr != nil {
		require.Error(t, gotErr, "doc %s pointer %q", doc, ptr)
		require.Equal(t, wantErr.Error(), gotErr.Error(), "doc %s pointer %q", doc, ptr)
		require.True(t, errors.Is(gotErr, ErrPointer))
		return
	}
	require.NoError(t, gotErr, "doc %s pointer %q", doc, ptr)
	view, err := toJSON(got)
	require.NoError(t, err)
	var gotV any
	require.NoError(t, json.Unmarshal([]byte(view), &gotV))
	require.True(t, reflect.DeepEqual(want, gotV), "doc %s pointer %q: got %s want %v", doc, ptr, view, want)
}
