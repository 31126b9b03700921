// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package verdict holds the recorded verdicts of KubeAdmiral's own
// scheduler framework, plugins and planners (commit 19de01c) on the
// generated scenarios, and the JSON shape of one verdict. The code that
// gave them is not in this repository (see ../../README.md).
package verdict

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/apply-overrides/apply-overrides/oracle/harness/recorded"
)

// Recorded is the verdicts file: gzip'd JSON lines in the format of
// oracle/harness/recorded, one verdict per generated scenario.
//
//go:embed kubeadmiral-19de01c.jsonl.gz
var Recorded []byte

// Header names the verdicts' oracle and source, and where re-recording is
// explained.
var Header = recorded.Header{
	Oracle: "KubeAdmiral",
	Source: "kubewharf/kubeadmiral 19de01cdeddef4caf97ada8384d691aae1ccc26e (2025-03-26): scheduler framework, in-tree plugins and planners",
	Readme: "oracle/kubeadmiral/README.md",
}

// Placed is one resource a member cluster receives.
type Placed struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
	// Replicas is spec.replicas of the object the member receives: the
	// scheduler's override in Divide mode, else the template's.
	Replicas *int64 `json:"replicas,omitempty"`
}

// Target is one cluster of a scheduling result.
type Target struct {
	Name     string `json:"name"`
	Replicas *int64 `json:"replicas,omitempty"`
}

// Decision is what the control plane decided for one resource template.
type Decision struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
	// Policy is "PropagationPolicy ns/name" or "ClusterPropagationPolicy
	// name" as the labels name it (found or not), or "" when none does.
	Policy string `json:"policy"`
	// Reason says why the scheduler placed it nowhere, or how it was placed
	// otherwise (namespace auto-propagation).
	Reason string `json:"reason,omitempty"`
	// Scheduled is the scheduler's result, absent when it placed nothing.
	Scheduled []Target `json:"scheduled,omitempty"`
	// Alternatives are other results the same input gave on other runs of
	// the scheduler: the dynamic weights of ClusterCapacityWeight (rsp.go
	// AvailableToPercentage) give the rounding remainder to the first
	// heaviest cluster in Go map order, so ties make upstream
	// nondeterministic. Any of Scheduled and these is upstream's answer.
	Alternatives [][]Target `json:"alternatives,omitempty"`
	// Leaders names the leaders (Kind ns/name) whose placement it follows.
	Leaders []string `json:"leaders,omitempty"`
	// Clusters are the clusters it is dispatched to (placement union ∩ joined).
	Clusters []string `json:"clusters,omitempty"`
}

// Result is one verdict: what KubeAdmiral delivers to each member cluster
// of a scenario.
type Result struct {
	// Clusters maps each FederatedCluster name to the resources it receives, sorted.
	Clusters map[string][]Placed `json:"clusters"`
	// Resources is the decision per resource template, in input order.
	Resources []Decision `json:"resources"`
	// Assumed lists the function's documented assumptions applied to the
	// input: "<cluster>: apiResourceTypes" (given every API of the scenario)
	// and "<cluster>: Ready=True,Joined=True" (no Ready condition).
	Assumed []string `json:"assumed,omitempty"`
}

// Decode reads one verdict, refusing fields this package does not know:
// a verdict is recorded only when every part of it is understood here.
func Decode(data []byte) (*Result, error) {
	r := &Result{}
	if err := recorded.DecodeVerdict(data, r); err != nil {
		return nil, err
	}
	if r.Clusters == nil {
		return nil, fmt.Errorf("no clusters")
	}
	return r, nil
}

// TargetsString renders a scheduling result as "c01=2 c02=4 ".
func TargetsString(ts []Target) string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(t.Name)
		if t.Replicas != nil {
			fmt.Fprintf(&b, "=%d", *t.Replicas)
		}
		b.WriteString(" ")
	}
	return b.String()
}
