// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Command apply-overrides is a KRM function that renders what one member
// cluster of a fleet receives: it applies the federation's override policies
// (Karmada and ACK One, KubeAdmiral) and then the member cluster's admission
// mutations (Kyverno) from its input ResourceList to the other resources,
// offline. See README.md.
package main

import (
	"os"

	"github.com/apply-overrides/apply-overrides/fn"
)

func main() {
	os.Exit(fn.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
