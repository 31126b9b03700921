// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package harness

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apply-overrides/apply-overrides/oracle/harness/compare"
	"github.com/apply-overrides/apply-overrides/oracle/harness/recorded"
	"github.com/apply-overrides/apply-overrides/oracle/harness/rl"
	"github.com/apply-overrides/apply-overrides/oracle/harness/scenario"
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

// recordedFixture is a generator of one-Deployment scenarios and verdicts
// recorded on its seeds 1 and 2: cluster "a" receives the Deployment with
// `replicas` replicas.
func recordedFixture(t *testing.T, replicas int64) (CompareRecorded, *recorded.Set) {
	t.Helper()
	generate := func(seed uint64) *rl.ResourceList {
		return scenario.List(seed, []any{map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
			"metadata": map[string]any{"name": "web", "namespace": "default"}, "spec": map[string]any{"replicas": int64(seed)}}})
	}
	set := &recorded.Set{Header: recorded.Header{Oracle: "Upstream", Readme: "oracle/up/README.md", FirstSeed: 1, Count: 2}}
	for seed := uint64(1); seed <= 2; seed++ {
		h, err := recorded.ScenarioHash(generate(seed))
		if err != nil {
			t.Fatal(err)
		}
		set.Entries = append(set.Entries, recorded.Entry{Seed: seed, SHA256: h, Verdict: json.RawMessage(fmt.Sprintf(`{"a":%d}`, replicas))})
	}
	c := CompareRecorded{
		Oracle:   compare.Oracle{Name: "Upstream", Fields: []string{"replicas"}, Declined: "never"},
		Generate: generate,
		Outcome: func(v json.RawMessage) (*compare.Outcome, error) {
			var m map[string]int64
			if err := json.Unmarshal(v, &m); err != nil {
				return nil, err
			}
			out := &compare.Outcome{Clusters: map[string][]compare.Placed{}}
			for cluster, r := range m {
				out.Clusters[cluster] = []compare.Placed{{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: "web",
					Fields: map[string]*int64{"replicas": &r}}}
			}
			return out, nil
		},
	}
	return c, set
}

// The recorded verdicts meet a "function" that outputs its input (cat):
// seed 1 (1 replica) agrees with a verdict of 1 replica, seed 2 does not.
func TestCompareRecorded(t *testing.T) {
	fn := filepath.Join(t.TempDir(), "fn")
	if err := os.WriteFile(fn, []byte("#!/bin/sh\nexec cat\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	c, set := recordedFixture(t, 1)
	jobs, changed, err := c.jobs(set, 0)
	if err != nil || len(changed) > 0 || len(jobs) != 2 {
		t.Fatalf("jobs %d, changed %v, err %v", len(jobs), changed, err)
	}
	var b strings.Builder
	zero, one, quiet := 0, 1, true
	timeout := time.Minute
	reports := make([]*compare.Report, len(jobs))
	for i, j := range jobs {
		reports[i] = j.oracle.Scenario(j.name, j.list, fn, timeout)
	}
	if n := Summarize(&b, reports, 0, true, "note"); n != 1 {
		t.Errorf("%d scenarios disagree, want 1 (seed 2)", n)
	}
	if got := reports[1].Disagreements; len(got) != 1 || got[0].Field != "replicas" || got[0].Oracle != "1" || got[0].Function != "2" {
		t.Errorf("seed 2: %v", got)
	}
	if !strings.Contains(b.String(), "scenarios 2, agree 1, declined 0 (note), disagree 1") {
		t.Errorf("summary %q", b.String())
	}
	opts := runOptions{maxLines: &zero, workers: &one, timeout: &timeout, quiet: &quiet}
	jobs, _, _ = c.jobs(set, 1)
	if n := opts.compare(jobs, fn, "note"); n != 0 {
		t.Errorf("seed 1 alone: %d disagree", n)
	}
}

func TestCompareRecordedRefusesChangedScenarios(t *testing.T) {
	c, set := recordedFixture(t, 1)
	if _, _, err := c.jobs(set, 3); err == nil || !strings.Contains(err.Error(), "3 scenarios asked for, but 2 verdicts of Upstream are recorded") {
		t.Errorf("n=3: %v", err)
	}
	generate := c.Generate
	c.Generate = func(seed uint64) *rl.ResourceList {
		l := generate(seed)
		if seed == 2 {
			l.Items[0].SetLabels(map[string]string{"new": "label"})
		}
		return l
	}
	jobs, changed, err := c.jobs(set, 0)
	if err != nil || len(jobs) != 0 || len(changed) != 1 || !strings.HasPrefix(changed[0], "scenario 2 changed since the verdicts were recorded") {
		t.Errorf("jobs %d, changed %v, err %v", len(jobs), changed, err)
	}
}

// recordOne pipes the scenario to the oracle command and keeps its
// verdict with the scenario's hash; a failing command or a verdict Check
// refuses is an error naming the scenario.
func TestRecordOne(t *testing.T) {
	c, set := recordedFixture(t, 1)
	dir := t.TempDir()
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	r := Record{Header: set.Header, Generate: c.Generate, Check: func(v []byte) error {
		if !json.Valid(v) {
			return fmt.Errorf("not JSON")
		}
		return nil
	}}
	e, err := recordOne(script("ok", `cat >/dev/null; echo '{"a": 1}'`), 2, r, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if e.Seed != 2 || e.SHA256 != set.Entries[1].SHA256 || string(e.Verdict) != `{"a": 1}` {
		t.Errorf("entry %+v", e)
	}
	if _, err := recordOne(script("fails", `echo broken >&2; exit 3`), 1, r, time.Minute); err == nil ||
		!strings.Contains(err.Error(), "scenario 1: the oracle failed (exit status 3): broken") {
		t.Errorf("failing oracle: %v", err)
	}
	if _, err := recordOne(script("garbage", `echo nope`), 1, r, time.Minute); err == nil ||
		!strings.Contains(err.Error(), "scenario 1: the oracle's verdict: not JSON") {
		t.Errorf("garbage verdict: %v", err)
	}
}
