// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Command compare runs placement scenarios through the Karmada oracle and
// through the apply-overrides binary (once per member cluster) and reports
// where they disagree. Scenarios come from -dir (files written by gen) or are
// generated in memory from -seed and -n. It ends with the line
// "scenarios N, agree A, declined C (...), disagree D" and exits 1 on any
// disagreement. The comparison itself is oracle/harness's.
package main

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/apply-overrides/apply-overrides/oracle/harness"
	"github.com/apply-overrides/apply-overrides/oracle/harness/compare"

	"github.com/apply-overrides/apply-overrides/oracle/karmada/internal/gen"
	"github.com/apply-overrides/apply-overrides/oracle/karmada/internal/oracle"
)

func main() {
	harness.CompareMain(harness.Compare{
		Oracle: compare.Oracle{
			Name:          "Karmada",
			Run:           outcome,
			Fields:        []string{"replicas", "parallelism", "completions"},
			IgnoredGroups: []string{"policy.karmada.io/", "cluster.karmada.io/", "config.kubernetes.io/"},
			// The function's message when a placement depends on the
			// capacity of Clusters that carry no status.resourceSummary
			// (its documented behaviour: README "Placement").
			Declined: "carry none: export the Cluster objects with their status",
		},
		Generate:     gen.Scenario,
		DeclinedNote: "capacity unknown: the function asks for Cluster status.resourceSummary",
	})
}

// outcome runs Karmada's code on the items and gives its result in the
// comparison's terms.
func outcome(items []*unstructured.Unstructured) (*compare.Outcome, error) {
	res, err := oracle.Run(items)
	if err != nil {
		return nil, err
	}
	out := &compare.Outcome{Clusters: compare.Clusters(res.Clusters, func(p oracle.Placed) compare.Placed {
		return compare.Placed{APIVersion: p.APIVersion, Kind: p.Kind, Namespace: p.Namespace, Name: p.Name,
			Fields: map[string]*int64{"replicas": p.Replicas, "parallelism": p.Parallelism, "completions": p.Completions}}
	})}
	for _, d := range res.Resources {
		var details []string
		if len(d.Scheduled) > 0 {
			details = append(details, fmt.Sprintf("scheduled=%v", d.Scheduled))
		}
		if len(d.RequiredBy) > 0 {
			details = append(details, fmt.Sprintf("requiredBy=%v", d.RequiredBy))
		}
		out.Decisions = append(out.Decisions, compare.Decision{APIVersion: d.APIVersion, Kind: d.Kind, Namespace: d.Namespace, Name: d.Name,
			Policy: d.Policy, Details: details, Reason: d.Reason})
	}
	return out, nil
}
