// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Command gen writes N placement scenarios (KRM ResourceLists) into a
// directory, scenario i having seed SEED+i; with -n 1 and no -out it prints
// the scenario on stdout.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/apply-overrides/apply-overrides/oracle/kubeadmiral/internal/gen"
	"github.com/apply-overrides/apply-overrides/oracle/kubeadmiral/internal/rl"
)

func main() {
	seed := flag.Uint64("seed", 1, "seed of the first scenario")
	n := flag.Int("n", 1, "number of scenarios")
	out := flag.String("out", "", "directory to write scenario-<seed>.yaml files into (stdout when empty and -n 1)")
	flag.Parse()
	if *out == "" && *n != 1 {
		fail(fmt.Errorf("-out is required with -n > 1"))
	}
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			fail(err)
		}
	}
	for i := 0; i < *n; i++ {
		s := *seed + uint64(i)
		data, err := rl.Encode(gen.Scenario(s))
		if err != nil {
			fail(err)
		}
		if *out == "" {
			os.Stdout.Write(data)
			continue
		}
		if err := os.WriteFile(filepath.Join(*out, fmt.Sprintf("scenario-%08d.yaml", s)), data, 0o644); err != nil {
			fail(err)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen:", err)
	os.Exit(1)
}
