// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Command compare runs the apply-overrides binary -fn on generated
// MutatingAdmissionPolicy scenarios (-seed, -n) or on the *.yaml files of
// -dir, and compares every resource it emits, and every failure, with
// what the MutatingAdmissionPolicy plugin of k8s.io/apiserver v0.36.6
// does to it on CREATE (internal/oracle, internal/differ). It ends with
// the line "scenarios N, agree A, declined 0 (…), disagree D" and exits 1
// on any disagreement, 2 when it cannot start.
package main

import (
	"github.com/apply-overrides/apply-overrides/oracle/harness"
	"github.com/apply-overrides/apply-overrides/oracle/harness/compare"
	"github.com/apply-overrides/apply-overrides/oracle/harness/quiet"
	"github.com/apply-overrides/apply-overrides/oracle/kubeadmission/internal/differ"
	"github.com/apply-overrides/apply-overrides/oracle/kubeadmission/internal/gen"
)

func main() {
	quiet.Klog()
	harness.CompareMain(harness.Compare{
		Oracle:       compare.Oracle{Name: "the API server"},
		Generate:     gen.Generate,
		Scenario:     differ.Scenario,
		DeclinedNote: "none: the function renders no cluster here",
	})
}
