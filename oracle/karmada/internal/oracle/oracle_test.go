// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package oracle

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apply-overrides/apply-overrides/oracle/harness/oracletest"
)

// summary renders a Result as "cluster: kind/name[=replicas,parallelism,completions] ..." lines.
func summary(r *Result) string {
	return oracletest.Summary(r.Clusters, func(p Placed) string {
		s := p.Kind + "/" + p.Name
		if p.Replicas != nil || p.Parallelism != nil || p.Completions != nil {
			s += fmt.Sprintf("=%s,%s,%s", num(p.Replicas), num(p.Parallelism), num(p.Completions))
		}
		return s
	})
}

func num(p *int64) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprint(*p)
}

func run(t *testing.T, file string) *Result {
	t.Helper()
	res, err := Run(oracletest.Items(t, file))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rejected) > 0 {
		t.Fatalf("rejected: %v", res.Rejected)
	}
	return res
}

// Static weights 2:1 over 3 replicas give 2 and 1: the ACK One seed's
// example (docs/placement.md) and Webster's method (pkg/util/helper
// webstermethod_test.go); the ConfigMap the Deployment references follows it
// (propagateDeps, dependencies_distributor_test.go), the Namespace goes to
// every cluster (namespace sync controller, docs/placement.md).
func TestStaticWeights(t *testing.T) {
	got := summary(run(t, "static-weights.yaml"))
	want := "member1: Deployment/nginx=2,-,- ConfigMap/cfg Namespace/apps\n" +
		"member2: Deployment/nginx=2,-,- ConfigMap/cfg Namespace/apps\n"
	want = strings.Replace(want, "member2: Deployment/nginx=2", "member2: Deployment/nginx=1", 1)
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// Implicit priority name > labelSelector > kind-only, explicit priority
// before implicit, and the smaller name on a full tie: pkg/detector
// compare_test.go ("different implicit priority policy", "one policy with
// explicit priority -1(name match), one policy with implicit
// priority(label selector match)", "two policies with explicit priority
// 1(name match), select the one with lower alphabetical order").
func TestImplicitPriority(t *testing.T) {
	res := run(t, "implicit-priority.yaml")
	policies := map[string]string{}
	for _, d := range res.Resources {
		policies[d.Name] = d.Policy
	}
	for name, want := range map[string]string{
		"web":   "PropagationPolicy default/by-name",
		"api":   "PropagationPolicy default/z-explicit",
		"cache": "PropagationPolicy default/tie-a",
		"other": "PropagationPolicy default/by-kind",
	} {
		if policies[name] != want {
			t.Errorf("%s claimed by %q, want %q", name, policies[name], want)
		}
	}
	got := summary(res)
	want := "a: Deployment/cache=2,-,- Deployment/other=2,-,-\n" +
		"b: Deployment/api=2,-,-\n" +
		"c: Deployment/web=2,-,-\n" +
		"d:\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// Replica division: Job parallelism 4 / completions 10 over static 1:1 →
// parallelism 2+2, completions 5+5 (pkg/controllers/binding common_test.go
// Test_divideReplicasByJobCompletions); 12 replicas at 3:2:1 → 6/4/2
// (pkg/scheduler/core assignment_test.go "replica 12, weight 3:2:1");
// dynamic weight over available 6/8/3 with 10 replicas → 3/5/2 and
// Aggregated → b 6, a 4 (division_algorithm_test.go).
func TestReplicaDivision(t *testing.T) {
	got := summary(run(t, "replica-division.yaml"))
	want := "a: Deployment/agg=4,-,- Deployment/dyn=3,-,- Deployment/web=6,-,- Job/pi=-,2,5\n" +
		"b: Deployment/agg=6,-,- Deployment/dyn=5,-,- Deployment/web=4,-,- Job/pi=-,2,5\n" +
		"c: Deployment/dyn=2,-,- Deployment/web=2,-,-\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
