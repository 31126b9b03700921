// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Command compare runs placement scenarios through the KubeAdmiral oracle and
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

	"github.com/apply-overrides/apply-overrides/oracle/kubeadmiral/internal/gen"
	"github.com/apply-overrides/apply-overrides/oracle/kubeadmiral/internal/oracle"
)

func main() {
	harness.CompareMain(harness.Compare{
		Oracle: compare.Oracle{
			Name:          "KubeAdmiral",
			Run:           outcome,
			Fields:        []string{"replicas"},
			IgnoredGroups: []string{"core.kubeadmiral.io/", "config.kubernetes.io/"},
			// Part of the function's message when a placement depends on
			// FederatedCluster status (capacity, conditions or API types)
			// the input does not carry, which it refuses to guess.
			Declined: "export the FederatedCluster objects with their status",
		},
		Generate:     gen.Scenario,
		DeclinedNote: "status unknown: the function asks for the FederatedCluster status",
	})
}

// outcome runs KubeAdmiral's code on the items and gives its result in the
// comparison's terms.
func outcome(items []*unstructured.Unstructured) (*compare.Outcome, error) {
	res, err := oracle.Run(items)
	if err != nil {
		return nil, err
	}
	out := &compare.Outcome{Clusters: compare.Clusters(res.Clusters, func(p oracle.Placed) compare.Placed {
		return compare.Placed{APIVersion: p.APIVersion, Kind: p.Kind, Namespace: p.Namespace, Name: p.Name,
			Fields: map[string]*int64{"replicas": p.Replicas}}
	})}
	for _, d := range res.Resources {
		var details []string
		if len(d.Scheduled) > 0 {
			details = append(details, "scheduled="+oracle.TargetsString(d.Scheduled))
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
// leaves to Go map order (oracle.Decision.Alternatives) where what the
// function rendered for them, over every cluster it rendered, is one of
// those alternatives: their disagreements do not count.
func acceptAlternatives(want *oracle.Result, views map[string]map[string]compare.Placed) map[string]bool {
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
