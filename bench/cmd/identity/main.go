// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Command identity is the floor of any kyaml function: a
// sigs.k8s.io/kustomize/kyaml fn/framework function whose processor changes
// nothing. It reads a ResourceList on stdin and writes it back on stdout,
// paying kyaml's parse, index-annotation bookkeeping and serialisation.
//
//	identity < resourcelist.yaml > out.yaml
package main

import (
	"fmt"
	"os"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

func main() {
	noop := framework.ResourceListProcessorFunc(func(*framework.ResourceList) error { return nil })
	if err := framework.Execute(noop, nil); err != nil {
		fmt.Fprintln(os.Stderr, "identity:", err)
		os.Exit(1)
	}
}
