// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// badPolicy is one row of the bad-input table: policies in, one error out.
type badPolicy struct {
	// policies are YAML documents separated by "---"; each gets the
	// path annotations of policies.yaml (document index = its position)
	// when its metadata can carry them.
	policies string
	// want are substrings of one error message: the policy, the field,
	// what is wrong.
	want []string
	// file is the result's file.path: "" means policies.yaml (the policy is
	// invalid), "resources.yaml" a rule that fails on the Deployment,
	// "-" none.
	file string
}

// goDumps are what a message must never be made of: decoder internals.
var goDumps = []string{"cannot unmarshal", "Go struct", "Go value", "!!map", "!!seq", "!!str", "!!int", "!!null", "json: cannot", "yaml: line", "yaml: unmarshal", "reflect.", "%!"}

// badPolicyResources is what every row renders: one Deployment, bound by
// label to KubeAdmiral policies named x when the row has KubeAdmiral ones.
const badPolicyResources = `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
  labels: {app: web LABELS}
spec:
  replicas: 1
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: c
        image: nginx:1.0
        args: [serve]
`

func TestBadPolicies(t *testing.T) {
	tables := map[string]map[string]badPolicy{
		"karmada":     karmadaBadPolicies,
		"kubeadmiral": kubeadmiralBadPolicies,
		"kubefleet":   kubefleetBadPolicies,
		"kyverno":     kyvernoBadPolicies,
		"any":         commonBadPolicies,
	}
	rows := 0
	for system, table := range tables {
		for name, row := range table {
			rows++
			t.Run(system+"/"+name, func(t *testing.T) {
				t.Parallel()
				runBadPolicy(t, row)
			})
		}
	}
	t.Logf("%d rows", rows)
}

func runBadPolicy(t *testing.T, row badPolicy) {
	stdout, stderr, code := runBinary(t, badPolicyList(t, row.policies))
	require.NotEqual(t, 0, code, "expected a failure; stdout:\n%s", stdout)
	out, err := yaml.Parse(string(stdout))
	require.NoError(t, err, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	results, err := out.Pipe(yaml.Lookup("results"))
	require.NoError(t, err)
	require.NotNil(t, results, "no results; stderr:\n%s", stderr)
	file := row.file
	if file == "" {
		file = "policies.yaml"
	}
	var msgs []string
	found := false
	for _, r := range results.Content() {
		rn := yaml.NewRNode(r)
		if yaml.GetValue(rn.Field("severity").Value) != "error" {
			continue
		}
		msg := yaml.GetValue(rn.Field("message").Value)
		msgs = append(msgs, msg)
		for _, dump := range goDumps {
			assert.NotContains(t, msg, dump, "a message in Go's words")
		}
		if !containsAll(msg, row.want) {
			continue
		}
		found = true
		got := "-"
		if f := rn.Field("file"); f != nil {
			got = yaml.GetValue(f.Value.Field("path").Value)
		}
		assert.Equal(t, file, got, "file of %q", msg)
	}
	assert.True(t, found, "no error message contains all of %q; got:\n%s", row.want, strings.Join(msgs, "\n"))
}

func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

// badPolicyList builds the ResourceList: the Deployment (resources.yaml),
// the policies (policies.yaml), cluster member1 inline. It is written as
// text, so that the policies reach the function as written (an empty
// value stays a null).
func badPolicyList(t *testing.T, policies string) []byte {
	var b strings.Builder
	b.WriteString(`apiVersion: config.kubernetes.io/v1
kind: ResourceList
functionConfig:
  apiVersion: apply-overrides.dev/v1alpha1
  kind: ApplyOverrides
  metadata: {name: render}
  spec:
    cluster: member1
    clusters: [{name: member1, labels: {env: prod}}]
items:
`)
	add := func(doc, file string, index int) {
		n, err := yaml.Parse(doc)
		require.NoError(t, err, "row YAML:\n%s", doc)
		annotate(n.YNode(), file, index)
		text, err := n.String()
		require.NoError(t, err)
		b.WriteString("-" + indent(text, 2)[1:] + "\n")
	}
	labels := ""
	if strings.Contains(policies, "core.kubeadmiral.io/v1alpha1\nkind: OverridePolicy") {
		labels = ", kubeadmiral.io/override-policy-name: x, kubeadmiral.io/cluster-override-policy-name: x"
	}
	add(strings.Replace(badPolicyResources, " LABELS", labels, 1), "resources.yaml", 0)
	for i, doc := range strings.Split(policies, "\n---\n") {
		add(doc, "policies.yaml", i)
	}
	return []byte(b.String())
}

// annotate adds the path and index annotations when metadata and
// annotations are maps (or absent).
func annotate(n *yaml.Node, file string, index int) {
	meta := mapValue(n, "metadata")
	if meta == nil || meta.Kind != yaml.MappingNode {
		return
	}
	annos := mapValue(meta, "annotations")
	if annos == nil {
		annos = &yaml.Node{Kind: yaml.MappingNode}
		meta.Content = append(meta.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "annotations"}, annos)
	}
	if annos.Kind != yaml.MappingNode {
		return
	}
	for _, kv := range [][2]string{
		{"config.kubernetes.io/path", file}, {"internal.config.kubernetes.io/path", file},
		{"config.kubernetes.io/index", strconv.Itoa(index)}, {"internal.config.kubernetes.io/index", strconv.Itoa(index)},
	} {
		annos.Content = append(annos.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: kv[0]},
			&yaml.Node{Kind: yaml.ScalarNode, Value: kv[1], Style: yaml.DoubleQuotedStyle})
	}
}

func mapValue(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// indent indents every line of s by n spaces.
func indent(s string, n int) string {
	pad := strings.Repeat(" ", n)
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = pad + l
		}
	}
	return strings.Join(lines, "\n")
}
