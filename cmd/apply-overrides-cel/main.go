// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Command apply-overrides-cel is the whole apply-overrides function, the
// CEL dialects included (Kubernetes MutatingAdmissionPolicies, Kyverno's
// CEL MutatingPolicies). `make build` writes it beside bin/apply-overrides,
// which is built without them (-tags nocel) to start in half the time and
// memory, and hands it every input that may hold a CEL policy. Run either
// directly: this one renders any input. See README.md, "Two programs".
package main

import (
	"os"

	"github.com/apply-overrides/apply-overrides/fn"
)

func main() {
	os.Exit(fn.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
