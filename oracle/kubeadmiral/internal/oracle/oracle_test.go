// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package oracle

import (
	"fmt"
	"testing"

	"github.com/apply-overrides/apply-overrides/oracle/harness/oracletest"
	"github.com/apply-overrides/apply-overrides/oracle/kubeadmiral/internal/gen"
)

// summary renders a Result as "cluster: Kind/ns/name[=replicas] ..." lines.
func summary(r *Result) string {
	return oracletest.Summary(r.Clusters, func(p Placed) string {
		s := p.Kind + "/" + p.Namespace + "/" + p.Name
		if p.Replicas != nil {
			s += fmt.Sprintf("=%d", *p.Replicas)
		}
		return s
	})
}

func run(t *testing.T, file string) *Result {
	t.Helper()
	res, err := Run(oracletest.Items(t, file))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func check(t *testing.T, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// Spec §4.1, verified through the offline build with key default/nginx:
// 10 replicas over c01..c03 → 2/4/4, 1 replica → c02; the referenced
// ConfigMap follows its leader (§6), Namespaces go everywhere (§1.6), a
// missing policy places nothing (§1.3).
func TestSpread(t *testing.T) {
	res := run(t, "spread.yaml")
	check(t, summary(res), "c01: Deployment/default/nginx=2 Namespace//apps\n"+
		"c02: Deployment/default/nginx=4 Deployment/default/one=1 ConfigMap/default/one-cfg Namespace//apps\n"+
		"c03: Deployment/default/nginx=4 Namespace//apps\n")
	if len(res.Assumed) != 6 {
		t.Errorf("assumed %v, want apiResourceTypes and Ready/Joined for 3 clusters", res.Assumed)
	}
}

// Spec §4.2: Binpack with c01 maxReplicas 4 → c01:4 c02:6; StatefulSet
// Divide → Duplicate.
func TestBinpack(t *testing.T) {
	check(t, summary(run(t, "binpack.yaml")), "c01: Deployment/default/nginx=4 StatefulSet/default/db=3\n"+
		"c02: Deployment/default/nginx=6 StatefulSet/default/db=3\n"+
		"c03: StatefulSet/default/db=3\n")
}

// Spec §3.6 / §1.3 / §1.6: maxClusters 0 → nowhere, PP label wins, system
// and kube-* namespaces stay home, a cluster not joined gets nothing.
func TestMaxClustersZero(t *testing.T) {
	res := run(t, "max-clusters-zero.yaml")
	check(t, summary(res), "c01: Deployment/apps/everywhere=2 Namespace//apps\nc02:\n")
	for _, d := range res.Resources {
		if d.Name == "both" && d.Policy != "PropagationPolicy default/gone" {
			t.Errorf("both: policy %q", d.Policy)
		}
	}
}

// Every generated scenario runs through KubeAdmiral's code without an
// oracle error, and the scheduler runs are reproducible apart from the
// reported alternatives.
func TestGeneratedScenarios(t *testing.T) {
	for seed := uint64(1); seed <= 100; seed++ {
		l := gen.Scenario(seed)
		a, err := Run(l.Items)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		b, err := Run(gen.Scenario(seed).Items)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for i := range a.Resources {
			if len(a.Resources[i].Alternatives) == 0 && TargetsString(a.Resources[i].Scheduled) != TargetsString(b.Resources[i].Scheduled) {
				t.Errorf("seed %d %s/%s: %s then %s", seed, a.Resources[i].Kind, a.Resources[i].Name,
					TargetsString(a.Resources[i].Scheduled), TargetsString(b.Resources[i].Scheduled))
			}
		}
	}
}
