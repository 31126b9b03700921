// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package harness holds the command mains the placement oracles share:
// each oracle module's cmd/oracle, cmd/gen and cmd/compare call OracleMain,
// GenMain and CompareMain with the oracle's own code.
package harness

import (
	"bytes"
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
	"github.com/apply-overrides/apply-overrides/oracle/harness/recorded"
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
	// Scenario, when set, compares one scenario instead of
	// Oracle.Scenario: for an oracle whose comparison is not per member
	// cluster (oracle/kubeadmission's admission of each resource).
	Scenario ScenarioFunc
}

// ScenarioFunc compares one scenario with the function binary fn.
type ScenarioFunc func(name string, l *rl.ResourceList, fn string, timeout time.Duration) *compare.Report

type job struct {
	name   string
	list   *rl.ResourceList
	err    error
	oracle *compare.Oracle
	run    ScenarioFunc
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
	run := runFlags()
	flag.Parse()

	checkFunction(*fn)
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
			j := job{name: filepath.Base(f), err: err, oracle: &c.Oracle, run: c.Scenario}
			if err == nil {
				j.list, j.err = rl.Decode(data)
			}
			jobs = append(jobs, j)
		}
	} else {
		for i := 0; i < *n; i++ {
			s := *seed + uint64(i)
			jobs = append(jobs, job{name: fmt.Sprintf("seed %d", s), list: c.Generate(s), oracle: &c.Oracle, run: c.Scenario})
		}
	}
	if run.compare(jobs, *fn, c.DeclinedNote) > 0 {
		os.Exit(1)
	}
}

// CompareRecorded is what CompareRecordedMain needs of an oracle module
// whose control plane's code is not in the repository, only its recorded
// verdicts (package recorded).
type CompareRecorded struct {
	// Oracle describes how the verdicts meet the function's output; its Run
	// is ignored: each scenario's outcome is its recorded verdict.
	Oracle compare.Oracle
	// Verdicts is the recorded verdicts file (gzip'd JSON lines), usually
	// embedded in the command.
	Verdicts []byte
	// Generate makes the scenario with a seed; the verdicts are about its
	// scenarios, checked by hash.
	Generate func(seed uint64) *rl.ResourceList
	// Outcome turns one recorded verdict into the comparison's terms.
	Outcome func(verdict json.RawMessage) (*compare.Outcome, error)
	// DeclinedNote explains the declined count in the summary line.
	DeclinedNote string
}

// CompareRecordedMain compares the function binary -fn with the recorded
// verdicts on the first -n recorded scenarios (0: all), with the accounting
// and the output of CompareMain. It exits 2 before comparing anything when
// more scenarios are asked for than are recorded, or when a scenario the
// generator makes now is not the one its verdict was recorded on.
func CompareRecordedMain(c CompareRecorded) {
	fn := flag.String("fn", "../../bin/apply-overrides", "the apply-overrides binary")
	n := flag.Int("n", 0, "number of recorded scenarios to compare, from the first (0: all)")
	file := flag.String("verdicts", "", "a recorded verdicts file to use instead of the one built in")
	run := runFlags()
	flag.Parse()

	checkFunction(*fn)
	data := c.Verdicts
	if *file != "" {
		var err error
		if data, err = os.ReadFile(*file); err != nil {
			fail2(err)
		}
	}
	set, err := recorded.Read(bytes.NewReader(data))
	if err != nil {
		fail2(err)
	}
	jobs, changed, err := c.jobs(set, *n)
	if err != nil {
		fail2(err)
	}
	if len(changed) > 0 {
		for i, msg := range changed {
			if i == 5 {
				fmt.Fprintf(os.Stderr, "compare: … and %d more changed scenarios\n", len(changed)-i)
				break
			}
			fmt.Fprintln(os.Stderr, "compare:", msg)
		}
		os.Exit(2)
	}
	if run.compare(jobs, *fn, c.DeclinedNote) > 0 {
		os.Exit(1)
	}
}

// jobs makes the comparison of the first n recorded scenarios (0: all),
// each with its recorded verdict as the oracle's outcome. changed says which
// scenarios the generator no longer makes as they were recorded; there are
// no jobs then.
func (c CompareRecorded) jobs(set *recorded.Set, n int) (jobs []job, changed []string, err error) {
	seeds, err := set.Seeds(n)
	if err != nil {
		return nil, nil, err
	}
	for _, s := range seeds {
		l := c.Generate(s)
		scen, err := rl.Encode(l)
		if err != nil {
			return nil, nil, fmt.Errorf("scenario %d: %w", s, err)
		}
		verdict, err := set.Verdict(s, scen)
		if err != nil {
			changed = append(changed, err.Error())
			continue
		}
		out, err := c.Outcome(verdict)
		if err != nil {
			return nil, nil, fmt.Errorf("recorded verdict of scenario %d: %w (see %s)", s, err, set.Header.Readme)
		}
		o := c.Oracle
		o.Run = func([]*unstructured.Unstructured) (*compare.Outcome, error) { return out, nil }
		jobs = append(jobs, job{name: fmt.Sprintf("seed %d", s), list: l, oracle: &o})
	}
	if len(changed) > 0 {
		return nil, changed, nil
	}
	return jobs, nil, nil
}

func fail2(err error) {
	fmt.Fprintln(os.Stderr, "compare:", err)
	os.Exit(2)
}

func checkFunction(fn string) {
	if _, err := os.Stat(fn); err != nil {
		fail2(err)
	}
}

// runOptions are the flags of a comparison run both mains share.
type runOptions struct {
	maxLines *int
	workers  *int
	timeout  *time.Duration
	quiet    *bool
}

func runFlags() runOptions {
	return runOptions{
		maxLines: flag.Int("max", 15, "disagreements printed per scenario (0: all)"),
		workers:  flag.Int("j", runtime.GOMAXPROCS(0), "scenarios compared at once"),
		timeout:  flag.Duration("timeout", time.Minute, "time limit of one function run"),
		quiet:    flag.Bool("q", false, "print only the summary"),
	}
}

// compare runs the jobs on the workers, prints the summary and returns the
// number of scenarios that disagree.
func (o runOptions) compare(jobs []job, fn, declinedNote string) int {
	reports := make([]*compare.Report, len(jobs))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < max(1, *o.workers); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				j := jobs[i]
				if j.err != nil {
					reports[i] = &compare.Report{Name: j.name, OracleError: "scenario: " + j.err.Error()}
					continue
				}
				if j.run != nil {
					reports[i] = j.run(j.name, j.list, fn, *o.timeout)
					continue
				}
				reports[i] = j.oracle.Scenario(j.name, j.list, fn, *o.timeout)
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	return Summarize(os.Stdout, reports, *o.maxLines, *o.quiet, declinedNote)
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
