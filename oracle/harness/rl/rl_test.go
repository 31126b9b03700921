// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package rl

import "testing"

func TestRoundTrip(t *testing.T) {
	in := []byte(`apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec: {replicas: 3, paused: true}
functionConfig: {apiVersion: v1, kind: ConfigMap, metadata: {name: fc}}
`)
	l, err := Decode(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Items) != 1 || l.FunctionConfig.GetName() != "fc" {
		t.Fatalf("decoded %+v", l)
	}
	if r := SpecInt(l.Items[0], "replicas"); r == nil || *r != 3 {
		t.Errorf("replicas %v", r)
	}
	if SpecInt(l.Items[0], "paused") != nil || SpecInt(l.Items[0], "completions") != nil {
		t.Error("SpecInt of a bool or a missing field is not nil")
	}
	out, err := Encode(l)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Decode(out)
	if err != nil || len(again.Items) != 1 || again.Items[0].GetName() != "web" || again.FunctionConfig.GetName() != "fc" {
		t.Errorf("round trip: %v %+v", err, again)
	}
}
