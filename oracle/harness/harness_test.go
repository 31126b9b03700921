// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package harness

import (
	"strings"
	"testing"

	"github.com/apply-overrides/apply-overrides/oracle/harness/compare"
)

func TestSummarize(t *testing.T) {
	d := compare.Disagreement{Cluster: "a", Resource: "apps/v1 Deployment default/web", Field: "replicas", Oracle: "2", Function: "3"}
	reports := []*compare.Report{
		{Name: "s1", Seed: "1"},
		{Name: "s2", Seed: "2", Declined: []string{"b"}},
		{Name: "s3", Seed: "3", Disagreements: []compare.Disagreement{d, d},
			Decisions: []compare.Decision{{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: "web", Details: []string{"scheduled=a"}, Reason: "why"}}},
		{Name: "s4", OracleError: "boom"},
	}
	var b strings.Builder
	if n := Summarize(&b, reports, 1, false, "note"); n != 2 {
		t.Errorf("Summarize counted %d disagreeing scenarios, want 2", n)
	}
	want := `== s3 (seed 3): 2 disagreement(s)
   seed=3 cluster=a resource="apps/v1 Deployment default/web" field=replicas oracle=2 function=3
   … 1 more
   oracle: apps/v1 Deployment default/web policy=none scheduled=a reason=why
== s4 (seed ): 0 disagreement(s)
   oracle error: boom
disagreements by field: replicas 2
oracle errors 1
scenarios 4, agree 1, declined 1 (note), disagree 2
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	Summarize(&b, reports[:2], 0, true, "note")
	if b.String() != "scenarios 2, agree 1, declined 1 (note), disagree 0\n" {
		t.Errorf("quiet: %q", b.String())
	}
}
