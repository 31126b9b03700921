// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package resourcelist

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

const (
	head = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n"
	fc   = "functionConfig: {apiVersion: v1, kind: ConfigMap, metadata: {name: fc}}\n"
	cmA  = "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n"
	cmB  = "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: b}\n"
)

// indent turns a list's items into an indented block sequence, a layout
// Split declines: Parse then reads the list as a whole.
func indent(items string) string {
	return "  " + strings.ReplaceAll(strings.TrimSuffix(items, "\n"), "\n", "\n  ") + "\n"
}

// TestParseErrors holds every check of Parse to its exact message, in both
// layouts when the input has items: split into groups and read as a whole.
func TestParseErrors(t *testing.T) {
	many := "  data:\n"
	for i := range 20 {
		many += fmt.Sprintf("    k%d: v\n", i)
	}
	many += "    k3: again\n"
	deep := "  data:\n"
	for i := range 20 {
		deep += strings.Repeat("  ", i+2) + fmt.Sprintf("k%d:\n", i)
	}
	deep += strings.Repeat("  ", 22) + "x: 1\n" + strings.Repeat("  ", 22) + "x: 2\n"
	const dup = "YAML forbids duplicate keys and tools disagree on which value wins; keep one of them"
	const notResource = "not a resource: each item must be a mapping with apiVersion, kind and metadata"
	for name, c := range map[string]struct {
		in, items string // items, when set, follow in and come in both layouts
		opt       Options
		want      string
	}{
		"empty": {in: "",
			want: "no input: apply-overrides reads one KRM ResourceList (apiVersion: config.kubernetes.io/v1, kind: ResourceList) on stdin; run it under kpt or kustomize, or see --help"},
		"only comments and markers": {in: "# nothing\n---\n...\n",
			want: "no input: apply-overrides reads one KRM ResourceList (apiVersion: config.kubernetes.io/v1, kind: ResourceList) on stdin; run it under kpt or kustomize, or see --help"},
		"not YAML": {in: head + "items: [\n",
			want: "the input is not valid YAML: line 3: did not find expected node content: fix the syntax at that line"},
		"alias without anchor": {in: head + "items:\n", items: cmA + "  data: *nothing\n",
			want: "the input is not valid YAML: unknown anchor 'nothing' referenced: fix the syntax at that line"},
		"several documents": {in: "- a\n---\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\n---\n[x]\n",
			want: "the input holds 4 YAML documents (a list, ConfigMap a, a mapping without kind, …): apply-overrides reads exactly one ResourceList document; put the manifests under a ResourceList's items, or run the function under kpt or kustomize, which do that"},
		"a list": {in: "[a, b]\n",
			want: "the input is a YAML list, not a ResourceList: expected a mapping with apiVersion: config.kubernetes.io/v1, kind: ResourceList and items"},
		"duplicate top-level key": {in: head + "items: []\nitems: []\n",
			want: `the input ResourceList, top level (line 4): key "items" appears twice (lines 3 and 4): ` + dup},
		"duplicate key in functionConfig": {in: head + "items: []\nfunctionConfig:\n  kind: ConfigMap\n  kind: Secret\n",
			want: `the input ResourceList, functionConfig (line 6): key "kind" appears twice (lines 5 and 6): ` + dup},
		"no kind": {in: "apiVersion: config.kubernetes.io/v1\nitems: []\n",
			want: "the input has no kind: expected one ResourceList (apiVersion: config.kubernetes.io/v1, kind: ResourceList, items: [...]); to render plain manifests, put them under a ResourceList's items or run the function under kpt or kustomize"},
		"a typo in kind": {in: "apiVersion: config.kubernetes.io/v1\nkind: ResourceLis\n",
			want: "the input is a ResourceLis, not a ResourceList (did you mean ResourceList?): apply-overrides reads one ResourceList (apiVersion: config.kubernetes.io/v1, kind: ResourceList, items: [...], functionConfig: {...})"},
		"kind in another case": {in: "apiVersion: config.kubernetes.io/v1\nkind: resourcelist\n",
			want: "the input is a resourcelist, not a ResourceList (did you mean ResourceList?): apply-overrides reads one ResourceList (apiVersion: config.kubernetes.io/v1, kind: ResourceList, items: [...], functionConfig: {...})"},
		"a manifest": {in: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
			want: "the input is a ConfigMap, not a ResourceList: apply-overrides reads one ResourceList (apiVersion: config.kubernetes.io/v1, kind: ResourceList, items: [...], functionConfig: {...})"},
		"wrong apiVersion": {in: "apiVersion: v1\nkind: ResourceList\n",
			want: `the input ResourceList has apiVersion "v1": expected config.kubernetes.io/v1`},
		"unknown field": {in: head + "item: []\n",
			want: `the input ResourceList has an unknown field "item" (line 3): a ResourceList holds apiVersion, kind, items, functionConfig and results`},
		"functionConfig a list": {in: head + "functionConfig: [a]\n",
			want: "the input ResourceList's functionConfig (line 3) is a YAML list: expected a mapping"},
		"functionConfig a list, with options": {in: head + "functionConfig: 3\n", opt: Options{FunctionConfig: "a mapping or an example.com/v1 Settings"},
			want: "the input ResourceList's functionConfig (line 3) is a YAML scalar (int): expected a mapping or an example.com/v1 Settings"},
		"items a mapping": {in: head + "items: {a: b}\n",
			want: "the input ResourceList's items (line 3) is a YAML mapping: items must be a list of resources, each a mapping with apiVersion, kind and metadata"},
		"items not mappings": {in: head + "items:\n", items: "- [a]\n- 3\n-\n",
			want: "items[0] (line 4): the item is a YAML list, " + notResource + "; items[1] (line 5): the item is a YAML scalar (int), " + notResource + "; items[2] (line 6): the item is a YAML null, " + notResource},
		"no apiVersion": {in: head + "items:\n", items: "- kind: ConfigMap\n  metadata: {name: a}\n",
			want: "items[0] (ConfigMap a, line 4): apiVersion is missing or empty: every resource needs apiVersion and kind (e.g. apiVersion: apps/v1, kind: Deployment)"},
		"no kind in an item": {in: head + "items:\n", items: "- apiVersion: v1\n  metadata: {name: a}\n",
			want: "items[0] (v1 a, line 4): kind is missing or empty: every resource needs apiVersion and kind (e.g. apiVersion: apps/v1, kind: Deployment)"},
		"no metadata": {in: head + "items:\n", items: "- apiVersion: v1\n  kind: ConfigMap\n",
			want: "items[0] (v1 ConfigMap, line 4): metadata is missing or not a mapping: every resource needs metadata.name"},
		"no name": {in: head + "items:\n", items: "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    namespace: x\n",
			want: "items[0] (v1 ConfigMap x/, line 6): metadata.name is missing or empty: every resource needs a name"},
		"namespace a mapping": {in: head + "items:\n", items: "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    namespace: {x: y}\n",
			want: "items[0] (v1 ConfigMap a, line 8): metadata.namespace is a YAML mapping: expected a string"},
		"labels a string": {in: head + "items:\n", items: "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    labels: x\n",
			want: "items[0] (v1 ConfigMap a, line 8): metadata.labels is a YAML scalar (str): expected a mapping of strings"},
		"an annotation a list": {in: head + "items:\n", items: "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    annotations:\n      b: [x]\n",
			want: "items[0] (v1 ConfigMap a, line 9): metadata.annotations.b is a YAML list: annotations values are strings"},
		"the item's file": {in: head + "items:\n", items: "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    annotations: {config.kubernetes.io/path: cm.yaml, config.kubernetes.io/index: '2'}\n",
			want: "items[0] (v1 ConfigMap, file cm.yaml, line 6): metadata.name is missing or empty: every resource needs a name"},
		"duplicate key in a large mapping": {in: head + "items:\n", items: cmA + many,
			want: `items[0] (v1 ConfigMap a, line 28): data: key "k3" appears twice (lines 11 and 28): ` + dup},
		"a long field path": {in: head + "items:\n", items: cmA + deep,
			want: `items[0] (v1 ConfigMap a, line 29): data.k0.k1.k2.k3.k4.k5.k6.….k12.k13.k14.k15.k16.k17.k18.k19: key "x" appears twice (lines 28 and 29): ` + dup},
		"a merge key of a scalar": {in: head + "items:\n", items: cmA + "  data:\n    <<: 3\n",
			want: "items[0] (v1 ConfigMap a, line 8): data: the merge key << takes a mapping or a list of mappings, not a YAML scalar (int)"},
		"an alias inside its anchor": {in: head + "items:\n", items: cmA + "  data: &a [*a]\n",
			want: "items[0] (v1 ConfigMap a, line 7): data[0]: alias *a refers to a value that contains it: remove the alias or the anchor"},
		"aliases nested too deeply": {in: head + "items:\n", items: cmA + "  data:\n    a: &a " + strings.Repeat("[", 4000) + "x" + strings.Repeat("]", 4000) +
			"\n    b: &b [[[[*a]]]]\n    c: &c " + strings.Repeat("[", 3000) + "*b" + strings.Repeat("]", 3000) + "\n    d: " + strings.Repeat("[", 3000) + "*c" + strings.Repeat("]", 3000) + "\n",
			want: "items[0] (v1 ConfigMap a, line 11): data.d[0][0][0][0][0][0].…[0][0][0][0][0][0][0][0]: YAML aliases nest values deeper than 10000 levels: the output could not be read back; expand the aliases by hand or flatten the value"},
		"duplicate items": {in: head + "items:\n", items: cmA + cmB + cmA,
			want: "items[2] (v1 ConfigMap a, line 10): metadata.name: a second v1 ConfigMap a: items[0] holds the same apiVersion, kind, namespace and name; remove or rename one of them"},
		"duplicate items in files": {in: head + "items:\n",
			items: "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a, namespace: n, annotations: {config.kubernetes.io/path: a.yaml}}\n" +
				"- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a, namespace: n, annotations: {config.kubernetes.io/path: b.yaml}}\n",
			want: "items[1] (v1 ConfigMap n/a, file b.yaml, line 7): metadata.name: a second v1 ConfigMap n/a: items[0] in a.yaml holds the same apiVersion, kind, namespace and name; remove or rename one of them"},
	} {
		layouts := map[string]string{"": c.in}
		if c.items != "" {
			layouts = map[string]string{"split": c.in + c.items + fc, "indented": c.in + indent(c.items) + fc}
		}
		for layout, in := range layouts {
			t.Run(strings.TrimSpace(name+" "+layout), func(t *testing.T) {
				_, ok := Split([]byte(in), c.opt)
				assert.Equal(t, layout == "split", ok, "split")
				l, err := Parse([]byte(in), c.opt)
				require.Error(t, err)
				assert.Nil(t, l)
				assert.Equal(t, c.want, err.Error())
				var errs Errors
				require.True(t, errors.As(err, &errs), "the problems come as results")
				for _, r := range errs {
					assert.Equal(t, framework.Error, r.Severity)
				}
			})
		}
	}
}

// TestParseErrorResults: an item's problem names its resource, field and
// file in the result, not only in the message.
func TestParseErrorResults(t *testing.T) {
	in := head + "items:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    namespace: n\n    annotations: {config.kubernetes.io/path: cm.yaml, config.kubernetes.io/index: '2'}\n    labels: x\n"
	_, err := Parse([]byte(in), Options{})
	var errs Errors
	require.True(t, errors.As(err, &errs))
	require.Len(t, errs, 1)
	assert.Equal(t, &framework.Result{
		Severity:    framework.Error,
		Message:     "items[0] (v1 ConfigMap n/a, file cm.yaml, line 10): metadata.labels is a YAML scalar (str): expected a mapping of strings",
		ResourceRef: &yaml.ResourceIdentifier{TypeMeta: yaml.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, NameMeta: yaml.NameMeta{Name: "a", Namespace: "n"}},
		Field:       &framework.Field{Path: "metadata.labels"},
		File:        &framework.File{Path: "cm.yaml", Index: 2},
	}, errs[0])
}

// bomb is the data of a ConfigMap whose aliases expand to 10^7 nodes and
// more: c alone is 100 copies of b, each 100 copies of a.
var bomb = "    a: &a [" + strings.Repeat("x, ", 99) + "x]\n" +
	"    b: &b [" + strings.Repeat("*a, ", 99) + "*a]\n" +
	"    c: &c [" + strings.Repeat("*b, ", 99) + "*b]\n" +
	"    i: &i [" + strings.Repeat("*c, ", 9) + "*c]\n"

// TestAliasBudget: the aliases of the whole list share MaxAliasNodes; the
// item that exhausts it is reported once, the same in either layout and on
// every run, and no later item is blamed for the spent budget.
func TestAliasBudget(t *testing.T) {
	bombs := "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: bombs}\n  data:\n" + bomb
	items := cmA + bombs + strings.Replace(bombs, "name: bombs", "name: more", 1) + cmB
	const want = "items[1] (v1 ConfigMap bombs, line 13): data.c[98]: YAML aliases expand to more than 1000000 nodes (an alias bomb?): the function refuses inputs whose aliases multiply their size; expand the aliases by hand or remove them"
	for layout, in := range map[string]string{"split": head + "items:\n" + items + fc, "indented": head + "items:\n" + indent(items) + fc} {
		t.Run(layout, func(t *testing.T) {
			for range 3 {
				_, err := Parse([]byte(in), Options{})
				require.Error(t, err)
				assert.Equal(t, want, err.Error())
			}
		})
	}

	// Many items, each within the budget, exhaust it together: each item
	// expands 60 copies of 101 nodes, so the 166th is the first to find the
	// budget short, whatever the order the groups were checked in.
	var b strings.Builder
	b.WriteString(head + "items:\n")
	for i := range 200 {
		fmt.Fprintf(&b, "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: cm%d}\n  data:\n    x: &x%d [%s]\n    y: [%s]\n", i, i,
			strings.TrimSuffix(strings.Repeat("v, ", 100), ", "), strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*x%d, ", i), 60), ", "))
	}
	_, err := Parse([]byte(b.String()), Options{})
	require.Error(t, err)
	assert.Equal(t, "items[165] (v1 ConfigMap cm165, line 999): data.y[0]: YAML aliases expand to more than 1000000 nodes (an alias bomb?): the function refuses inputs whose aliases multiply their size; expand the aliases by hand or remove them", err.Error())
}

// TestParse: what a good list reads as, in each layout.
func TestParse(t *testing.T) {
	t.Run("split", func(t *testing.T) {
		in := "# generated\n---\n" + head + "items:\n# about a\n" + cmA + cmB + "  data: {k: v} # c\n" + fc + "...\n"
		l, err := Parse([]byte(in), Options{})
		require.NoError(t, err)
		assert.Equal(t, "config.kubernetes.io/v1", l.APIVersion)
		assert.Equal(t, "ResourceList", l.Kind)
		assert.Equal(t, "fc", l.FunctionConfig.GetName())
		require.Len(t, l.Items, 2)
		assert.Equal(t, []string{"a", "b"}, []string{l.Items[0].GetName(), l.Items[1].GetName()})
		assert.Equal(t, "# about a\n"+cmA, string(l.Source(0)))
		assert.Equal(t, cmB+"  data: {k: v} # c\n", string(l.Source(1)))
		assert.Equal(t, "{k: v} # c\n", l.Items[1].Field("data").Value.MustString(), "comments are kept")
	})
	t.Run("indented", func(t *testing.T) {
		l, err := Parse([]byte(head+"items:\n"+indent(cmA+cmB)), Options{})
		require.NoError(t, err)
		require.Len(t, l.Items, 2)
		assert.Nil(t, l.Sources)
		assert.Nil(t, l.Source(1))
		assert.Nil(t, l.FunctionConfig)
	})
	t.Run("the older API, no items", func(t *testing.T) {
		l, err := Parse([]byte("apiVersion: config.kubernetes.io/v1alpha1\nkind: ResourceList\nitems:\n"+fc), Options{})
		require.NoError(t, err)
		assert.Equal(t, "config.kubernetes.io/v1alpha1", l.APIVersion)
		assert.Empty(t, l.Items)
	})
	t.Run("merge keys and aliases", func(t *testing.T) {
		in := head + "items:\n- &base\n  apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n- <<: *base\n  metadata:\n    name: b\n" +
			"- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    <<: [{name: c, namespace: x}, {namespace: y, labels: {l: v}}]\n"
		l, err := Parse([]byte(in), Options{})
		require.NoError(t, err)
		require.Len(t, l.Items, 3)
		assert.Equal(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n", l.Items[1].MustString())
		assert.Equal(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: x\n  labels: {l: v}\n", l.Items[2].MustString())
		// An item that held an alias or a merge key has no text: its text no
		// longer says what it holds.
		require.NotNil(t, l.Sources)
		assert.NotNil(t, l.Source(0))
		assert.Nil(t, l.Source(1))
		assert.Nil(t, l.Source(2))
	})
	t.Run("an alias across groups", func(t *testing.T) {
		var b strings.Builder
		b.WriteString(head + "items:\n")
		for i := range 70 {
			fmt.Fprintf(&b, "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: cm%d\n", i)
			switch i {
			case 0:
				b.WriteString("    labels: &l {app: x}\n")
			case 69:
				b.WriteString("    labels: *l\n")
			}
		}
		in := []byte(b.String())
		s, ok := Split(in, Options{})
		require.True(t, ok)
		_, _, ok = s.Parse(64, 70)
		assert.False(t, ok, "the alias's anchor is in another group")
		l, err := Parse(in, Options{})
		require.NoError(t, err)
		require.Len(t, l.Sources, 70)
		assert.Equal(t, "{app: x}", strings.TrimSpace(l.Items[69].Field("metadata").Value.Field("labels").Value.MustString()))
		assert.Nil(t, l.Source(69), "the item with the alias")
		assert.Equal(t, s.Sources[68], l.Source(68), "every other item keeps its text")
	})
}

func TestReadAll(t *testing.T) {
	data, err := ReadAll(strings.NewReader(head))
	require.NoError(t, err)
	assert.Equal(t, head, string(data))

	_, err = ReadAll(io.LimitReader(zeros{}, MaxInputBytes+1))
	assert.Equal(t, Errors{{Severity: framework.Error, Message: "the input is larger than 256 MiB, the most the function reads: split the package, or render it in parts (one ResourceList per part)"}}, err)
	data, err = ReadAll(io.LimitReader(zeros{}, MaxInputBytes))
	require.NoError(t, err)
	assert.Len(t, data, MaxInputBytes)

	boom := errors.New("boom")
	_, err = ReadAll(io.MultiReader(strings.NewReader(head), failingReader{boom}))
	assert.ErrorIs(t, err, boom)
	assert.Equal(t, "read the input ResourceList: boom", err.Error())
}

// TestPreread: an input read ahead is what ReadAll would have read, its
// bytes taken without a copy; its error and size are reported as ReadAll
// reports them; a Preread read in part gives ReadAll the rest.
func TestPreread(t *testing.T) {
	p := PreRead(strings.NewReader(head))
	require.NoError(t, p.Err())
	data, err := ReadAll(p)
	require.NoError(t, err)
	assert.Equal(t, head, string(data))
	assert.Same(t, &p.Bytes()[0], &data[0], "no copy")
	n, err := p.Read(make([]byte, 4))
	assert.Equal(t, 0, n)
	assert.Equal(t, io.EOF, err, "nothing left once ReadAll took it")

	p = PreRead(strings.NewReader(head))
	b := make([]byte, 4)
	_, err = io.ReadFull(p, b)
	require.NoError(t, err)
	data, err = ReadAll(p)
	require.NoError(t, err)
	assert.Equal(t, head[4:], string(data), "the rest after a partial Read")

	boom := errors.New("boom")
	p = PreRead(io.MultiReader(strings.NewReader(head), failingReader{boom}))
	assert.ErrorIs(t, p.Err(), boom)
	_, err = ReadAll(p)
	assert.Equal(t, "read the input ResourceList: boom", err.Error())
	rest, err := io.ReadAll(PreRead(io.MultiReader(strings.NewReader(head), failingReader{boom})))
	assert.Equal(t, head, string(rest))
	assert.ErrorIs(t, err, boom, "Read ends with the read error")

	_, err = ReadAll(PreRead(io.LimitReader(zeros{}, MaxInputBytes+2)))
	assert.IsType(t, Errors{}, err, "too large")
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

type failingReader struct{ err error }

func (r failingReader) Read([]byte) (int, error) { return 0, r.err }

// TestKeys: an item's key is its apiVersion, kind, namespace and name, and
// nothing else (not its file).
func TestKeys(t *testing.T) {
	parse := func(s string) *yaml.RNode { return yaml.MustParse(s) }
	a := KeyOf(parse("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: n, annotations: {config.kubernetes.io/path: x.yaml}}"))
	assert.Equal(t, Key{"v1", "ConfigMap", "n", "a"}, a)
	assert.Equal(t, Key{}, KeyOf(parse("[a]")))
	same := KeyOf(parse("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: n}"))
	otherNamespace := KeyOf(parse("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}"))
	otherKind := KeyOf(parse("apiVersion: v1\nkind: Secret\nmetadata: {name: a, namespace: n}"))
	assert.False(t, HasDuplicates(nil))
	assert.False(t, HasDuplicates([]Key{a, otherNamespace, otherKind}))
	assert.True(t, HasDuplicates([]Key{a, otherNamespace, otherKind, same}))
}

func TestNear(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"ResourceLis", "ResourceList", true},
		{"ResourceLists", "ResourceList", true},
		{"ResourseList", "ResourceList", true},
		{"ResourceList", "ResourceList", false},
		{"", "ResourceList", false},
		{"ResourceLi", "ResourceList", false},
		{"ResourceListXY", "ResourceList", false},
		{"RasourceLost", "ResourceList", false},
	} {
		assert.Equal(t, c.want, near(c.a, c.b), "%q ~ %q", c.a, c.b)
	}
}
