// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/fn"
)

// maxFuzzInput bounds the inputs FuzzMain runs, so the fuzzer stays fast.
const maxFuzzInput = 64 << 10

// fuzzDeadline is how long one input may take before FuzzMain calls it a
// hang; the largest seed takes milliseconds.
const fuzzDeadline = 20 * time.Second

// FuzzMain runs the whole function in-process on any input and checks what
// a caller (kpt, kustomize, a shell) relies on:
//   - it returns, without a panic, within fuzzDeadline, and a second run
//     gives the same exit status, stdout and stderr;
//   - the exit status is 0 or 1, 0 exactly when the output holds no result
//     of severity error, and 1 only with an error result or a message on
//     stderr;
//   - stdout parses as YAML (no duplicate keys either) and, when not
//     empty, is exactly one ResourceList document; a failure reported only
//     on stderr leaves stdout empty.
//
// The seeds are the golden inputs, the examples' ResourceLists and
// testdata/fuzz/FuzzMain (conformance cases and saved failures).
func FuzzMain(f *testing.F) {
	for _, pattern := range []string{"../testdata/golden/*/input.yaml", "../examples/*/resourcelist.yaml"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range files {
			b, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(string(b))
		}
	}
	f.Fuzz(func(t *testing.T, in string) {
		if len(in) > maxFuzzInput {
			return
		}
		checkRun(t, in)
	})
}

// FuzzMainItems is FuzzMain on ResourceLists that are always well formed:
// resources and policies (each a YAML list or one mapping) become the
// items, config the spec of an ApplyOverrides functionConfig, so the
// mutations reach the dialects and the overriders rather than the reader.
// The seeds are the conformance cases (testdata/conformance), their cluster
// as the functionConfig's inline inventory.
func FuzzMainItems(f *testing.F) {
	files, err := filepath.Glob("../testdata/conformance/*/*.yaml")
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range files {
		resources, policies, config, err := conformanceSeed(file)
		if err != nil {
			f.Fatalf("%s: %v", file, err)
		}
		f.Add(resources, policies, config)
	}
	f.Fuzz(func(t *testing.T, resources, policies, config string) {
		if len(resources)+len(policies)+len(config) > maxFuzzInput {
			return
		}
		in, ok := resourceList(resources, policies, config)
		if !ok {
			return
		}
		checkRun(t, in)
	})
}

// conformanceSeed splits a conformance case into FuzzMainItems' arguments.
func conformanceSeed(file string) (resources, policies, config string, err error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return "", "", "", err
	}
	var c struct {
		Cluster   map[string]any `yaml:"cluster"`
		Resources []any          `yaml:"resources"`
		Policies  []any          `yaml:"policies"`
	}
	if err := yaml.Unmarshal(b, &c); err != nil {
		return "", "", "", err
	}
	spec := map[string]any{}
	if c.Cluster != nil {
		spec["cluster"] = c.Cluster["name"]
		spec["clusters"] = []any{c.Cluster}
	}
	var out [3][]byte
	for i, v := range []any{c.Resources, c.Policies, spec} {
		if out[i], err = yaml.Marshal(v); err != nil {
			return "", "", "", err
		}
	}
	return string(out[0]), string(out[1]), string(out[2]), nil
}

// resourceList builds the input of FuzzMainItems; false when a part is not
// YAML of the right shape.
func resourceList(resources, policies, config string) (string, bool) {
	items := &yaml.Node{Kind: yaml.SequenceNode}
	for _, part := range []string{resources, policies} {
		n, ok := parseNode(part)
		switch {
		case !ok:
			return "", false
		case n == nil:
		case n.Kind == yaml.SequenceNode:
			items.Content = append(items.Content, n.Content...)
		default:
			items.Content = append(items.Content, n)
		}
	}
	spec, ok := parseNode(config)
	if !ok {
		return "", false
	}
	fc := yaml.NewMapRNode(&map[string]string{"apiVersion": "apply-overrides.dev/v1alpha1", "kind": "ApplyOverrides"})
	if err := fc.SetName("fuzz"); err != nil {
		return "", false
	}
	if spec != nil {
		if err := fc.PipeE(yaml.SetField("spec", yaml.NewRNode(spec))); err != nil {
			return "", false
		}
	}
	rl := yaml.NewMapRNode(&map[string]string{"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList"})
	if err := rl.PipeE(yaml.SetField("items", yaml.NewRNode(items))); err != nil {
		return "", false
	}
	if err := rl.PipeE(yaml.SetField("functionConfig", fc)); err != nil {
		return "", false
	}
	s, err := rl.String()
	return s, err == nil
}

// parseNode parses one YAML document; nil for an empty one.
func parseNode(s string) (*yaml.Node, bool) {
	var n yaml.Node
	err := yaml.NewDecoder(bytes.NewReader([]byte(s))).Decode(&n)
	if errors.Is(err, io.EOF) {
		return nil, true
	}
	if err != nil || n.Kind != yaml.DocumentNode || len(n.Content) != 1 {
		return nil, false
	}
	return n.Content[0], true
}

// checkRun runs fn.Main on in and checks FuzzMain's properties.
func checkRun(t *testing.T, in string) {
	t.Helper()
	var stdout, stderr, stdout2, stderr2 bytes.Buffer
	code := runMain(t, in, &stdout, &stderr)
	if code2 := runMain(t, in, &stdout2, &stderr2); code2 != code || stdout2.String() != stdout.String() || stderr2.String() != stderr.String() {
		t.Fatalf("two runs differ: exit %d and %d\nstdout:\n%s\nthen:\n%s\nstderr:\n%s\nthen:\n%s", code, code2, stdout.String(), stdout2.String(), stderr.String(), stderr2.String())
	}
	if code != 0 && code != 1 {
		t.Fatalf("exit status %d; stderr:\n%s", code, stderr.String())
	}
	docs, err := decodeAll(stdout.Bytes())
	if err != nil {
		t.Fatalf("stdout is not YAML: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	for _, d := range docs {
		var v any
		if err := d.Decode(&v); err != nil {
			t.Fatalf("stdout is not YAML: %v\nstdout:\n%s", err, stdout.String())
		}
	}
	if len(docs) > 0 {
		if len(docs) != 1 || !isResourceListNode(docs[0]) {
			t.Fatalf("stdout holds %d documents, not one ResourceList:\n%s", len(docs), stdout.String())
		}
	}
	errorResults := 0
	for _, d := range docs {
		errorResults += countErrorResults(d)
	}
	switch {
	case code == 0 && errorResults > 0:
		t.Fatalf("exit 0 with %d error results:\n%s", errorResults, stdout.String())
	case code == 1 && errorResults == 0 && stderr.Len() == 0:
		t.Fatalf("exit 1 with neither an error result nor a message on stderr:\n%s", stdout.String())
	case code == 1 && errorResults == 0 && stdout.Len() > 0:
		t.Fatalf("exit 1 without an error result, yet a ResourceList on stdout (a failed write must leave none):\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	}
}

// runMain runs fn.Main on in, failing t on a panic or a hang.
func runMain(t *testing.T, in string, stdout, stderr *bytes.Buffer) int {
	t.Helper()
	type outcome struct {
		code  int
		panic any
	}
	var out, errOut bytes.Buffer
	done := make(chan outcome, 1)
	go func() {
		var o outcome
		defer func() {
			o.panic = recover()
			done <- o
		}()
		o.code = fn.Main(nil, bytes.NewReader([]byte(in)), &out, &errOut)
	}()
	select {
	case o := <-done:
		if o.panic != nil {
			t.Fatalf("panic: %v\nstderr:\n%s", o.panic, errOut.String())
		}
		stdout.Write(out.Bytes())
		stderr.Write(errOut.Bytes())
		return o.code
	case <-time.After(fuzzDeadline):
		t.Fatalf("no exit within %s", fuzzDeadline)
	}
	return -1
}

// decodeAll decodes every YAML document of b.
func decodeAll(b []byte) ([]*yaml.Node, error) {
	var docs []*yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(b))
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, err
		}
		docs = append(docs, &n)
	}
}

func isResourceListNode(doc *yaml.Node) bool {
	m := mapping(doc)
	if m == nil {
		return false
	}
	kind := yaml.NewRNode(m).Field("kind")
	return kind != nil && kind.Value.YNode().Kind == yaml.ScalarNode && kind.Value.YNode().Value == "ResourceList"
}

// countErrorResults counts the results of severity error in a ResourceList.
func countErrorResults(doc *yaml.Node) int {
	m := mapping(doc)
	if m == nil {
		return 0
	}
	results := yaml.NewRNode(m).Field("results")
	if results == nil || results.Value.YNode().Kind != yaml.SequenceNode {
		return 0
	}
	n := 0
	for _, r := range results.Value.YNode().Content {
		if r.Kind != yaml.MappingNode {
			continue
		}
		if sev := yaml.NewRNode(r).Field("severity"); sev != nil && sev.Value.YNode().Value == "error" {
			n++
		}
	}
	return n
}

// mapping is the mapping at the root of a decoded document, or nil.
func mapping(doc *yaml.Node) *yaml.Node {
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		doc = doc.Content[0]
	}
	if doc.Kind != yaml.MappingNode {
		return nil
	}
	return doc
}
