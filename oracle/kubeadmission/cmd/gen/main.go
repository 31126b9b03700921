// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Command gen writes generated MutatingAdmissionPolicy scenarios (-seed,
// -n, -out), or prints one.
package main

import (
	"github.com/apply-overrides/apply-overrides/oracle/harness"
	"github.com/apply-overrides/apply-overrides/oracle/kubeadmission/internal/gen"
)

func main() { harness.GenMain(gen.Generate) }
