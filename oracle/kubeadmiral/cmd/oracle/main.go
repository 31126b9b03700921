// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Command oracle reads a KRM ResourceList on stdin and prints, as JSON, what
// KubeAdmiral's own scheduler (commit 19de01c) delivers to each member
// cluster (see ../../README.md).
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/apply-overrides/apply-overrides/oracle/kubeadmiral/internal/oracle"
	"github.com/apply-overrides/apply-overrides/oracle/kubeadmiral/internal/rl"
)

func main() {
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		fail(err)
	}
	l, err := rl.Decode(data)
	if err != nil {
		fail(err)
	}
	res, err := oracle.Run(l.Items)
	if err != nil {
		fail(err)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(res); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "oracle:", err)
	os.Exit(1)
}
