// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Command apply-overrides is a KRM function that renders what one member
// cluster of a fleet receives: it applies Karmada (and ACK One)
// OverridePolicy/ClusterOverridePolicy objects from its input ResourceList to
// the other resources, offline. See README.md.
package main

import (
	"os"

	"github.com/apply-overrides/apply-overrides/fn"
)

func main() {
	os.Exit(fn.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
