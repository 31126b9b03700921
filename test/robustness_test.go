// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

const (
	rlHead    = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n"
	rlFC      = "functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: fc}\n  data: {cluster: member1}\n"
	rlCluster = "- apiVersion: cluster.karmada.io/v1alpha1\n  kind: Cluster\n  metadata: {name: member1}\n"
	rlCM      = "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: cm, namespace: default}\n  data: {k: v}\n"
	// aliases whose last anchor stands for 10^8 nodes
	aliasBomb = "{a: &a [x, x, x, x, x, x, x, x, x, x], b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a], c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b], " +
		"d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c], e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d], f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e], " +
		"g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f], h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g, *g], i: [*h, *h, *h, *h, *h, *h, *h, *h, *h, *h]}"
)

func plaintextOP(plaintext string) string {
	return "- apiVersion: policy.karmada.io/v1alpha1\n  kind: OverridePolicy\n  metadata: {name: op, namespace: default}\n  spec:\n" +
		"    resourceSelectors: [{apiVersion: v1, kind: ConfigMap, name: cm}]\n    overrideRules:\n    - overriders:\n        plaintext: " + plaintext + "\n"
}

// TestHostileInputs runs the binary on the inputs of issue 11's probe: each
// either renders or exits 1 with a complete, item-less ResourceList and the
// error on stderr — never a panic, a partial list or a silent no-op.
func TestHostileInputs(t *testing.T) {
	manyItems := func(n, bad int) string {
		var b strings.Builder
		b.WriteString(rlHead + "items:\n")
		for i := range n {
			fmt.Fprintf(&b, "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: cm-%d\n    namespace: default\n  data:\n    k: v\n", i)
			if i == bad {
				b.WriteString("- [not, a, resource]\n")
			}
		}
		return b.String() + rlCluster + rlFC
	}
	good := rlHead + "items:\n" + rlCM + rlCluster + rlFC
	// Patterns whose stars made the old wildcard library backtrack
	// exponentially, against a 250-character name that they do not match.
	stars := strings.Repeat("*a", 24) + "*b"
	longName := strings.Repeat("a", 250)
	kyvernoCM := "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: " + longName + "\n    namespace: default\n    labels: {tier: " + strings.Repeat("a", 60) + "}\n"
	kyvernoPolicy := func(match, mutate string) string {
		return "- apiVersion: kyverno.io/v1\n  kind: ClusterPolicy\n  metadata: {name: " + strings.Repeat("a", 60) + "}\n  spec:\n    rules:\n    - name: r\n" +
			"      match: {any: [{resources: " + match + "}]}\n      mutate: " + mutate + "\n"
	}
	containers := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "      - {name: c%d, image: app:%d}\n", i, i)
		}
		return b.String()
	}
	for name, c := range map[string]struct {
		in     string
		ok     bool
		stderr string // a substring of stderr when !ok
	}{
		"items is a mapping":             {rlHead + "items: {a: b}\n", false, "items (line 3) is a YAML mapping: items must be a list of resources"},
		"trailing ---":                   {good + "---\n", true, ""},
		"comment before leading ---":     {"# generated\n---\n" + good, true, ""},
		"two documents":                  {good + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n", false, "the input holds 2 YAML documents"},
		"kind ResourceLis":               {strings.Replace(good, "kind: ResourceList", "kind: ResourceLis", 1), false, "did you mean ResourceList?"},
		"empty stdin":                    {"", false, "no input"},
		"20 000 items, bad near the end": {manyItems(20000, 19200), false, "items[19201] (line 134411): the item is a YAML list"},
		"an item that is a list":         {rlHead + "items:\n- [a, b]\n" + rlFC, false, "items[0] (line 4): the item is a YAML list"},
		"functionConfig a list":          {rlHead + "items: []\nfunctionConfig: [a]\n", false, "functionConfig (line 4) is a YAML list"},
		"alias bomb in plaintext":        {rlHead + "items:\n" + rlCM + rlCluster + plaintextOP("[{operator: add, path: /data/x, value: "+aliasBomb+"}]") + rlFC, false, "YAML aliases expand to more than 1000000 nodes"},
		"alias bomb in a KubeAdmiral jsonpatch": {rlHead + "items:\n" + rlCM +
			"- apiVersion: core.kubeadmiral.io/v1alpha1\n  kind: ClusterOverridePolicy\n  metadata: {name: cop}\n  spec:\n    overrideRules:\n    - overriders:\n        jsonpatch: [{operator: add, path: /data/x, value: " + aliasBomb + "}]\n" +
			"- apiVersion: core.kubeadmiral.io/v1alpha1\n  kind: FederatedCluster\n  metadata: {name: member1}\n" + rlFC, false, "YAML aliases expand to more than 1000000 nodes"},
		"replace the root with {}":   {rlHead + "items:\n" + rlCM + rlCluster + plaintextOP(`[{operator: replace, path: "", value: {}}]`) + rlFC, false, "leaves the resource without apiVersion"},
		"remove /kind and /metadata": {rlHead + "items:\n" + rlCM + rlCluster + plaintextOP("[{operator: remove, path: /kind}, {operator: remove, path: /metadata}]") + rlFC, false, "leaves the resource without kind"},
		"duplicate mapping keys":     {rlHead + "items:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n  data:\n    k: 1\n    k: 2\n" + rlCluster + rlFC, false, `key "k" appears twice (lines 8 and 9)`},
		"wildcard stars in Kyverno match names": {rlHead + "items:\n" + kyvernoCM +
			kyvernoPolicy("{kinds: [ConfigMap], names: ['"+stars+"']}", "{patchStrategicMerge: {metadata: {labels: {x: y}}}}") + rlCluster + rlFC, true, ""},
		"wildcard stars in admissionPolicies": {rlHead + "items:\n" + kyvernoCM +
			kyvernoPolicy("{kinds: [ConfigMap]}", "{patchStrategicMerge: {metadata: {labels: {x: y}}}}") + rlCluster +
			"functionConfig:\n  apiVersion: apply-overrides.dev/v1alpha1\n  kind: ApplyOverrides\n  metadata: {name: fc}\n  spec:\n    cluster: member1\n" +
			"    admissionPolicies: [{policies: ['" + stars + "'], clusters: [member2]}]\n", true, ""},
		"wildcard stars in a strategic-merge anchor": {rlHead + "items:\n" + kyvernoCM +
			kyvernoPolicy("{kinds: [ConfigMap]}", "{patchStrategicMerge: {metadata: {labels: {(tier): '"+stars+"', x: y}}}}") + rlCluster + rlFC, true, ""},
		"foreach strategic merge over 200 containers": {rlHead + "items:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: big, namespace: default}\n  spec:\n    containers:\n" + containers(200) +
			kyvernoPolicy("{kinds: [Pod]}", "{foreach: [{list: request.object.spec.containers, patchStrategicMerge: {spec: {containers: [{(name): '{{element.name}}', imagePullPolicy: IfNotPresent}]}}}]}") + rlCluster + rlFC, true, ""},
		"misspelt policy group": {rlHead + "items:\n" + rlCM + rlCluster + strings.Replace(plaintextOP("[{operator: replace, path: /data/k, value: x}]"), "policy.karmada.io", "karmada.io", 1) + rlFC, false, "whose apiVersion is policy.karmada.io/v1alpha1"},
	} {
		t.Run(name, func(t *testing.T) {
			stdout, stderr, code := runBinary(t, []byte(c.in))
			list := oneResourceList(t, stdout)
			if c.ok {
				require.Equal(t, 0, code, "stderr:\n%s", stderr)
				return
			}
			require.Equal(t, 1, code, "stdout:\n%s", stdout)
			assert.Contains(t, string(stderr), c.stderr)
			assert.True(t, strings.HasPrefix(string(stderr), "[error] "), "stderr:\n%s", stderr)
			items := list.Field("items")
			require.NotNil(t, items)
			assert.Empty(t, items.Value.YNode().Content, "a failed run writes no items")
			require.NotNil(t, list.Field("results"), "a failed run writes its results")
		})
	}
}

// oneResourceList parses stdout as exactly one ResourceList document.
func oneResourceList(t *testing.T, out []byte) *yaml.RNode {
	t.Helper()
	dec := yaml.NewDecoder(bytes.NewReader(out))
	var docs []*yaml.Node
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err, "stdout parses:\n%s", out)
		docs = append(docs, doc.Content[0])
	}
	require.Len(t, docs, 1, "one document on stdout")
	rn := yaml.NewRNode(docs[0])
	require.Equal(t, "ResourceList", rn.GetKind())
	return rn
}
