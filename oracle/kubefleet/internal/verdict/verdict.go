// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package verdict holds the recorded verdicts of KubeFleet v0.3.1's own
// scheduler framework and work generator (commit 78e6ca7) on the generated
// scenarios, and the JSON shape of one verdict. The code that gave them is
// not in this repository (see ../../README.md).
package verdict

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/apply-overrides/apply-overrides/oracle/harness/recorded"
)

// Recorded is the verdicts file: gzip'd JSON lines in the format of
// oracle/harness/recorded, one verdict per generated scenario.
//
//go:embed kubefleet-78e6ca7.jsonl.gz
var Recorded []byte

// Header names the verdicts' oracle and source, and where re-recording is
// explained.
var Header = recorded.Header{
	Oracle: "KubeFleet",
	Source: "kubefleet-dev/kubefleet v0.3.1 78e6ca76a392731c558791d4321f01d694843c75: scheduler framework (default profile), work generator override application",
	Readme: "oracle/kubefleet/README.md",
}

// Placed is one resource a member cluster receives.
type Placed struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
	// Object is the object as the work generator puts it in the Work:
	// stripped for dispatch, then overridden for the cluster.
	Object json.RawMessage `json:"object"`
}

// Decision is what the scheduler and the resource selection decided for
// one placement.
type Decision struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
	// Clusters are those with a Scheduled or Bound binding.
	Clusters []string `json:"clusters"`
	// Selected are the resources it selects, "Kind ns/name".
	Selected []string `json:"selected"`
}

// Result is one verdict: what KubeFleet delivers to each member cluster of
// a scenario.
type Result struct {
	// Clusters maps each MemberCluster to the resources it receives, sorted.
	Clusters map[string][]Placed `json:"clusters"`
	// Errors maps a MemberCluster to the work generator's error when an
	// override fails on it.
	Errors map[string]string `json:"errors,omitempty"`
	// Placements are the decisions per placement, in input order.
	Placements []Decision `json:"placements"`
	// Assumed lists the function's documented assumptions applied to the
	// input ("<cluster>: agent joined and healthy").
	Assumed []string `json:"assumed,omitempty"`
}

// Decode reads one verdict, refusing fields this package does not know.
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

// Content renders an object for comparison: canonical JSON (keys sorted)
// without the annotations of the KRM function protocol
// (config.kubernetes.io/, internal.config.kubernetes.io/), which are not
// part of what a member cluster receives.
func Content(u *unstructured.Unstructured) string {
	obj := u.DeepCopy()
	if ann := obj.GetAnnotations(); ann != nil {
		for k := range ann {
			if strings.HasPrefix(k, "config.kubernetes.io/") || strings.HasPrefix(k, "internal.config.kubernetes.io/") {
				delete(ann, k)
			}
		}
		if len(ann) == 0 {
			unstructured.RemoveNestedField(obj.Object, "metadata", "annotations")
		} else {
			obj.SetAnnotations(ann)
		}
	}
	data, err := json.Marshal(obj.Object)
	if err != nil {
		return "unencodable: " + err.Error()
	}
	return string(data)
}

// ObjectContent is Content of a verdict's object.
func ObjectContent(raw json.RawMessage) (string, error) {
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(raw); err != nil {
		return "", err
	}
	return Content(u), nil
}
