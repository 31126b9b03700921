// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

// Tests the stand-in webster of requirements_tmp.go; deleted with it.

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The verified vectors of karmada-placement.md §4.3 (Karmada v1.16.0's
// AllocateWebsterSeats with tieBreakerByUID).
func TestWebsterStandIn(t *testing.T) {
	const odd, even = "11111111-2222-3333-4444-555555555555", "6f2f1f6e-0000-4000-8000-000000000001"
	abc := func(a, b, c int64) []weighted { return []weighted{{"a", a}, {"b", b}, {"c", c}} }
	for _, tc := range []struct {
		name    string
		seats   int32
		parties []weighted
		uid     string
		want    []assignment
	}{
		{"12 at 3:2:1", 12, abc(3, 2, 1), "", []assignment{{"a", 6}, {"b", 4}, {"c", 2}}},
		{"13 at 3:2:1", 13, abc(3, 2, 1), "", []assignment{{"a", 7}, {"b", 4}, {"c", 2}}},
		{"14 at 3:2:1", 14, abc(3, 2, 1), even, []assignment{{"a", 7}, {"b", 5}, {"c", 2}}},
		{"9 at 1:3", 9, []weighted{{"b", 3}, {"a", 1}}, "", []assignment{{"a", 2}, {"b", 7}}},
		{"3 at 1:1", 3, []weighted{{"a", 1}, {"b", 1}}, "", []assignment{{"a", 2}, {"b", 1}}},
		{"3 at 1:1 odd", 3, []weighted{{"a", 1}, {"b", 1}}, odd, []assignment{{"a", 1}, {"b", 2}}},
		{"5 at 1:1:1", 5, abc(1, 1, 1), "", []assignment{{"a", 2}, {"b", 2}, {"c", 1}}},
		{"5 at 1:1:1 odd", 5, abc(1, 1, 1), odd, []assignment{{"a", 1}, {"b", 2}, {"c", 2}}},
		{"1 at 1:1:1 odd", 1, abc(1, 1, 1), odd, []assignment{{"a", 0}, {"b", 0}, {"c", 1}}},
		{"10 at 1:1:1 odd", 10, abc(1, 1, 1), odd, []assignment{{"a", 3}, {"b", 3}, {"c", 4}}},
		{"10 at 1:100", 10, []weighted{{"a", 1}, {"b", 100}}, "", []assignment{{"a", 0}, {"b", 10}}},
		{"a repeated party keeps its last weight", 4, []weighted{{"a", 9}, {"b", 1}, {"a", 1}}, "", []assignment{{"a", 2}, {"b", 2}}},
		{"no parties", 4, nil, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, webster(tc.seats, tc.parties, tc.uid))
		})
	}
}
