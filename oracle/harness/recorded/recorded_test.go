// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package recorded

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"strings"
	"testing"
)

func testSet() *Set {
	return &Set{
		Header: Header{Oracle: "Upstream", Source: "abc123", Readme: "oracle/up/README.md", FirstSeed: 3, Count: 2},
		Entries: []Entry{
			{Seed: 3, SHA256: Hash([]byte("scenario three")), Verdict: json.RawMessage(`{ "clusters": {"a": []} }`)},
			{Seed: 4, SHA256: Hash([]byte("scenario four")), Verdict: json.RawMessage(`{"clusters":{}}`)},
		},
	}
}

func TestWriteRead(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, testSet()); err != nil {
		t.Fatal(err)
	}
	s, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if s.Header != testSet().Header {
		t.Errorf("header %+v", s.Header)
	}
	v, err := s.Verdict(3, []byte("scenario three"))
	if err != nil {
		t.Fatal(err)
	}
	if string(v) != `{"clusters":{"a":[]}}` {
		t.Errorf("verdict of seed 3 is %s, want it compact", v)
	}
	seeds, err := s.Seeds(0)
	if err != nil || len(seeds) != 2 || seeds[0] != 3 || seeds[1] != 4 {
		t.Errorf("Seeds(0) = %v, %v", seeds, err)
	}
}

func TestChangedScenario(t *testing.T) {
	s := testSet()
	_, err := s.Verdict(4, []byte("scenario four, changed"))
	if err == nil || !strings.Contains(err.Error(), "scenario 4 changed since the verdicts were recorded") ||
		!strings.Contains(err.Error(), "re-record with Upstream's own code; see oracle/up/README.md") {
		t.Errorf("got %v", err)
	}
	if _, err := s.Verdict(5, nil); err == nil || !strings.Contains(err.Error(), "scenario 5 has no recorded verdict: 2 are recorded (seeds 3..4)") {
		t.Errorf("seed 5: %v", err)
	}
	if _, err := s.Verdict(2, nil); err == nil {
		t.Error("seed 2: no error")
	}
}

func TestTooManyAskedFor(t *testing.T) {
	_, err := testSet().Seeds(3)
	if err == nil || !strings.Contains(err.Error(), "3 scenarios asked for, but 2 verdicts of Upstream are recorded (seeds 3..4)") {
		t.Errorf("got %v", err)
	}
	seeds, err := testSet().Seeds(1)
	if err != nil || len(seeds) != 1 || seeds[0] != 3 {
		t.Errorf("Seeds(1) = %v, %v", seeds, err)
	}
}

func TestReadRefusesBrokenFiles(t *testing.T) {
	gz := func(lines ...string) *bytes.Buffer {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		for _, l := range lines {
			zw.Write([]byte(l + "\n"))
		}
		zw.Close()
		return &b
	}
	head := `{"oracle":"Upstream","source":"x","readme":"r","firstSeed":1,"count":1}`
	hash := `"` + Hash(nil) + `"`
	cases := map[string]struct {
		in   *bytes.Buffer
		want string
	}{
		"not gzip":      {bytes.NewBufferString("{}"), "gzip"},
		"empty":         {gz(), "empty file"},
		"count":         {gz(head), "the header says 1 verdicts, the file has 0"},
		"seed gap":      {gz(head, `{"seed":2,"sha256":`+hash+`,"verdict":{}}`), "verdict 1 is for seed 2, want seed 1"},
		"no hash":       {gz(head, `{"seed":1,"sha256":"","verdict":{}}`), "no SHA-256"},
		"unknown field": {gz(head, `{"seed":1,"sha256":`+hash+`,"verdict":{},"extra":1}`), "line 2"},
		"no readme":     {gz(`{"oracle":"Upstream","firstSeed":1,"count":0}`), "readme"},
	}
	for name, c := range cases {
		_, err := Read(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", name, err, c.want)
		}
	}
}
