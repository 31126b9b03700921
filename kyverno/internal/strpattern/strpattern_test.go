// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package strpattern

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestOperatorAndBounds(t *testing.T) {
	for p, want := range map[string]string{
		">=1Gi": MoreEqual, "<=5": LessEqual, ">3": More, "<3": Less, "!web-*": NotEqual,
		"-5-10": InRange, "1!-10": NotInRange, "!-5-10": NotEqual, "a-b": Equal, "5": Equal, "": Equal,
	} {
		assert.Equal(t, want, Operator(p), p)
	}
	lo, hi, ok := Bounds("1Gi-2Gi")
	assert.Equal(t, []any{"1Gi", "2Gi", true}, []any{lo, hi, ok})
	lo, hi, ok = Bounds("-1!-+2.5")
	assert.Equal(t, []any{"-1", "+2.5", true}, []any{lo, hi, ok})
	_, _, ok = Bounds("a-b")
	assert.False(t, ok)
	res, ok := Compare(1, MoreEqual)
	assert.True(t, res && ok)
	_, ok = Compare(0, InRange)
	assert.False(t, ok)
}
