// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package oracletest holds what the oracles' smoke tests share: reading a
// scenario from testdata and rendering per-cluster results as text.
package oracletest

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/apply-overrides/apply-overrides/oracle/harness/rl"
)

// Items returns the items of the ResourceList in testdata/<file>; it
// fails t when the file cannot be read or decoded.
func Items(t testing.TB, file string) []*unstructured.Unstructured {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	l, err := rl.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return l.Items
}

// Summary renders what each cluster receives as one line "cluster: a b …",
// clusters sorted, each resource as render gives it.
func Summary[P any](clusters map[string][]P, render func(P) string) string {
	names := make([]string, 0, len(clusters))
	for c := range clusters {
		names = append(names, c)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, c := range names {
		b.WriteString(c + ":")
		for _, p := range clusters[c] {
			b.WriteString(" " + render(p))
		}
		b.WriteString("\n")
	}
	return b.String()
}
