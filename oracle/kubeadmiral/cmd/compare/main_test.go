// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/apply-overrides/apply-overrides/oracle/harness/compare"
)

// A verdict where upstream's result depends on map order: web goes 3/1 or
// 2/2 over c01/c02; cfg follows it everywhere.
const divided = `{"clusters":{
  "c01":[{"apiVersion":"apps/v1","kind":"Deployment","namespace":"default","name":"web","replicas":3},{"apiVersion":"v1","kind":"ConfigMap","namespace":"default","name":"cfg"}],
  "c02":[{"apiVersion":"apps/v1","kind":"Deployment","namespace":"default","name":"web","replicas":1},{"apiVersion":"v1","kind":"ConfigMap","namespace":"default","name":"cfg"}]},
 "resources":[
  {"apiVersion":"apps/v1","kind":"Deployment","namespace":"default","name":"web","policy":"PropagationPolicy default/p",
   "scheduled":[{"name":"c01","replicas":3},{"name":"c02","replicas":1}],"alternatives":[[{"name":"c01","replicas":2},{"name":"c02","replicas":2}]],"clusters":["c01","c02"]},
  {"apiVersion":"v1","kind":"ConfigMap","namespace":"default","name":"cfg","policy":"","leaders":["Deployment default/web"],"clusters":["c01","c02"]}]}`

func placed(kind, name string, replicas int64) compare.Placed {
	p := compare.Placed{APIVersion: "apps/v1", Kind: kind, Namespace: "default", Name: name, Fields: map[string]*int64{"replicas": nil}}
	if replicas > 0 {
		p.Fields["replicas"] = &replicas
	}
	return p
}

func TestOutcome(t *testing.T) {
	out, err := outcome(json.RawMessage(divided))
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Clusters["c01"]; len(got) != 2 || *got[0].Fields["replicas"] != 3 || got[1].Kind != "ConfigMap" || got[1].Fields["replicas"] != nil {
		t.Errorf("c01: %+v", got)
	}
	var lines []string
	for _, d := range out.Decisions {
		lines = append(lines, d.String())
	}
	want := "apps/v1 Deployment default/web policy=PropagationPolicy default/p scheduled=c01=3 c02=1  alternatives=1\n" +
		"v1 ConfigMap default/cfg policy=none leaders=[Deployment default/web]"
	if got := strings.Join(lines, "\n"); got != want {
		t.Errorf("decisions\n%s\nwant\n%s", got, want)
	}
	if _, err := outcome(json.RawMessage(`{"clusters":{},"surprise":1}`)); err == nil {
		t.Error("a verdict with an unknown field was accepted")
	}
}

// The function's 2/2 is one of upstream's answers; 4/0 is not; a cluster
// the function declined (absent from views) is left out of the match.
func TestAcceptAlternatives(t *testing.T) {
	out, err := outcome(json.RawMessage(divided))
	if err != nil {
		t.Fatal(err)
	}
	web := placed("Deployment", "web", 0).Key()
	views := func(replicas map[string]int64) map[string]map[string]compare.Placed {
		v := map[string]map[string]compare.Placed{}
		for c, r := range replicas {
			v[c] = map[string]compare.Placed{}
			if r > 0 {
				v[c][web] = placed("Deployment", "web", r)
			}
		}
		return v
	}
	for name, c := range map[string]struct {
		replicas map[string]int64
		accepted bool
	}{
		"other answer":      {map[string]int64{"c01": 2, "c02": 2}, true},
		"no answer":         {map[string]int64{"c01": 4, "c02": 0}, false},
		"c02 declined, 2":   {map[string]int64{"c01": 2}, true},
		"c02 declined, 4/0": {map[string]int64{"c01": 4}, false},
	} {
		if got := out.Accept(views(c.replicas))[web]; got != c.accepted {
			t.Errorf("%s: accepted %v, want %v", name, got, c.accepted)
		}
	}
}
