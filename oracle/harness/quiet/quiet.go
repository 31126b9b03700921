// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package quiet silences the logging of the control planes' packages the
// oracles run: an oracle's output is its result.
package quiet

import (
	"flag"
	"io"

	"k8s.io/klog/v2"
)

// Klog discards everything logged through klog, fatal messages aside.
func Klog() {
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	_ = fs.Set("logtostderr", "false")
	_ = fs.Set("alsologtostderr", "false")
	_ = fs.Set("stderrthreshold", "FATAL")
	klog.SetOutput(io.Discard)
}
