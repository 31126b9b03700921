// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Command fanoutcheck proves that a fan-out run's output is what one run
// per cluster writes, byte for byte, apart from the path and index
// annotations the fan-out's pathTemplate rewrites.
//
//	fanoutcheck -bin BIN -input resourcelist.yaml FANOUT.out
//
// FANOUT.out is the output of BIN on the fan-out list (data.render "*").
// Its resources are grouped by cluster, the first folder of their
// config.kubernetes.io/path (the default pathTemplate, {cluster}/{path}).
// For each cluster, fanoutcheck runs BIN on the single-cluster list
// (-input, whose functionConfig ends with data.cluster) with that cluster
// named, and compares the two item by item, in order, after dropping the
// lines of the path and index annotations (and an annotations key they
// leave empty) from both. It prints the counts, and the first differences;
// the exit status is 1 when any item differs, is missing or is extra.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
)

func main() {
	bin := flag.String("bin", "", "the apply-overrides binary")
	input := flag.String("input", "", "the single-cluster ResourceList (functionConfig last, ending in data.cluster)")
	flag.Parse()
	if *bin == "" || *input == "" || flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: fanoutcheck -bin BIN -input resourcelist.yaml FANOUT.out")
		os.Exit(2)
	}
	ok, err := check(*bin, *input, flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "fanoutcheck:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}

// clusterLine is the single-cluster list's last line.
var clusterLine = regexp.MustCompile(`(?m)^    cluster: \S+\n\z`)

func check(bin, input, fanout string) (bool, error) {
	in, err := os.ReadFile(input)
	if err != nil {
		return false, err
	}
	if !clusterLine.Match(in) {
		return false, fmt.Errorf("%s does not end with a functionConfig line `    cluster: NAME`", input)
	}
	out, err := os.ReadFile(fanout)
	if err != nil {
		return false, err
	}
	var order []string
	byCluster := map[string][]string{}
	for _, it := range items(out) {
		m := pathAnno.FindStringSubmatch(it)
		if m == nil {
			return false, fmt.Errorf("%s: an item without a path annotation:\n%s", fanout, it)
		}
		name, _, ok := strings.Cut(strings.Trim(m[1], `'"`), "/")
		if !ok {
			return false, fmt.Errorf("%s: path %s has no cluster folder", fanout, m[1])
		}
		if byCluster[name] == nil {
			order = append(order, name)
		}
		byCluster[name] = append(byCluster[name], it)
	}
	same, differ, missing, extra, shown := 0, 0, 0, 0, 0
	for _, name := range order {
		single := clusterLine.ReplaceAll(in, []byte("    cluster: "+name+"\n"))
		cmd := exec.Command(bin)
		cmd.Stdin = bytes.NewReader(single)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		got, err := cmd.Output()
		if err != nil {
			return false, fmt.Errorf("cluster %s: %s: %v\n%s", name, bin, err, stderr.String())
		}
		want := items(got)
		fan := byCluster[name]
		for i := 0; i < max(len(want), len(fan)); i++ {
			switch {
			case i >= len(fan):
				missing++
			case i >= len(want):
				extra++
			case strip(fan[i]) == strip(want[i]):
				same++
				continue
			default:
				differ++
			}
			if shown < 3 {
				shown++
				fmt.Printf("cluster %s, item %d differs:\n--- single run\n%s--- fan-out\n%s", name, i, at(want, i), at(fan, i))
			}
		}
	}
	fmt.Printf("fan-out vs %d single-cluster runs: %d items identical, %d differ, %d missing, %d extra (path and index annotations ignored)\n",
		len(order), same, differ, missing, extra)
	return differ+missing+extra == 0, nil
}

func at(its []string, i int) string {
	if i < len(its) {
		return its[i]
	}
	return "(none)\n"
}

var (
	pathAnno = regexp.MustCompile(`(?m)^ +config\.kubernetes\.io/path: (.*)$`)
	// The path and index annotations, both forms.
	rewritten = regexp.MustCompile(`(?m)^ +(internal\.)?config\.kubernetes\.io/(path|index): .*\n`)
	emptyMap  = regexp.MustCompile(`(?m)^( +)annotations:\n(( [^\n]*\n)*)`)
)

// strip drops the path and index annotations from an item's text, and the
// annotations key when nothing is left under it.
func strip(it string) string {
	it = rewritten.ReplaceAllString(it, "")
	return emptyMap.ReplaceAllStringFunc(it, func(m string) string {
		sub := emptyMap.FindStringSubmatch(m)
		indent, rest := sub[1], sub[2]
		if rest == "" || !strings.HasPrefix(rest, indent+" ") {
			return rest // no key of the annotations is left
		}
		return m
	})
}

// items cuts a ResourceList's text into its items: the entries of the
// block sequence under `items:`, each from its "- " at column 0 (with the
// comment lines above it) to the next.
func items(list []byte) []string {
	var out []string
	var cur strings.Builder
	in, body := false, false // body: cur holds an entry's "- " line
	for _, line := range strings.SplitAfter(string(list), "\n") {
		switch {
		case line == "items:\n":
			in = true
			continue
		case !in:
			continue
		case strings.HasPrefix(line, "- "):
			if body {
				out = append(out, cur.String())
				cur.Reset()
			}
			body = true
		case strings.HasPrefix(line, "#") && body:
			out = append(out, cur.String()) // a comment above the next entry
			cur.Reset()
			body = false
		case line != "" && line != "\n" && line[0] != ' ' && line[0] != '#':
			in = false // the next top-level key
			continue
		}
		cur.WriteString(line)
	}
	if body {
		out = append(out, cur.String())
	}
	return out
}
