// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package test

// The tests run a binary built by `go build`, whose sources Go's test cache
// cannot see; importing the function's packages makes a change to them
// invalidate cached results of this package.
import _ "github.com/apply-overrides/apply-overrides/fn"
