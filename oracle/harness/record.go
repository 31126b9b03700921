// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package harness

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/apply-overrides/apply-overrides/oracle/harness/compare"
	"github.com/apply-overrides/apply-overrides/oracle/harness/recorded"
	"github.com/apply-overrides/apply-overrides/oracle/harness/rl"
)

// Record is what RecordMain needs of an oracle module.
type Record struct {
	// Header names the oracle, its source and the readme on re-recording;
	// RecordMain sets FirstSeed and Count.
	Header recorded.Header
	// Generate makes the scenario with a seed.
	Generate func(seed uint64) *rl.ResourceList
	// Check validates one verdict (what the oracle command printed) before
	// it is recorded, e.g. by decoding it strictly.
	Check func(verdict []byte) error
}

// RecordMain records the verdicts of an oracle command (-oracle, which
// reads a ResourceList on stdin and prints its verdict as JSON) on the -n
// scenarios from -seed into the verdicts file -out. The command is built
// elsewhere: the control plane's code is not in this repository.
func RecordMain(r Record) {
	oracle := flag.String("oracle", "", "the oracle command: ResourceList on stdin, JSON verdict on stdout")
	seed := flag.Uint64("seed", 1, "seed of the first scenario")
	n := flag.Int("n", 500, "number of scenarios")
	out := flag.String("out", "", "the verdicts file to write (gzip'd JSON lines)")
	workers := flag.Int("j", runtime.GOMAXPROCS(0), "oracle runs at once")
	timeout := flag.Duration("timeout", 5*time.Minute, "time limit of one oracle run")
	flag.Parse()
	if *oracle == "" || *out == "" || *n < 1 {
		fail("record", fmt.Errorf("-oracle, -out and -n ≥ 1 are required"))
	}

	set := &recorded.Set{Header: r.Header, Entries: make([]recorded.Entry, *n)}
	set.Header.FirstSeed, set.Header.Count = *seed, *n
	errs := make([]error, *n)
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < max(1, *workers); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				s := *seed + uint64(i)
				set.Entries[i], errs[i] = recordOne(*oracle, s, r, *timeout)
			}
		}()
	}
	for i := 0; i < *n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			fail("record", err)
		}
	}

	var buf bytes.Buffer
	if err := recorded.Write(&buf, set); err != nil {
		fail("record", err)
	}
	tmp := *out + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		fail("record", err)
	}
	if err := os.Rename(tmp, *out); err != nil {
		fail("record", err)
	}
	fmt.Printf("recorded %d verdicts of %s (seeds %d..%d) into %s\n", *n, r.Header.Oracle, *seed, *seed+uint64(*n)-1, *out)
}

// recordOne runs the oracle command on the scenario with this seed.
func recordOne(oracle string, seed uint64, r Record, timeout time.Duration) (recorded.Entry, error) {
	scen, err := rl.Encode(r.Generate(seed))
	if err != nil {
		return recorded.Entry{}, fmt.Errorf("scenario %d: %w", seed, err)
	}
	stdout, stderr, err := compare.Exec(oracle, scen, timeout)
	if err != nil {
		return recorded.Entry{}, fmt.Errorf("scenario %d: the oracle failed (%v): %s", seed, err, compare.Tail(string(stderr)))
	}
	if err := r.Check(stdout); err != nil {
		return recorded.Entry{}, fmt.Errorf("scenario %d: the oracle's verdict: %w", seed, err)
	}
	return recorded.Entry{Seed: seed, SHA256: recorded.Hash(scen), Verdict: bytes.TrimSpace(stdout)}, nil
}
