// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package recorded reads and writes an oracle's recorded verdicts: what a
// control plane's own code answered for each generated scenario, kept so
// that the comparison can run without that code. Each verdict carries the
// SHA-256 of its scenario's ResourceList, so a scenario that the generator
// no longer makes the same way is refused rather than compared with a
// verdict about another input.
//
// The file is gzip'd JSON lines: a Header, then one Entry per scenario, for
// consecutive seeds from Header.FirstSeed.
package recorded

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"

	"github.com/apply-overrides/apply-overrides/oracle/harness/rl"
)

// Header is the first line of a verdicts file.
type Header struct {
	// Oracle names the control plane whose code gave the verdicts, as in
	// "re-record with KubeAdmiral's own code".
	Oracle string `json:"oracle"`
	// Source says which of its code, e.g. the commit.
	Source string `json:"source"`
	// Readme is the repository path of the document that says how the
	// verdicts are re-recorded.
	Readme string `json:"readme"`
	// FirstSeed is the seed of the first scenario; Count the number of
	// scenarios, with consecutive seeds.
	FirstSeed uint64 `json:"firstSeed"`
	Count     int    `json:"count"`
}

// Entry is the verdict on one scenario.
type Entry struct {
	Seed uint64 `json:"seed"`
	// SHA256 is the hex SHA-256 of the scenario's ResourceList as rl.Encode
	// writes it (the bytes of the generator's scenario file).
	SHA256 string `json:"sha256"`
	// Verdict is the oracle's answer, as its cmd/oracle prints it (compact).
	Verdict json.RawMessage `json:"verdict"`
}

// Set is a verdicts file in memory.
type Set struct {
	Header  Header
	Entries []Entry
}

// Hash is the hex SHA-256 of a scenario's bytes.
func Hash(scenario []byte) string {
	sum := sha256.Sum256(scenario)
	return hex.EncodeToString(sum[:])
}

// ScenarioHash is the Hash of a scenario as rl.Encode writes it.
func ScenarioHash(l *rl.ResourceList) (string, error) {
	data, err := rl.Encode(l)
	if err != nil {
		return "", err
	}
	return Hash(data), nil
}

// Write writes the set as gzip'd JSON lines. The header's FirstSeed and
// Count must describe the entries.
func Write(w io.Writer, s *Set) error {
	if err := s.check(); err != nil {
		return err
	}
	zw := gzip.NewWriter(w)
	enc := json.NewEncoder(zw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s.Header); err != nil {
		return err
	}
	for _, e := range s.Entries {
		var compact bytes.Buffer
		if err := json.Compact(&compact, e.Verdict); err != nil {
			return fmt.Errorf("verdict of seed %d: %w", e.Seed, err)
		}
		e.Verdict = compact.Bytes()
		if err := enc.Encode(e); err != nil {
			return err
		}
	}
	return zw.Close()
}

// Read reads a verdicts file that Write wrote.
func Read(r io.Reader) (*Set, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("recorded verdicts: not a gzip file: %w", err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	s := &Set{}
	line := 0
	for sc.Scan() {
		line++
		var err error
		if line == 1 {
			err = strict(sc.Bytes(), &s.Header)
		} else {
			var e Entry
			err = strict(sc.Bytes(), &e)
			s.Entries = append(s.Entries, e)
		}
		if err != nil {
			return nil, fmt.Errorf("recorded verdicts, line %d: %w", line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("recorded verdicts: %w", err)
	}
	if line == 0 {
		return nil, fmt.Errorf("recorded verdicts: empty file")
	}
	if err := s.check(); err != nil {
		return nil, fmt.Errorf("recorded verdicts: %w", err)
	}
	return s, nil
}

func strict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// DecodeVerdict decodes one recorded verdict into v, refusing fields v does
// not know and anything after the first JSON value: a verdict is recorded
// only when every part of it is understood.
func DecodeVerdict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("more than one JSON value")
	}
	return nil
}

// check verifies that the entries are the header's consecutive seeds, each
// with a hash.
func (s *Set) check() error {
	if s.Header.Oracle == "" || s.Header.Readme == "" {
		return fmt.Errorf("the header must name the oracle and the readme that says how to re-record")
	}
	if len(s.Entries) != s.Header.Count {
		return fmt.Errorf("the header says %d verdicts, the file has %d", s.Header.Count, len(s.Entries))
	}
	for i, e := range s.Entries {
		if want := s.Header.FirstSeed + uint64(i); e.Seed != want {
			return fmt.Errorf("verdict %d is for seed %d, want seed %d (consecutive from %d)", i+1, e.Seed, want, s.Header.FirstSeed)
		}
		if len(e.SHA256) != sha256.Size*2 {
			return fmt.Errorf("verdict of seed %d has no SHA-256 of its scenario", e.Seed)
		}
		if len(e.Verdict) == 0 {
			return fmt.Errorf("verdict of seed %d is empty", e.Seed)
		}
	}
	return nil
}

// Seeds returns the seeds of the first n recorded scenarios, or an error
// saying how many are recorded when n is more. n = 0 means all of them.
func (s *Set) Seeds(n int) ([]uint64, error) {
	if n < 0 || n > len(s.Entries) {
		return nil, fmt.Errorf("%d scenarios asked for, but %d verdicts of %s are recorded (seeds %d..%d): ask for at most %d, or re-record more (see %s)",
			n, len(s.Entries), s.Header.Oracle, s.Header.FirstSeed, s.Header.FirstSeed+uint64(len(s.Entries))-1, len(s.Entries), s.Header.Readme)
	}
	if n == 0 {
		n = len(s.Entries)
	}
	out := make([]uint64, n)
	for i := range out {
		out[i] = s.Header.FirstSeed + uint64(i)
	}
	return out, nil
}

// Verdict returns the recorded verdict on the scenario with this seed,
// whose bytes (as rl.Encode writes them) are scenario. It fails when the
// seed is not recorded, or when the scenario is not the one the verdict is
// about: the generator changed since the verdicts were recorded.
func (s *Set) Verdict(seed uint64, scenario []byte) (json.RawMessage, error) {
	if seed < s.Header.FirstSeed || seed-s.Header.FirstSeed >= uint64(len(s.Entries)) {
		return nil, fmt.Errorf("scenario %d has no recorded verdict: %d are recorded (seeds %d..%d); see %s",
			seed, len(s.Entries), s.Header.FirstSeed, s.Header.FirstSeed+uint64(len(s.Entries))-1, s.Header.Readme)
	}
	e := s.Entries[seed-s.Header.FirstSeed]
	if got := Hash(scenario); got != e.SHA256 {
		return nil, fmt.Errorf("scenario %d changed since the verdicts were recorded (its SHA-256 is %s, the verdict's %s): re-record with %s's own code; see %s",
			seed, got, e.SHA256, s.Header.Oracle, s.Header.Readme)
	}
	return e.Verdict, nil
}
