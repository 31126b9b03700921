// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Command record writes the verdicts of a KubeFleet oracle command
// (-oracle: a ResourceList on stdin, its verdict as JSON on stdout) on the
// generated scenarios into a verdicts file, each with the SHA-256 of its
// scenario. That command runs KubeFleet's own code and is not part of this
// repository (see ../../README.md); record only generates, hashes, checks
// and packs.
package main

import (
	"github.com/apply-overrides/apply-overrides/oracle/harness"

	"github.com/apply-overrides/apply-overrides/oracle/kubefleet/internal/gen"
	"github.com/apply-overrides/apply-overrides/oracle/kubefleet/internal/verdict"
)

func main() {
	harness.RecordMain(harness.Record{
		Header:   verdict.Header,
		Generate: gen.Scenario,
		Check: func(v []byte) error {
			_, err := verdict.Decode(v)
			return err
		},
	})
}
