// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package gen

import (
	"strings"
	"testing"

	"github.com/apply-overrides/apply-overrides/oracle/harness/rl"
	"github.com/apply-overrides/apply-overrides/oracle/harness/scenario"
)

func TestDeterministic(t *testing.T) {
	if err := scenario.Deterministic(Generate, 25); err != nil {
		t.Fatal(err)
	}
}

// TestCoverage holds that the first 100 scenarios draw every part of the
// API the brief lists, each at least a few times.
func TestCoverage(t *testing.T) {
	want := map[string]string{
		"v1 policy":                "apiVersion: admissionregistration.k8s.io/v1\n  kind: MutatingAdmissionPolicy\n",
		"v1beta1 policy":           "apiVersion: admissionregistration.k8s.io/v1beta1\n  kind: MutatingAdmissionPolicy\n",
		"v1alpha1 policy":          "apiVersion: admissionregistration.k8s.io/v1alpha1\n  kind: MutatingAdmissionPolicy\n",
		"excludeResourceRules":     "excludeResourceRules:",
		"namespaceSelector":        "namespaceSelector:",
		"objectSelector":           "objectSelector:",
		"matchPolicy Exact":        "matchPolicy: Exact",
		"matchPolicy Equivalent":   "matchPolicy: Equivalent",
		"matchConditions":          "matchConditions:",
		"variables":                "variables:",
		"ApplyConfiguration":       "patchType: ApplyConfiguration",
		"JSONPatch":                "patchType: JSONPatch",
		"JSONPatch add":            `op: "add"`,
		"JSONPatch replace":        `op: "replace"`,
		"JSONPatch remove":         `op: "remove"`,
		"escaped key ~1":           "~1owner",
		"jsonpatch.escapeKey":      "jsonpatch.escapeKey",
		"containers list-map":      `image: "busybox:1.36"`,
		"securityContext":          "securityContext",
		"replicas":                 "replicas:",
		"failurePolicy Fail":       "failurePolicy: Fail",
		"failurePolicy Ignore":     "failurePolicy: Ignore",
		"paramKind":                "paramKind:",
		"paramRef name":            "paramRef:\n      name:",
		"paramRef selector":        "selector:\n        matchLabels:\n          set:",
		"paramRef namespace":       "      namespace: ",
		"parameterNotFound Allow":  "parameterNotFoundAction: Allow",
		"parameterNotFound Deny":   "parameterNotFoundAction: Deny",
		"missing param":            "name: missing",
		"binding matchResources":   "matchResources:",
		"reinvocationPolicy Never": "reinvocationPolicy: Never",
		"reinvocation IfNeeded":    "reinvocationPolicy: IfNeeded",
		"third policy":             "name: map-2\n",
		"second binding":           "binding-1",
		"failing expression":       `labels["absent"]`,
	}
	seen := map[string]int{}
	for seed := uint64(1); seed <= 100; seed++ {
		data, err := rl.Encode(Generate(seed))
		if err != nil {
			t.Fatal(err)
		}
		for name, s := range want {
			if strings.Contains(string(data), s) {
				seen[name]++
			}
		}
	}
	for name := range want {
		if seen[name] < 3 {
			t.Errorf("%s: in %d of 100 scenarios, want at least 3", name, seen[name])
		}
	}
}
