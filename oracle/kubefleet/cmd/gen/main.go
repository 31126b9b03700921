// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Command gen writes N placement scenarios (KRM ResourceLists) into a
// directory, scenario i having seed SEED+i; with -n 1 and no -out it prints
// the scenario on stdout.
package main

import (
	"github.com/apply-overrides/apply-overrides/oracle/harness"

	"github.com/apply-overrides/apply-overrides/oracle/kubefleet/internal/gen"
)

func main() { harness.GenMain(gen.Scenario) }
