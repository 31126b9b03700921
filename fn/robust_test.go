// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/resourcelist"
)

const (
	rlHead    = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n"
	rlFC      = "functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: fc}\n  data: {cluster: member1}\n"
	rlCluster = "- apiVersion: cluster.karmada.io/v1alpha1\n  kind: Cluster\n  metadata: {name: member1}\n"
	rlCM      = "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: cm, namespace: default}\n  data: {k: v}\n"
)

// op is a Karmada OverridePolicy on ConfigMap cm with the given plaintext
// overriders (a flow sequence).
func op(plaintext string) string {
	return "- apiVersion: policy.karmada.io/v1alpha1\n  kind: OverridePolicy\n  metadata: {name: op, namespace: default}\n  spec:\n" +
		"    resourceSelectors: [{apiVersion: v1, kind: ConfigMap, name: cm}]\n    overrideRules:\n    - overriders:\n        plaintext: " + plaintext + "\n"
}

// run executes the function in process and checks what every run must
// hold: the output is exactly one ResourceList document; an error result
// comes with an item-less list.
func runFn(t *testing.T, in string) (string, framework.Results) {
	t.Helper()
	out, results := execute(strings.NewReader(in))
	docs := decodeDocs(t, out)
	require.Len(t, docs, 1, "exactly one output document:\n%s", out)
	rl := yaml.NewRNode(docs[0])
	assert.Equal(t, "ResourceList", rl.GetKind())
	if results.ExitCode() != 0 {
		items := rl.Field("items")
		require.NotNil(t, items)
		assert.Empty(t, items.Value.YNode().Content, "a failed run writes no items")
		res := rl.Field("results")
		require.NotNil(t, res, "a failed run writes its results")
		assert.Len(t, res.Value.YNode().Content, len(results))
	}
	return string(out), results
}

func decodeDocs(t *testing.T, out []byte) []*yaml.Node {
	t.Helper()
	var docs []*yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(out))
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if err == io.EOF {
			return docs
		}
		require.NoError(t, err, "the output parses:\n%s", out)
		docs = append(docs, doc.Content[0])
	}
}

func errorMessages(results framework.Results) string {
	var msgs []string
	for _, r := range results {
		if r.Severity == framework.Error {
			msgs = append(msgs, r.Message)
		}
	}
	return strings.Join(msgs, "\n")
}

// TestBadInput holds every class of broken input to one error result that
// says, in plain words, what is wrong and where.
func TestBadInput(t *testing.T) {
	for name, c := range map[string]struct {
		in    string
		want  []string // substrings of the error messages
		field string   // the result's field, when it names one
	}{
		"empty":                 {"", []string{"no input", "ResourceList"}, ""},
		"only comments":         {"# nothing\n---\n", []string{"no input"}, ""},
		"not YAML":              {rlHead + "items: [\n", []string{"not valid YAML", "line"}, ""},
		"items a mapping":       {rlHead + "items: {a: b}\n", []string{"items (line 3) is a YAML mapping", "list of resources"}, ""},
		"items a scalar":        {rlHead + "items: 3\n", []string{"items (line 3) is a YAML scalar"}, ""},
		"a list, not a mapping": {"- a\n- b\n", []string{"YAML list, not a ResourceList"}, ""},
		"plain manifests":       {"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n", []string{"2 YAML documents (ConfigMap a, ConfigMap b)", "exactly one ResourceList"}, ""},
		"one plain manifest":    {"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n", []string{"is a ConfigMap, not a ResourceList"}, ""},
		"two lists":             {rlHead + "items: []\n---\n" + rlHead + "items: []\n", []string{"2 YAML documents"}, ""},
		"misspelt kind":         {"apiVersion: config.kubernetes.io/v1\nkind: ResourceLis\nitems: []\n", []string{"ResourceLis, not a ResourceList (did you mean ResourceList?)"}, ""},
		"wrong apiVersion":      {"apiVersion: v1\nkind: ResourceList\nitems: []\n", []string{`apiVersion "v1": expected config.kubernetes.io/v1`}, ""},
		"unknown top-level key": {rlHead + "item: []\n", []string{`unknown field "item" (line 3)`}, ""},
		"no kind":               {"items: []\n", []string{"has no kind"}, ""},
		"item is a list":        {rlHead + "items:\n- [a, b]\n" + rlFC, []string{"items[0] (line 4): the item is a YAML list, not a resource"}, ""},
		"item is a scalar":      {rlHead + "items:\n- hello\n" + rlFC, []string{"items[0] (line 4): the item is a YAML scalar"}, ""},
		"item is null":          {rlHead + "items:\n-\n" + rlFC, []string{"items[0]", "null"}, ""},
		"functionConfig a list": {rlHead + "items: []\nfunctionConfig: [a]\n", []string{"functionConfig (line 4) is a YAML list"}, ""},
		"functionConfig unknown kind": {rlHead + "items: []\nfunctionConfig: {apiVersion: v1, kind: Secret, metadata: {name: x}}\n",
			[]string{"Secret"}, ""},
		"no apiVersion": {rlHead + "items:\n- kind: ConfigMap\n  metadata: {name: a}\n" + rlFC, []string{"items[0] (ConfigMap a, line 4): apiVersion is missing"}, "apiVersion"},
		"no kind in item": {rlHead + "items:\n- apiVersion: v1\n  metadata: {name: a}\n" + rlFC,
			[]string{"items[0] (v1 a, line 4): kind is missing"}, "kind"},
		"no metadata": {rlHead + "items:\n- apiVersion: v1\n  kind: ConfigMap\n" + rlFC, []string{"items[0] (v1 ConfigMap, line 4): metadata is missing"}, "metadata"},
		"no name":     {rlHead + "items:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {namespace: x}\n" + rlFC, []string{"metadata.name is missing"}, "metadata.name"},
		"null name":   {rlHead + "items:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: null}\n" + rlFC, []string{"metadata.name is missing"}, "metadata.name"},
		"labels a string": {rlHead + "items:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a, labels: x}\n" + rlFC,
			[]string{"metadata.labels is a YAML scalar (str): expected a mapping of strings"}, "metadata.labels"},
		"a label value a list": {rlHead + "items:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a, labels: {app: [x]}}\n" + rlFC,
			[]string{"items[0] (v1 ConfigMap a, line 6): metadata.labels.app is a YAML list: labels values are strings"}, "metadata.labels.app"},
		"file named": {rlHead + "items:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    annotations: {internal.config.kubernetes.io/path: cm.yaml}\n" + rlFC,
			[]string{"items[0] (v1 ConfigMap, file cm.yaml, line 6)"}, "metadata.name"},
		"duplicate key": {rlHead + "items:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n  data:\n    x: 1\n    x: 2\n" + rlFC,
			[]string{`items[0] (v1 ConfigMap a, line 9): data: key "x" appears twice (lines 8 and 9)`}, "data"},
		"duplicate key in functionConfig": {rlHead + "items: []\nfunctionConfig:\n  kind: ConfigMap\n  kind: Secret\n",
			[]string{`functionConfig (line 6): key "kind" appears twice (lines 5 and 6)`}, ""},
		"duplicate top-level key": {rlHead + "items: []\nitems: []\n", []string{`key "items" appears twice`}, ""},
		"duplicate items": {rlHead + "items:\n" + rlCM + rlCM + rlFC,
			[]string{"items[1] (v1 ConfigMap default/cm, line 8): metadata.name: a second v1 ConfigMap default/cm: items[0] holds the same"}, "metadata.name"},
		"duplicate items with files": {rlHead + "items:\n" + strings.Replace(rlCM, "namespace: default}", "namespace: default, annotations: {config.kubernetes.io/path: a.yaml}}", 1) +
			strings.Replace(rlCM, "namespace: default}", "namespace: default, annotations: {config.kubernetes.io/path: b.yaml}}", 1) + rlFC,
			[]string{"items[1] (v1 ConfigMap default/cm, file b.yaml", "items[0] in a.yaml holds the same"}, "metadata.name"},
		"alias without anchor in the same item": {rlHead + "items:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n  data: *nothing\n" + rlFC,
			[]string{"not valid YAML", "unknown anchor 'nothing'"}, ""},
		"alias bomb in a policy": {rlHead + "items:\n" + rlCM + rlCluster + op("[{operator: add, path: /data/bomb, value: *i}]") + "  bombs:\n" + bomb + rlFC,
			[]string{"not valid YAML", "unknown anchor 'i'"}, ""},
		"alias bomb": {rlHead + "items:\n" + rlCM + rlCluster + "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: bombs}\n  data:\n" + bomb +
			op("[{operator: add, path: /data/bomb, value: *i}]") + rlFC,
			[]string{"items[2] (v1 ConfigMap bombs, line 17): data.c[98]: YAML aliases expand to more than 1000000 nodes"}, "data.c[98]"},
		"unknown cluster": {rlHead + "items:\n" + rlCM + rlCluster + strings.Replace(rlFC, "member1", "member9", 1),
			[]string{`cluster "member9" is not in the inventory`}, ""},
		"override removes kind": {rlHead + "items:\n" + rlCM + rlCluster + op("[{operator: remove, path: /kind}]") + rlFC,
			[]string{"OverridePolicy default/op spec.overrideRules[0].overriders.plaintext: v1 ConfigMap default/cm: the override leaves the resource without kind"}, ""},
		"override removes metadata": {rlHead + "items:\n" + rlCM + rlCluster + op("[{operator: remove, path: /metadata}]") + rlFC,
			[]string{"leaves the resource without metadata.name"}, ""},
		"override replaces the root": {rlHead + "items:\n" + rlCM + rlCluster + op("[{operator: replace, path: '', value: {}}]") + rlFC,
			[]string{"leaves the resource without apiVersion"}, ""},
		"override nulls the name": {rlHead + "items:\n" + rlCM + rlCluster + op("[{operator: replace, path: /metadata/name, value: null}]") + rlFC,
			[]string{"leaves the resource without metadata.name"}, ""},
	} {
		t.Run(name, func(t *testing.T) {
			out, results := runFn(t, c.in)
			require.Equal(t, 1, results.ExitCode(), "an error result:\n%s", out)
			msgs := errorMessages(results)
			for _, w := range c.want {
				assert.Contains(t, msgs, w)
			}
			if c.field != "" {
				var fields []string
				for _, r := range results {
					if r.Field != nil {
						fields = append(fields, r.Field.Path)
					}
				}
				assert.Contains(t, fields, c.field)
			}
		})
	}
}

// bomb is the data of a ConfigMap whose aliases expand to 10^7 nodes and
// more: c alone is 100 copies of b, each 100 copies of a.
const bomb = `    a: &a [x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x]
    b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
    c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
    i: &i [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
`

// TestGoodInputShapes are inputs that look odd but are one ResourceList.
func TestGoodInputShapes(t *testing.T) {
	list := rlHead + "items:\n" + rlCM + rlCluster + rlFC
	for name, in := range map[string]string{
		"leading ---":              "---\n" + list,
		"comment before ---":       "# generated\n---\n" + list,
		"trailing ---":             list + "---\n",
		"trailing ...":             list + "...\n",
		"trailing --- and comment": list + "---\n# end\n",
		"empty document first":     "---\n---\n" + list,
		"BOM":                      "\xef\xbb\xbf" + list,
		"CRLF":                     strings.ReplaceAll(list, "\n", "\r\n"),
		"no items":                 rlHead + "functionConfig: {apiVersion: v1, kind: ConfigMap, metadata: {name: fc}}\n",
		"null items":               rlHead + "items:\nfunctionConfig: {apiVersion: v1, kind: ConfigMap, metadata: {name: fc}}\n",
		"functionConfig first":     rlFC + rlHead + "items:\n" + rlCM + rlCluster,
		"indented items":           rlHead + "items:\n  " + strings.ReplaceAll(strings.TrimSuffix(rlCM+rlCluster, "\n"), "\n", "\n  ") + "\n" + rlFC,
	} {
		t.Run(name, func(t *testing.T) {
			out, results := runFn(t, in)
			require.Equal(t, 0, results.ExitCode(), "%s\n%s", errorMessages(results), out)
		})
	}
}

// TestAnchorsStayInTheirItem: an alias is a copy of its anchor's value, so
// overriding the item that defines an anchor leaves the items that alias it
// alone, and dropping it (a policy) leaves no alias without its anchor.
func TestAnchorsStayInTheirItem(t *testing.T) {
	t.Run("edit the anchor's item", func(t *testing.T) {
		in := rlHead + "items:\n" +
			"- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: cm, namespace: default}\n  data: &d\n    k: v # shared\n" +
			"- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: other, namespace: default}\n  data: *d\n" +
			rlCluster + op("[{operator: replace, path: /data/k, value: changed}]") + rlFC
		out, results := runFn(t, in)
		require.Equal(t, 0, results.ExitCode(), errorMessages(results))
		assert.Contains(t, out, "  data: &d\n    k: changed # shared\n")
		assert.Contains(t, out, "  metadata: {name: other, namespace: default}\n  data:\n    k: v # shared\n")
	})
	t.Run("anchor in a dropped policy", func(t *testing.T) {
		in := rlHead + "items:\n" + rlCluster + op("[{operator: replace, path: /data/k, value: &v changed}]") +
			"- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: other, namespace: default}\n  data: {k: *v}\n" + rlFC
		out, results := runFn(t, in)
		require.Equal(t, 0, results.ExitCode(), errorMessages(results))
		assert.NotContains(t, out, "*v")
		assert.Contains(t, out, "data: {k: changed}")
	})
	t.Run("alias inside one item", func(t *testing.T) {
		in := rlHead + "items:\n" +
			"- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: cm, namespace: default}\n  data:\n    a: &x v\n    b: *x\n" +
			rlCluster + op("[{operator: replace, path: /data/a, value: changed}]") + rlFC
		out, results := runFn(t, in)
		require.Equal(t, 0, results.ExitCode(), errorMessages(results))
		assert.Contains(t, out, "    a: changed\n    b: v\n")
	})
}

// TestAtomicOutput: a bad item anywhere in a large list gives an item-less
// list with the one error, never a prefix of the rendered list.
func TestAtomicOutput(t *testing.T) {
	const n = 20000
	for _, bad := range []int{0, n / 2, n - 1} {
		t.Run(fmt.Sprintf("bad item %d of %d", bad, n), func(t *testing.T) {
			var b strings.Builder
			b.WriteString(rlHead + "items:\n")
			for i := range n {
				fmt.Fprintf(&b, "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: cm-%d\n    namespace: default\n  data:\n    k: v\n", i)
				if i == bad {
					b.WriteString("    k: w\n")
				}
			}
			b.WriteString(rlCluster + rlFC)
			out, results := runFn(t, b.String())
			require.Equal(t, 1, results.ExitCode())
			assert.Len(t, results, 1)
			assert.Contains(t, results[0].Message, fmt.Sprintf("items[%d] (v1 ConfigMap default/cm-%d, line %d)", bad, bad, 4+7*bad+7))
			assert.Less(t, len(out), 1000, "no items written")
		})
	}
}

// TestUntouchedItemsPassThrough: items no policy changes come out as their
// input text, byte for byte, whatever their style; a BOM and CRLF line ends
// are restored.
func TestUntouchedItemsPassThrough(t *testing.T) {
	untouched := "" +
		"# a custom resource of a kind nobody knows\n" +
		"- apiVersion: example.com/v1beta3\n  kind: Widget\n  metadata: {name: w, namespace: default}\n  spec:\n      deeply:   indented # odd spacing\n      list:\n          - a\n          -   b\n" +
		"- apiVersion: v1\n  kind: Secret\n  metadata:\n    name: bin\n    namespace: default\n  type: Opaque\n  data:\n    blob: !!binary |\n      R0lGODlhDAAMAIQAAP//9/X17unp5WZmZgAAAOfn515eXvPz7Y6OjuDg4J+fn5\n" +
		"- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: script\n    namespace: default\n  data:\n    run.sh: |-\n      #!/bin/sh\n\n      echo \"a very long line that a YAML emitter would fold at eighty columns if it were asked to re-emit it\"\n    folded: >\n      one\n      two\n    quoted: 'single' \n    'quoted key': \"double\"\n"
	list := rlHead + "items:\n" + untouched + rlCM + rlCluster + op("[{operator: replace, path: /data/k, value: changed}]") +
		strings.Replace(rlFC, "cluster: member1", "cluster: member1, keepPolicies: 'true'", 1)
	for name, enc := range map[string]func(string) string{
		"LF":       func(s string) string { return s },
		"CRLF":     func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") },
		"BOM":      func(s string) string { return "\xef\xbb\xbf" + s },
		"BOM+CRLF": func(s string) string { return "\xef\xbb\xbf" + strings.ReplaceAll(s, "\n", "\r\n") },
	} {
		t.Run(name, func(t *testing.T) {
			in := enc(list)
			out, results := execute(strings.NewReader(in))
			require.Equal(t, 0, results.ExitCode(), errorMessages(results))
			bom := strings.HasPrefix(in, "\xef\xbb\xbf")
			eol := func(s string) string {
				if strings.Contains(in, "\r\n") {
					return strings.ReplaceAll(s, "\n", "\r\n")
				}
				return s
			}
			assert.Contains(t, string(out), eol("items:\n"+untouched), "untouched items byte for byte")
			assert.Contains(t, string(out), eol("k: changed"), "the touched item is rendered")
			assert.Contains(t, string(out), eol(op("[{operator: replace, path: /data/k, value: changed}]")), "kept policies byte for byte")
			assert.Equal(t, bom, bytes.HasPrefix(out, []byte("\xef\xbb\xbf")), "a BOM comes back")
			assert.Equal(t, strings.Count(string(out), "\n"), strings.Count(string(out), eol("\n")), "line ends as in the input")
		})
	}
}

// TestDeepAndLargeValues: 10 000 levels of nesting (the YAML parser's own
// limit) and a 1 MiB scalar are read, overridden next to, and written back.
func TestDeepAndLargeValues(t *testing.T) {
	deep := strings.Repeat("[", 9999) + strings.Repeat("]", 9999)
	big := strings.Repeat("a", 1<<20)
	in := rlHead + "items:\n" +
		"- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: cm, namespace: default}\n  data:\n    deep: " + deep + "\n    big: " + big + "\n    k: v\n" +
		rlCluster + op("[{operator: replace, path: /data/k, value: changed}]") + rlFC
	out, results := runFn(t, in)
	require.Equal(t, 0, results.ExitCode(), errorMessages(results))
	assert.Contains(t, out, big)
	assert.Contains(t, out, "k: changed")

	tooDeep := strings.Replace(in, deep, strings.Repeat("[", 10001)+strings.Repeat("]", 10001), 1)
	_, results = runFn(t, tooDeep)
	assert.Contains(t, errorMessages(results), "exceeded max depth of 10000")
}

// TestInputTooLarge: the reader stops at MaxInputBytes.
func TestInputTooLarge(t *testing.T) {
	_, err := resourcelist.ReadAll(io.LimitReader(zeros{}, MaxInputBytes+10))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "larger than 256 MiB")
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestLayoutDoesNotChangeWhatIsWritten: a Kyverno patch whose JSON changes
// nothing, and Kyverno's temporary "default" namespace, leave the item's
// bytes alone whether the input's items are split out as text or not
// (indented entries take the whole-document path).
func TestLayoutDoesNotChangeWhatIsWritten(t *testing.T) {
	items := "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    namespace: x\n  data:\n    k: 'v' # a comment\n" +
		"- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: b\n    namespace: \"\"\n" +
		"- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c\n    namespace: ~\n    annotations:\n      config.kubernetes.io/index: '0'\n" +
		"- apiVersion: kyverno.io/v1\n  kind: ClusterPolicy\n  metadata: {name: p}\n  spec:\n    rules:\n    - name: r\n      match: {any: [{resources: {kinds: [ConfigMap], names: [a]}}]}\n" +
		"      mutate:\n        patchesJson6902: |-\n          - {op: replace, path: /data/k, value: v}\n" +
		"    - name: s\n      match: {any: [{resources: {kinds: [ConfigMap]}}]}\n      mutate:\n        patchStrategicMerge: {metadata: {labels: {+(x): y}}}\n"
	fc := "functionConfig: {apiVersion: v1, kind: ConfigMap, metadata: {name: fc}}\n"
	indented := "  " + strings.ReplaceAll(strings.TrimSuffix(items, "\n"), "\n", "\n  ") + "\n"
	for name, in := range map[string]string{"split": rlHead + "items:\n" + items + fc, "indented": rlHead + "items:\n" + indented + fc} {
		t.Run(name, func(t *testing.T) {
			out, results := runFn(t, in)
			require.Equal(t, 0, results.ExitCode(), errorMessages(results))
			assert.Contains(t, out, "k: 'v' # a comment\n")
			assert.Contains(t, out, "namespace: \"\"\n")
			assert.Contains(t, out, "namespace: ~\n")
		})
	}
}

// TestAliasesAndMergeKeys: merge keys are merged as the API server's YAML
// decoder merges them; an alias nesting values past MaxDepth, or one inside
// its own anchor, is an error; which item an alias bomb is reported on
// does not depend on scheduling; an alias across groups of items costs no
// other item its text.
func TestAliasesAndMergeKeys(t *testing.T) {
	t.Run("merge keys", func(t *testing.T) {
		in := rlHead + "items:\n- &base\n  apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n- <<: *base\n  metadata:\n    name: b\n" +
			"- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    <<: [{name: c, namespace: x}, {namespace: y, labels: {l: v}}]\n" +
			"functionConfig: {apiVersion: v1, kind: ConfigMap, metadata: {name: fc}}\n"
		out, results := runFn(t, in)
		require.Equal(t, 0, results.ExitCode(), errorMessages(results))
		assert.Contains(t, out, "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: b\n")
		assert.Contains(t, out, "  metadata:\n    name: c\n    namespace: x\n    labels: {l: v}\n")
	})
	t.Run("too deep", func(t *testing.T) {
		deep := strings.Repeat("[", 4000) + "x" + strings.Repeat("]", 4000)
		in := rlHead + "items:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n  data:\n    a: &a " + deep + "\n    b: &b [[[[*a]]]]\n    c: &c " + strings.Repeat("[", 3000) + "*b" + strings.Repeat("]", 3000) + "\n    d: " + strings.Repeat("[", 3000) + "*c" + strings.Repeat("]", 3000) + "\n" + rlFC
		_, results := runFn(t, in)
		assert.Contains(t, errorMessages(results), "YAML aliases nest values deeper than 10000 levels")
	})
	t.Run("an alias inside its anchor", func(t *testing.T) {
		in := rlHead + "items:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n  data: &a [*a]\n" + rlFC
		_, results := runFn(t, in)
		assert.Contains(t, errorMessages(results), "items[0] (v1 ConfigMap a, line 7): data[0]: alias *a refers to a value that contains it")
	})
	t.Run("alias bombs reported once, the same every time", func(t *testing.T) {
		var b strings.Builder
		b.WriteString(rlHead + "items:\n")
		for i := range 200 {
			fmt.Fprintf(&b, "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: cm%d}\n  data:\n    x: &x%d [%s]\n    y: [%s]\n", i, i,
				strings.TrimSuffix(strings.Repeat("v, ", 100), ", "), strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*x%d, ", i), 60), ", "))
		}
		b.WriteString(rlFC)
		_, first := runFn(t, b.String())
		require.Equal(t, 1, first.ExitCode())
		assert.Len(t, first, 1)
		for range 3 {
			_, again := runFn(t, b.String())
			assert.Equal(t, errorMessages(first), errorMessages(again))
		}
	})
	t.Run("an alias across groups", func(t *testing.T) {
		var b strings.Builder
		b.WriteString(rlHead + "items:\n")
		for i := range 70 {
			fmt.Fprintf(&b, "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: cm%d\n", i)
			if i == 0 {
				b.WriteString("    labels: &l {app: x}\n")
			}
			if i == 69 {
				b.WriteString("    labels: *l\n")
			}
			b.WriteString("  data:\n    k:   'quoted'   # odd spacing\n")
		}
		b.WriteString("functionConfig: {apiVersion: v1, kind: ConfigMap, metadata: {name: fc}}\n")
		out, results := runFn(t, b.String())
		require.Equal(t, 0, results.ExitCode(), errorMessages(results))
		assert.Equal(t, 69, strings.Count(out, "k:   'quoted'   # odd spacing"), "every item without an alias is written as its text")
		assert.Contains(t, out, "    name: cm69\n    labels: {app: x}\n")
	})
	t.Run("a BOM after a leading ---", func(t *testing.T) {
		list := rlHead + "items:\n" + rlCM + "functionConfig: {apiVersion: v1, kind: ConfigMap, metadata: {name: fc}}\n"
		indented := rlHead + "items:\n  " + strings.ReplaceAll(strings.TrimSuffix(rlCM, "\n"), "\n", "\n  ") + "\nfunctionConfig: {apiVersion: v1, kind: ConfigMap, metadata: {name: fc}}\n"
		for _, in := range []string{"---\n\xef\xbb\xbf" + list, "---\n\xef\xbb\xbf" + indented} {
			_, results := runFn(t, in)
			assert.Equal(t, 0, results.ExitCode(), errorMessages(results))
		}
	})
}
