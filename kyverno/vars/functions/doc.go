// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package functions implements Kyverno's custom JMESPath functions
// (kyverno v1.19.1 pkg/engine/jmespath: functions.go, arithmetic.go, time.go)
// on top of the kyverno/go-jmespath fork.
//
// Argument types are declared to the fork exactly as Kyverno declares them, so
// the fork's own checks ("incorrect number of args", "Invalid type for: ...")
// run first. The handlers then reproduce Kyverno's results and error texts,
// including its quirks: compare returns a Go int, items returns
// []map[string]any, numbers are stringified with float32 precision by the
// regex functions and object_from_lists, and arithmetic on strings parses a
// resource.Quantity before a time.Duration (add('0','1') is "1").
//
// random and x509_decode are declared but return an error: the first is not
// reproducible and the second's output depends on the Go version's
// x509.Certificate layout. time_now, time_now_utc, time_since (without an end
// time) and is_external_url (DNS) depend on the environment; see
// NonDeterministic.
package functions
