// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package resourcelist

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPeek: the apiVersion and kind of an item whose text says them
// plainly, and ok false for any other.
func TestPeek(t *testing.T) {
	for _, c := range []struct {
		in, apiVersion, kind string
		ok                   bool
	}{
		{"- apiVersion: v1\n  kind: ConfigMap\n", "v1", "ConfigMap", true},
		{"# head\n- kind: Deployment # c\n  apiVersion: apps/v1\n", "", "", false},
		{"- kind: Deployment\n  apiVersion: apps/v1\n  spec:\n    kind: x\n", "apps/v1", "Deployment", true},
		{"- apiVersion: 'v1'\n  kind: ConfigMap\n", "", "", false},
		{"- apiVersion: v1\n  kind: ConfigMap\n  kind: Secret\n", "", "", false},
		{"- {apiVersion: v1, kind: ConfigMap}\n", "", "", false},
		{"- apiVersion: v1\n", "", "", false},
	} {
		apiVersion, kind, ok := Peek([]byte(c.in))
		assert.Equal(t, c.ok, ok, c.in)
		if c.ok {
			assert.Equal(t, []string{c.apiVersion, c.kind}, []string{apiVersion, kind}, c.in)
		}
	}
}
