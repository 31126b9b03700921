// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Command compare runs placement scenarios through the KubeAdmiral oracle and
// through the apply-overrides binary (once per member cluster) and reports
// where they disagree. Scenarios come from -dir (files written by gen) or are
// generated in memory from -seed and -n. It ends with the line
// "scenarios N, agree A, declined C (...), disagree D" and exits 1 on any disagreement.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/apply-overrides/apply-overrides/oracle/kubeadmiral/internal/compare"
	"github.com/apply-overrides/apply-overrides/oracle/kubeadmiral/internal/gen"
	"github.com/apply-overrides/apply-overrides/oracle/kubeadmiral/internal/oracle"
	"github.com/apply-overrides/apply-overrides/oracle/kubeadmiral/internal/rl"
)

type job struct {
	name string
	list *rl.ResourceList
	err  error
}

func main() {
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
			jobs = append(jobs, job{name: fmt.Sprintf("seed %d", s), list: gen.Scenario(s)})
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
				reports[i] = compare.Scenario(j.name, j.list, *fn, *timeout)
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()

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
		if *quiet {
			continue
		}
		fmt.Printf("== %s (seed %s): %d disagreement(s)\n", r.Name, r.Seed, len(r.Disagreements))
		if r.OracleError != "" {
			fmt.Printf("   oracle error: %s\n", r.OracleError)
		}
		for i, d := range r.Disagreements {
			if *maxLines > 0 && i == *maxLines {
				fmt.Printf("   … %d more\n", len(r.Disagreements)-i)
				break
			}
			fmt.Printf("   seed=%s %s\n", r.Seed, d)
		}
		for _, d := range r.Decisions {
			pol := d.Policy
			if pol == "" {
				pol = "none"
			}
			line := fmt.Sprintf("   oracle: %s %s %s/%s policy=%s", d.APIVersion, d.Kind, d.Namespace, d.Name, pol)
			if len(d.Scheduled) > 0 {
				line += " scheduled=" + oracle.TargetsString(d.Scheduled)
			}
			if len(d.Alternatives) > 0 {
				line += fmt.Sprintf(" alternatives=%d", len(d.Alternatives))
			}
			if len(d.Leaders) > 0 {
				line += fmt.Sprintf(" leaders=%v", d.Leaders)
			}
			if d.Reason != "" {
				line += " reason=" + d.Reason
			}
			fmt.Println(line)
		}
	}
	if len(fields) > 0 {
		names := make([]string, 0, len(fields))
		for f := range fields {
			names = append(names, f)
		}
		sort.Strings(names)
		fmt.Print("disagreements by field:")
		for _, f := range names {
			fmt.Printf(" %s %d", f, fields[f])
		}
		fmt.Println()
	}
	if oracleErrors > 0 {
		fmt.Printf("oracle errors %d\n", oracleErrors)
	}
	fmt.Printf("scenarios %d, agree %d, declined %d (status unknown: the function asks for the FederatedCluster status), disagree %d\n", len(reports), agree, declined, disagree)
	if disagree > 0 {
		os.Exit(1)
	}
}
