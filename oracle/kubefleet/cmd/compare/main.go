// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Command compare runs the apply-overrides binary (once per MemberCluster)
// on the first -n generated scenarios and compares its output with the
// verdicts KubeFleet's own code gave on them, recorded in internal/verdict:
// which resources each cluster receives, their content after the
// overrides, and whether the overrides fail for it. A scenario the
// generator no longer makes exactly as it was recorded (SHA-256) stops the
// run before anything is compared. It ends with the line "scenarios N,
// agree A, declined C (...), disagree D" and exits 1 on any disagreement.
package main

import (
	"encoding/json"
	"strings"

	"github.com/apply-overrides/apply-overrides/oracle/harness"
	"github.com/apply-overrides/apply-overrides/oracle/harness/compare"

	"github.com/apply-overrides/apply-overrides/oracle/kubefleet/internal/gen"
	"github.com/apply-overrides/apply-overrides/oracle/kubefleet/internal/verdict"
)

func main() {
	harness.CompareRecordedMain(harness.CompareRecorded{
		Oracle: compare.Oracle{
			Name:          "KubeFleet",
			IgnoredGroups: []string{"cluster.kubernetes-fleet.io/", "placement.kubernetes-fleet.io/", "config.kubernetes.io/"},
			Content:       verdict.Content,
		},
		Verdicts:     verdict.Recorded,
		Generate:     gen.Scenario,
		Outcome:      outcome,
		DeclinedNote: "none expected: the generator gives no cluster status the function refuses to guess",
	})
}

// outcome gives a recorded verdict in the comparison's terms.
func outcome(v json.RawMessage) (*compare.Outcome, error) {
	res, err := verdict.Decode(v)
	if err != nil {
		return nil, err
	}
	out := &compare.Outcome{Errors: res.Errors, Clusters: map[string][]compare.Placed{}}
	for c, list := range res.Clusters {
		out.Clusters[c] = []compare.Placed{}
		for _, p := range list {
			content, err := verdict.ObjectContent(p.Object)
			if err != nil {
				return nil, err
			}
			out.Clusters[c] = append(out.Clusters[c], compare.Placed{APIVersion: p.APIVersion, Kind: p.Kind, Namespace: p.Namespace, Name: p.Name, Content: content})
		}
	}
	for _, d := range res.Placements {
		for _, s := range d.Selected {
			kind, nsName, _ := strings.Cut(s, " ")
			ns, name, _ := strings.Cut(nsName, "/")
			apiVersion := "v1"
			if kind == "Deployment" {
				apiVersion = "apps/v1"
			}
			pol := d.Kind + " " + d.Name
			if d.Namespace != "" {
				pol = d.Kind + " " + d.Namespace + "/" + d.Name
			}
			out.Decisions = append(out.Decisions, compare.Decision{APIVersion: apiVersion, Kind: kind, Namespace: ns, Name: name,
				Policy: pol, Details: []string{"clusters=" + strings.Join(d.Clusters, ",")}})
		}
	}
	return out, nil
}
