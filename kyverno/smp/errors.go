// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package smp

import "errors"

// conditionError is a failed conditional anchor (k). Outside a list element
// it discards the whole patch; inside one it skips the resource element.
type conditionError struct{ err error }

func (e *conditionError) Error() string { return "condition failed: " + e.err.Error() }
func (e *conditionError) Unwrap() error { return e.err }

// globalConditionError is a failed global anchor <(k). It discards the
// whole patch unless another element of the same list satisfies it.
type globalConditionError struct{ err error }

func (e *globalConditionError) Error() string { return "global condition failed: " + e.err.Error() }
func (e *globalConditionError) Unwrap() error { return e.err }

func isConditionErr(err error) bool {
	_, ok := err.(*conditionError) //nolint:errorlint // only the unwrapped error counts, as upstream
	return ok
}

func isGlobalConditionErr(err error) bool {
	_, ok := err.(*globalConditionError) //nolint:errorlint // only the unwrapped error counts, as upstream
	return ok
}

// errUpstreamCrash marks inputs on which upstream panics (and `kyverno
// apply` crashes); Apply reports them instead.
var errUpstreamCrash = errors.New("kyverno would crash on this patch")
