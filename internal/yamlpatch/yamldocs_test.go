// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlpatch

import (
	"sort"
	"testing"
)

// yamlCorpus holds YAML documents (anchors and aliases, YAML-only scalar
// spellings, comments) against evanphx applied to their JSON view.
var yamlCorpus = map[string]diffCase{
	"alias/replace-through": {
		"base: &b\n  x: 1\n  y: [1, 2]\nuse: *b\n",
		`[{"op":"replace","path":"/use/x","value":2}]`,
	},
	"alias/add-to-anchor": {
		"base: &b\n  x: 1\nuse: *b\nother: *b\n",
		`[{"op":"add","path":"/base/z","value":3}]`,
	},
	"alias/remove-anchor": {
		"base: &b\n  x: 1\nuse: *b\n",
		`[{"op":"remove","path":"/base"}]`,
	},
	"alias/replace-anchor": {
		"base: &b [1, 2]\nuse: *b\n",
		`[{"op":"replace","path":"/base","value":[3]}]`,
	},
	"alias/remove-inside-anchor": {
		"base: &b\n  x: &s hello\nuse: *b\nstr: *s\n",
		`[{"op":"remove","path":"/base/x"}]`,
	},
	"alias/move-anchor-after-alias": {
		"base: &b\n  x: 1\nuse: *b\n",
		`[{"op":"move","from":"/base","path":"/z"}]`,
	},
	"alias/move-before-anchor": {
		"base: &b {x: 1}\nlist:\n- *b\n",
		`[{"op":"move","from":"/list/0","path":"/a"},{"op":"move","from":"/base","path":"/b"}]`,
	},
	"alias/move-alias-forward": {
		"a: 0\nbase: &b {x: 1}\nuse: *b\n",
		`[{"op":"move","from":"/use","path":"/0"},{"op":"move","from":"/base","path":"/z"}]`,
	},
	"alias/copy-alias": {
		"base: &b {x: 1}\nuse: *b\n",
		`[{"op":"copy","from":"/use","path":"/c"},{"op":"add","path":"/c/y","value":2}]`,
	},
	"alias/test-through": {
		"base: &b {x: 1}\nuse: *b\n",
		`[{"op":"test","path":"/use","value":{"x":1}},{"op":"test","path":"/use/x","value":1}]`,
	},
	"alias/key-alias": {
		"keys: &k name\nmap:\n  *k : web\n",
		`[{"op":"remove","path":"/keys"},{"op":"add","path":"/map/x","value":1}]`,
	},
	"alias/anchored-key-removed": {
		"&k a: 1\nb: {*k : 2}\n",
		`[{"op":"remove","path":"/a"}]`,
	},
	// found by the fuzzer: a key aliasing its own mapping made copies cyclic
	"alias/key-is-own-mapping": {"&k\n*k:\n", `[{"op":"add","path":"/","value":null},{"op":"copy","from":"","path":"/x"}]`},
	"alias/seq-item": {
		"base: &b hello\nlist: [*b, *b]\n",
		`[{"op":"replace","path":"/list/0","value":"bye"},{"op":"remove","path":"/base"}]`,
	},
	"yaml/scalars": {
		"hex: 0x1F\nunderscore: 1_000\nfloat: .5\nnull1: ~\nnull2:\nbool: True\nts: 2024-01-02\nstr: 'on'\n",
		`[{"op":"test","path":"/hex","value":31},{"op":"test","path":"/underscore","value":1000},{"op":"test","path":"/float","value":0.5},{"op":"test","path":"/null1","value":null},{"op":"test","path":"/null2","value":null},{"op":"test","path":"/bool","value":true},{"op":"test","path":"/ts","value":"2024-01-02"},{"op":"test","path":"/str","value":"on"}]`,
	},
	"yaml/comments": {
		commentedDeploy,
		`[{"op":"replace","path":"/spec/replicas","value":5},{"op":"move","from":"/metadata/labels","path":"/spec/selector"},{"op":"copy","from":"/spec/selector","path":"/spec/template/metadata"}]`,
	},
	"yaml/document-null": {"~\n", `[{"op":"add","path":"","value":{"a":1}}]`},
	// found by the fuzzer: a null written as nothing, moved into a flow
	// sequence, was rendered as '' and read back as a string
	"yaml/empty-null-into-flow": {"0:\n1: [0,0]\n2:\n", `[{"op":"move","path":"/1/1","from":"/0"}]`},
	// found by the fuzzer: expanding aliases of an empty null inside a flow
	// sequence had the same problem
	"alias/empty-null-anchor-in-flow": {"0: &b \n1: [*b,*b]\n", `[{"op":"add","path":"/0","value":null}]`},
	// found by the fuzzer: emptying a block mapping under a key with a line
	// comment made the encoder write invalid YAML
	"yaml/emptied-under-key-comment":     {"a:\n  b: # note\n    c: 1\n  d: 2\n", `[{"op":"move","from":"/a/b/c","path":"/e"},{"op":"remove","path":"/a/d"}]`},
	"yaml/emptied-seq-under-key-comment": {"a: # note\n- 1\nb: 2\n", `[{"op":"remove","path":"/a/0"}]`},
	"yaml/empty-null-value-flow":         {"a: [1]\n", `[{"op":"add","path":"/a/-","value":null},{"op":"copy","from":"/a","path":"/b"}]`},
}

func TestYAMLDocumentsAgainstEvanphx(t *testing.T) {
	names := make([]string, 0, len(yamlCorpus))
	for name := range yamlCorpus {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		c := yamlCorpus[name]
		t.Run(name, func(t *testing.T) {
			checkAgainstEvanphx(t, c.doc, c.patch, false)
		})
	}
}
