// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Command crosscheck compares two renderings of the same corpus object by
// object, as decoded values: key order, comments, quoting and document
// layout do not matter; 3 and "3" do.
//
//	crosscheck [-max N] [-q] WANT GOT
//
// Each file is a ResourceList or a multi-document YAML stream. Objects are
// matched by apiVersion, kind, namespace and name. Karmada's own objects
// (policy.karmada.io, cluster.karmada.io, work.karmada.io) are left out of
// both sides, so either may keep or drop the policies and Clusters, and so
// are annotations under config.kubernetes.io/ and
// internal.config.kubernetes.io/, which orchestrators add (an annotations
// map emptied by that is dropped too). Every other difference is reported
// as a MISSING, EXTRA or DIFF line with JSON-pointer paths; the last line
// counts them, and the exit status is 1 when anything differs.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

func main() {
	limit := flag.Int("max", 10, "report at most this many differing objects, and this many paths of each")
	quiet := flag.Bool("q", false, "print only the summary line")
	flag.Parse()
	if flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: crosscheck [-max N] [-q] WANT GOT")
		os.Exit(2)
	}
	report := io.Writer(os.Stdout)
	if *quiet {
		report = io.Discard
	}
	same, err := run(flag.Arg(0), flag.Arg(1), *limit, report, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "crosscheck:", err)
		os.Exit(2)
	}
	if !same {
		os.Exit(1)
	}
}

// object is one compared object and where it came from.
type object struct {
	key string
	val map[string]any
}

func run(wantPath, gotPath string, limit int, report, summary io.Writer) (bool, error) {
	want, err := load(wantPath)
	if err != nil {
		return false, err
	}
	got, err := load(gotPath)
	if err != nil {
		return false, err
	}
	gotByKey := make(map[string]map[string]any, len(got))
	for _, o := range got {
		if _, dup := gotByKey[o.key]; dup {
			return false, fmt.Errorf("%s: %s appears twice", gotPath, o.key)
		}
		gotByKey[o.key] = o.val
	}
	var identical, differ, missing int
	seen := make(map[string]bool, len(want))
	for _, o := range want {
		if seen[o.key] {
			return false, fmt.Errorf("%s: %s appears twice", wantPath, o.key)
		}
		seen[o.key] = true
		g, ok := gotByKey[o.key]
		if !ok {
			missing++
			if missing+differ <= limit {
				fmt.Fprintf(report, "MISSING %s\n", o.key)
			}
			continue
		}
		var paths []string
		diff("", o.val, g, &paths, limit)
		if len(paths) == 0 {
			identical++
			continue
		}
		differ++
		if missing+differ <= limit {
			fmt.Fprintf(report, "DIFF %s\n", o.key)
			for _, p := range paths {
				fmt.Fprintf(report, "  %s\n", p)
			}
		}
	}
	var extra []string
	for k := range gotByKey {
		if !seen[k] {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	for i, k := range extra {
		if i < limit {
			fmt.Fprintf(report, "EXTRA %s\n", k)
		}
	}
	fmt.Fprintf(summary, "%d objects: %d identical, %d differ, %d missing, %d extra\n",
		len(want), identical, differ, missing, len(extra))
	return differ == 0 && missing == 0 && len(extra) == 0, nil
}

// load reads a ResourceList's items, or every document of a YAML stream.
func load(path string) ([]object, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var docs []any
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	for {
		var d any
		err := dec.Decode(&d)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if d != nil {
			docs = append(docs, d)
		}
	}
	if len(docs) == 1 {
		if m, ok := docs[0].(map[string]any); ok && m["kind"] == "ResourceList" {
			items, _ := m["items"].([]any)
			docs = items
		}
	}
	objs := make([]object, 0, len(docs))
	for i, d := range docs {
		m, ok := d.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: object %d is a %T, not a mapping", path, i, d)
		}
		apiVersion, _ := m["apiVersion"].(string)
		if isKarmada(apiVersion) {
			continue
		}
		kind, _ := m["kind"].(string)
		meta, _ := m["metadata"].(map[string]any)
		ns, _ := meta["namespace"].(string)
		name, _ := meta["name"].(string)
		dropOrchestratorAnnotations(meta)
		objs = append(objs, object{key: fmt.Sprintf("%s %s %s/%s", apiVersion, kind, ns, name), val: m})
	}
	return objs, nil
}

func isKarmada(apiVersion string) bool {
	group, _, _ := strings.Cut(apiVersion, "/")
	switch group {
	case "policy.karmada.io", "cluster.karmada.io", "work.karmada.io":
		return true
	}
	return false
}

func dropOrchestratorAnnotations(meta map[string]any) {
	ann, ok := meta["annotations"].(map[string]any)
	if !ok {
		return
	}
	n := len(ann)
	for k := range ann {
		if strings.HasPrefix(k, "config.kubernetes.io/") || strings.HasPrefix(k, "internal.config.kubernetes.io/") {
			delete(ann, k)
		}
	}
	if n > 0 && len(ann) == 0 {
		delete(meta, "annotations")
	}
}

// diff appends to paths, up to limit entries, the JSON pointers where want
// and got differ.
func diff(at string, want, got any, paths *[]string, limit int) {
	if len(*paths) >= limit {
		return
	}
	wm, wIsMap := want.(map[string]any)
	gm, gIsMap := got.(map[string]any)
	if wIsMap && gIsMap {
		keys := make([]string, 0, len(wm)+len(gm))
		for k := range wm {
			keys = append(keys, k)
		}
		for k := range gm {
			if _, ok := wm[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := at + "/" + strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
			wv, wok := wm[k]
			gv, gok := gm[k]
			switch {
			case !gok:
				add(paths, limit, "%s: missing (want %s)", p, show(wv))
			case !wok:
				add(paths, limit, "%s: extra (got %s)", p, show(gv))
			default:
				diff(p, wv, gv, paths, limit)
			}
		}
		return
	}
	ws, wIsSeq := want.([]any)
	gs, gIsSeq := got.([]any)
	if wIsSeq && gIsSeq && len(ws) == len(gs) {
		for i := range ws {
			diff(fmt.Sprintf("%s/%d", at, i), ws[i], gs[i], paths, limit)
		}
		return
	}
	if !reflect.DeepEqual(want, got) {
		add(paths, limit, "%s: want %s, got %s", at, show(want), show(got))
	}
}

func add(paths *[]string, limit int, format string, args ...any) {
	if len(*paths) < limit {
		*paths = append(*paths, fmt.Sprintf(format, args...))
	}
}

func show(v any) string {
	s := fmt.Sprintf("%#v", v)
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}
