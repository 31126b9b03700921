// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Command items writes the resources of a ResourceList as a YAML stream,
// for a program that reads plain manifests (the Kyverno CLI's --resource
// file in `make bench-kyverno`):
//
//	items IN OUT
//
// Karmada's own objects are left out, and so are the orchestrators'
// config.kubernetes.io/ and internal.config.kubernetes.io/ annotations (an
// annotations map emptied by that is dropped), as crosscheck leaves them
// out. Comments and key order are not kept: the stream is the items'
// decoded values.
package main

import (
	"bytes"
	"fmt"
	"os"

	"go.yaml.in/yaml/v3"

	"github.com/apply-overrides/apply-overrides/bench/internal/objects"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: items IN OUT")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "items:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	objs, err := objects.Load(in)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	for _, o := range objs {
		if err := enc.Encode(o.Val); err != nil {
			return fmt.Errorf("%s: %w", o.Key, err)
		}
	}
	if err := enc.Close(); err != nil {
		return err
	}
	return os.WriteFile(out, b.Bytes(), 0o644)
}
