// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Command compare runs the apply-overrides binary (once per member cluster)
// on the first -n generated scenarios and compares its output with the
// verdicts KubeAdmiral's own code gave on them, recorded in
// internal/verdict. A scenario the generator no longer makes exactly as it
// was recorded (SHA-256) stops the run before anything is compared. It ends
// with the line "scenarios N, agree A, declined C (...), disagree D" and
// exits 1 on any disagreement. The comparison itself is oracle/harness's.
package main

import (
	"encoding/json"
	"fmt"

	"github.com/apply-overrides/apply-overrides/oracle/harness"
	"github.com/apply-overrides/apply-overrides/oracle/harness/compare"

	"github.com/apply-overrides/apply-overrides/oracle/kubeadmiral/internal/gen"
	"github.com/apply-overrides/apply-overrides/oracle/kubeadmiral/internal/verdict"
)

func main() {
	harness.CompareRecordedMain(harness.CompareRecorded{
		Oracle: compare.Oracle{
			Name:          "KubeAdmiral",
			Fields:        []string{"replicas"},
			IgnoredGroups: []string{"core.kubeadmiral.io/", "config.kubernetes.io/"},
			// Part of the function's message when a placement depends on
			// FederatedCluster status (capacity, conditions or API types)
			// the input does not carry, which it refuses to guess.
			Declined: "export the FederatedCluster objects with their status",
		},
		Verdicts:     verdict.Recorded,
		Generate:     gen.Scenario,
		Outcome:      outcome,
		DeclinedNote: "status unknown: the function asks for the FederatedCluster status",
	})
}

// outcome gives a recorded verdict in the comparison's terms.
func outcome(v json.RawMessage) (*compare.Outcome, error) {
	res, err := verdict.Decode(v)
	if err != nil {
		return nil, err
	}
	out := &compare.Outcome{Clusters: compare.Clusters(res.Clusters, func(p verdict.Placed) compare.Placed {
		return compare.Placed{APIVersion: p.APIVersion, Kind: p.Kind, Namespace: p.Namespace, Name: p.Name,
			Fields: map[string]*int64{"replicas": p.Replicas}}
	})}
	for _, d := range res.Resources {
		var details []string
		if len(d.Scheduled) > 0 {
			details = append(details, "scheduled="+verdict.TargetsString(d.Scheduled))
		}
		if len(d.Alternatives) > 0 {
			details = append(details, fmt.Sprintf("alternatives=%d", len(d.Alternatives)))
		}
		if len(d.Leaders) > 0 {
			details = append(details, fmt.Sprintf("leaders=%v", d.Leaders))
		}
		out.Decisions = append(out.Decisions, compare.Decision{APIVersion: d.APIVersion, Kind: d.Kind, Namespace: d.Namespace, Name: d.Name,
			Policy: d.Policy, Details: details, Reason: d.Reason})
	}
	out.Accept = func(views map[string]map[string]compare.Placed) map[string]bool {
		return acceptAlternatives(res, views)
	}
	return out, nil
}

// acceptAlternatives returns the resources whose scheduling upstream itself
// leaves to Go map order (verdict.Decision.Alternatives) where what the
// function rendered for them, over every cluster it rendered, is one of
// those alternatives: their disagreements do not count.
func acceptAlternatives(want *verdict.Result, views map[string]map[string]compare.Placed) map[string]bool {
	accepted := map[string]bool{}
	for _, d := range want.Resources {
		if len(d.Alternatives) == 0 {
			continue
		}
		k := compare.Key(d.APIVersion, d.Kind, d.Namespace, d.Name)
		got := map[string]string{}
		for c, view := range views {
			if p, ok := view[k]; ok {
				got[c] = compare.Int(p.Fields["replicas"])
			}
		}
		for _, alt := range d.Alternatives {
			exp := map[string]string{}
			for _, t := range alt {
				if _, ok := views[t.Name]; ok {
					exp[t.Name] = compare.Int(t.Replicas)
				}
			}
			if fmt.Sprint(exp) == fmt.Sprint(got) {
				accepted[k] = true
			}
		}
	}
	return accepted
}
