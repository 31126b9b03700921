// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Command oracle reads a scenario's KRM ResourceList on stdin and prints
// what the MutatingAdmissionPolicy plugin of k8s.io/apiserver v0.36.6 does
// to each resource on CREATE, as JSON.
package main

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/apply-overrides/apply-overrides/oracle/harness"
	"github.com/apply-overrides/apply-overrides/oracle/harness/quiet"
	"github.com/apply-overrides/apply-overrides/oracle/kubeadmission/internal/oracle"
)

func main() {
	quiet.Klog()
	harness.OracleMain(func(items []*unstructured.Unstructured) (*oracle.Result, error) {
		return oracle.Run(items)
	})
}
