// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package gen

import (
	"testing"

	"github.com/apply-overrides/apply-overrides/oracle/harness/scenario"
)

func TestDeterministic(t *testing.T) {
	if err := scenario.Deterministic(Scenario, 19); err != nil {
		t.Fatal(err)
	}
}
