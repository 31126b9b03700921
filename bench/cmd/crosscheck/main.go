// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Command crosscheck compares two renderings of the same corpus object by
// object, as decoded values: key order, comments, quoting and document
// layout do not matter; 3 and "3" do.
//
//	crosscheck [-max N] [-q] [-last] WANT GOT
//
// Each file is a ResourceList or a multi-document YAML stream. Objects are
// matched by apiVersion, kind, namespace and name. Karmada's own objects
// (policy.karmada.io, cluster.karmada.io, work.karmada.io) are left out of
// both sides, so either may keep or drop the policies and Clusters, and so
// are annotations under config.kubernetes.io/ and
// internal.config.kubernetes.io/, which orchestrators add (an annotations
// map emptied by that is dropped too). Every other difference is reported
// as a MISSING, EXTRA or DIFF line with JSON-pointer paths; the last line
// counts them, and the exit status is 1 when anything differs. An object
// that appears twice in one file is an error, unless -last, which keeps its
// last occurrence (the Kyverno CLI writes each resource once per policy,
// the last time as every policy left it).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strings"

	"github.com/apply-overrides/apply-overrides/bench/internal/objects"
)

func main() {
	limit := flag.Int("max", 10, "report at most this many differing objects, and this many paths of each")
	quiet := flag.Bool("q", false, "print only the summary line")
	last := flag.Bool("last", false, "when an object appears more than once in a file, compare its last occurrence")
	flag.Parse()
	if flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: crosscheck [-max N] [-q] [-last] WANT GOT")
		os.Exit(2)
	}
	report := io.Writer(os.Stdout)
	if *quiet {
		report = io.Discard
	}
	same, err := run(flag.Arg(0), flag.Arg(1), *limit, *last, report, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "crosscheck:", err)
		os.Exit(2)
	}
	if !same {
		os.Exit(1)
	}
}

func run(wantPath, gotPath string, limit int, last bool, report, summary io.Writer) (bool, error) {
	want, err := load(wantPath, last)
	if err != nil {
		return false, err
	}
	got, err := load(gotPath, last)
	if err != nil {
		return false, err
	}
	gotByKey := make(map[string]map[string]any, len(got))
	for _, o := range got {
		gotByKey[o.Key] = o.Val
	}
	var identical, differ, missing int
	seen := make(map[string]bool, len(want))
	for _, o := range want {
		seen[o.Key] = true
		g, ok := gotByKey[o.Key]
		if !ok {
			missing++
			if missing+differ <= limit {
				fmt.Fprintf(report, "MISSING %s\n", o.Key)
			}
			continue
		}
		var paths []string
		diff("", o.Val, g, &paths, limit)
		if len(paths) == 0 {
			identical++
			continue
		}
		differ++
		if missing+differ <= limit {
			fmt.Fprintf(report, "DIFF %s\n", o.Key)
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

// load reads a file's objects; an object that appears twice is an error,
// unless last, which keeps the last occurrence in the place of the first.
func load(path string, last bool) ([]objects.Object, error) {
	objs, err := objects.Load(path)
	if err != nil {
		return nil, err
	}
	at := make(map[string]int, len(objs))
	out := objs[:0]
	for _, o := range objs {
		i, dup := at[o.Key]
		switch {
		case !dup:
			at[o.Key] = len(out)
			out = append(out, o)
		case last:
			out[i] = o
		default:
			return nil, fmt.Errorf("%s: %s appears twice", path, o.Key)
		}
	}
	return out, nil
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
