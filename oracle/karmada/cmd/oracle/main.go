// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Command oracle reads a KRM ResourceList on stdin and prints, as JSON, what
// Karmada v1.16.0's own controllers and scheduler deliver to each member
// cluster (see ../../README.md).
package main

import (
	"github.com/apply-overrides/apply-overrides/oracle/harness"

	"github.com/apply-overrides/apply-overrides/oracle/karmada/internal/oracle"
)

func main() { harness.OracleMain(oracle.Run) }
