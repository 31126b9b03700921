// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// filterCase is one row of a filter table: input YAML, the filter, and
// either the exact expected rendering or a substring of the error.
type filterCase struct {
	input       string
	filter      yaml.Filter
	expected    string
	expectedErr string
}

// runCases runs each row through runFilter.
func runCases(t *testing.T, cases map[string]filterCase) {
	t.Helper()
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) { runFilter(t, tc) })
	}
}

// runFilter checks that the input is in kyaml's canonical rendering (so the
// byte-for-byte comparison only sees the filter's edits), then applies the
// filter. On success the node must be edited in place and render exactly
// as expected; on error the filter returns a nil node (the caller discards
// the resource it was editing).
func runFilter(t *testing.T, tc filterCase) {
	t.Helper()
	rn, err := yaml.Parse(tc.input)
	if err != nil {
		t.Fatalf("parse input: %v", err)
	}
	before := rn.MustString()
	if before != tc.input {
		t.Fatalf("input is not canonical kyaml; it renders as:\n%s", before)
	}
	got, err := tc.filter.Filter(rn)
	if tc.expectedErr != "" {
		if err == nil {
			t.Fatalf("expected error containing %q, got none; output:\n%s", tc.expectedErr, rn.MustString())
		}
		if !strings.Contains(err.Error(), tc.expectedErr) {
			t.Fatalf("error %q does not contain %q", err.Error(), tc.expectedErr)
		}
		if got != nil {
			t.Errorf("a failing filter must return a nil node")
		}
		return
	}
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
	if got != rn {
		t.Errorf("filter did not return the node it was given")
	}
	if out := rn.MustString(); out != tc.expected {
		t.Errorf("output mismatch\n--- got:\n%s\n--- want:\n%s", out, tc.expected)
	}
}

// ptr returns a pointer to s.
func ptr(s string) *string { return &s }

// chain applies filters in order, like a rule's consecutive steps.
type chain []yaml.Filter

func (c chain) Filter(rn *yaml.RNode) (*yaml.RNode, error) {
	for _, f := range c {
		if _, err := f.Filter(rn); err != nil {
			return nil, err
		}
	}
	return rn, nil
}
