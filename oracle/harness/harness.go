// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package harness holds the command mains the placement oracles share:
// each oracle module's cmd/oracle, cmd/gen and cmd/compare call OracleMain,
// GenMain and CompareMain with the oracle's own code.
package harness

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/apply-overrides/apply-overrides/oracle/harness/compare"
	"github.com/apply-overrides/apply-overrides/oracle/harness/rl"
)

// OracleMain reads a KRM ResourceList on stdin, runs the oracle on its
// items and prints the result as indented JSON; it exits 1 on an error.
func OracleMain[R any](run func(items []*unstructured.Unstructured) (R, error)) {
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		fail("oracle", err)
	}
	l, err := rl.Decode(data)
	if err != nil {
		fail("oracle", err)
	}
	res, err := run(l.Items)
	if err != nil {
		fail("oracle", err)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(res); err != nil {
		fail("oracle", err)
	}
}

// GenMain writes the scenarios of generate for -n seeds from -seed into
// -out as scenario-<seed>.yaml, or prints the one scenario of -n 1 when
// -out is empty.
func GenMain(generate func(seed uint64) *rl.ResourceList) {
	seed := flag.Uint64("seed", 1, "seed of the first scenario")
	n := flag.Int("n", 1, "number of scenarios")
	out := flag.String("out", "", "directory to write scenario-<seed>.yaml files into (stdout when empty and -n 1)")
	flag.Parse()
	if *out == "" && *n != 1 {
		fail("gen", fmt.Errorf("-out is required with -n > 1"))
	}
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			fail("gen", err)
		}
	}
	for i := 0; i < *n; i++ {
		s := *seed + uint64(i)
		data, err := rl.Encode(generate(s))
		if err != nil {
			fail("gen", err)
		}
		if *out == "" {
			os.Stdout.Write(data)
			continue
		}
		if err := os.WriteFile(filepath.Join(*out, fmt.Sprintf("scenario-%08d.yaml", s)), data, 0o644); err != nil {
			fail("gen", err)
		}
	}
}

func fail(cmd string, err error) {
	fmt.Fprintln(os.Stderr, cmd+":", err)
	os.Exit(1)
}

// Compare is what CompareMain needs of an oracle module.
type Compare struct {
	// Oracle is the oracle and how its outcome meets the function's.
	Oracle compare.Oracle
	// Generate makes the scenario with a seed, for runs without -dir.
	Generate func(seed uint64) *rl.ResourceList
	// DeclinedNote explains the declined count in the summary line, as in
	// "declined 3 (<DeclinedNote>)".
	DeclinedNote string
}

type job struct {
	name string
	list *rl.ResourceList
	err  error
}

// CompareMain runs scenarios (the *.yaml files of -dir, or -n generated
// from -seed) through the oracle and the function binary -fn, prints each
// scenario that disagrees with the oracle's decisions for the resources
// involved, and ends with the line "scenarios N, agree A, declined C
// (<note>), disagree D"; it exits 1 when D > 0, and 2 when it cannot start.
func CompareMain(c Compare) {
	fn := flag.String("fn", "../../bin/apply-overrides", "the apply-overrides binary")
	dir := flag.String("dir", "", "directory of scenario *.yaml files (else generate from -seed and -n)")
	seed := flag.Uint64("seed", 1, "seed of the first generated scenario")
	n := flag.Int("n", 10, "number of generated scenarios")
	maxLines := flag.Int("max", 15, "disagreements printed per scenario (0: all)")
	workers := flag.Int("j", runtime.GOMAXPROCS(0), "scenarios compared at once")
	timeout := flag.Duration("timeout", time.Minute, "time limit of one function run")
	quiet := flag.Bool("q", false, "print only the summary")
	flag.Parse()

	if _, err := os.Stat(*fn); err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(2)
	}
	var jobs []job
	if *dir != "" {
		files, err := filepath.Glob(filepath.Join(*dir, "*.yaml"))
		if err != nil || len(files) == 0 {
			fmt.Fprintf(os.Stderr, "compare: no scenarios in %s\n", *dir)
			os.Exit(2)
		}
		sort.Strings(files)
		for _, f := range files {
			data, err := os.ReadFile(f)
			j := job{name: filepath.Base(f), err: err}
			if err == nil {
				j.list, j.err = rl.Decode(data)
			}
			jobs = append(jobs, j)
		}
	} else {
		for i := 0; i < *n; i++ {
			s := *seed + uint64(i)
			jobs = append(jobs, job{name: fmt.Sprintf("seed %d", s), list: c.Generate(s)})
		}
	}

	reports := make([]*compare.Report, len(jobs))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < max(1, *workers); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				j := jobs[i]
				if j.err != nil {
					reports[i] = &compare.Report{Name: j.name, OracleError: "scenario: " + j.err.Error()}
					continue
				}
				reports[i] = c.Oracle.Scenario(j.name, j.list, *fn, *timeout)
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()

	if Summarize(os.Stdout, reports, *maxLines, *quiet, c.DeclinedNote) > 0 {
		os.Exit(1)
	}
}

// Summarize prints the reports that disagree (unless quiet; at most
// maxLines disagreements each, 0 for all), the disagreements by field, the
// number of oracle errors and the summary line, and returns the number of
// scenarios that disagree. A scenario that agrees where the function
// rendered, but where it declined some cluster, counts as declined.
func Summarize(w io.Writer, reports []*compare.Report, maxLines int, quiet bool, declinedNote string) int {
	agree, declined, disagree, oracleErrors := 0, 0, 0, 0
	fields := map[string]int{}
	for _, r := range reports {
		if r.Agree() && len(r.Declined) > 0 {
			declined++
			continue
		}
		if r.Agree() {
			agree++
			continue
		}
		disagree++
		if r.OracleError != "" {
			oracleErrors++
		}
		for _, d := range r.Disagreements {
			fields[d.Field]++
		}
		if quiet {
			continue
		}
		fmt.Fprintf(w, "== %s (seed %s): %d disagreement(s)\n", r.Name, r.Seed, len(r.Disagreements))
		if r.OracleError != "" {
			fmt.Fprintf(w, "   oracle error: %s\n", r.OracleError)
		}
		for i, d := range r.Disagreements {
			if maxLines > 0 && i == maxLines {
				fmt.Fprintf(w, "   … %d more\n", len(r.Disagreements)-i)
				break
			}
			fmt.Fprintf(w, "   seed=%s %s\n", r.Seed, d)
		}
		for _, d := range r.Decisions {
			fmt.Fprintf(w, "   oracle: %s\n", d)
		}
	}
	if len(fields) > 0 {
		names := make([]string, 0, len(fields))
		for f := range fields {
			names = append(names, f)
		}
		sort.Strings(names)
		fmt.Fprint(w, "disagreements by field:")
		for _, f := range names {
			fmt.Fprintf(w, " %s %d", f, fields[f])
		}
		fmt.Fprintln(w)
	}
	if oracleErrors > 0 {
		fmt.Fprintf(w, "oracle errors %d\n", oracleErrors)
	}
	fmt.Fprintf(w, "scenarios %d, agree %d, declined %d (%s), disagree %d\n", len(reports), agree, declined, declinedNote, disagree)
	return disagree
}
