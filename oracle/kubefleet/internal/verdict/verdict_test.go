// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package verdict

import (
	"bytes"
	"sort"
	"strings"
	"testing"

	"github.com/apply-overrides/apply-overrides/oracle/harness/recorded"
	"github.com/apply-overrides/apply-overrides/oracle/harness/rl"
	"github.com/apply-overrides/apply-overrides/oracle/kubefleet/internal/gen"
)

// Every recorded verdict is about the scenario the generator makes now
// (a generator change fails here, naming the scenario), decodes strictly,
// and covers exactly the scenario's MemberClusters.
func TestRecordedVerdictsMatchTheGenerator(t *testing.T) {
	set, err := recorded.Read(bytes.NewReader(Recorded))
	if err != nil {
		t.Fatal(err)
	}
	h := set.Header
	if h.Oracle != Header.Oracle || h.Source != Header.Source || h.Readme != Header.Readme || h.FirstSeed != 1 || h.Count != 500 {
		t.Errorf("header %+v", h)
	}
	scheduled := 0
	for _, e := range set.Entries {
		l := gen.Scenario(e.Seed)
		scen, err := rl.Encode(l)
		if err != nil {
			t.Fatal(err)
		}
		v, err := set.Verdict(e.Seed, scen)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Decode(v)
		if err != nil {
			t.Fatalf("verdict of seed %d: %v", e.Seed, err)
		}
		var want, got []string
		for _, it := range l.Items {
			if it.GetKind() == "MemberCluster" {
				want = append(want, it.GetName())
			}
		}
		for c := range res.Clusters {
			got = append(got, c)
		}
		sort.Strings(want)
		sort.Strings(got)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("seed %d: verdict for clusters %v, scenario has %v", e.Seed, got, want)
		}
		for _, placed := range res.Clusters {
			scheduled += len(placed)
		}
	}
	if scheduled < 500 {
		t.Errorf("only %d resources placed in 500 verdicts", scheduled)
	}
}

func TestDecodeIsStrict(t *testing.T) {
	for in, want := range map[string]string{
		`{"clusters":{},"placements":[],"extra":1}`: `unknown field "extra"`,
		`{"placements":[]}`:                         "no clusters",
		`{"clusters":{}} {}`:                        "more than one",
	} {
		if _, err := Decode([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", in, err, want)
		}
	}
}

// Content ignores the KRM protocol's annotations and key order.
func TestContent(t *testing.T) {
	a, err := ObjectContent([]byte(`{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"x","annotations":{"config.kubernetes.io/index":"3"}},"data":{"b":"1","a":"2"}}`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := ObjectContent([]byte(`{"apiVersion":"v1","data":{"a":"2","b":"1"},"kind":"ConfigMap","metadata":{"name":"x"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Errorf("%s != %s", a, b)
	}
	c, _ := ObjectContent([]byte(`{"apiVersion":"v1","data":{"a":"3"},"kind":"ConfigMap","metadata":{"name":"x"}}`))
	if c == b {
		t.Error("different data, same content")
	}
}
