// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlnode

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

var yaml11Cases = []string{"", "yes", "Yes", "no", "on", "Off", "y", "n", "true", "~", "null", "1", "0x1F", "1:20", "1_000",
	"2024-01-01", ".5", "-1", "+1", "nginx", "nginx:1.27", "registry.example.com/app:1.7", "a b", "a: b", "a #b", "a:",
	"abc\tdef", "Hello, world", "z=1", "frontend", "NaN", ".inf", "a[b]", "a{b}", "<<", "=", "team-a", "x\ny",
	"Y", "YES", "yEs", "N", "No", "NO", "nO", "True", "TRUE", "tRUE", "False", "FALSE", "On", "ON", "oN", "onion", "off", "OFF",
	"Off", "offline", "null", "Null", "NULL", "nULL", "nil", "None", "t", "f", "o", "tier", "backend", "IfNotPresent", "yaml",
	"Infinity", "inf", "nan", "e", "E", "x:y", "no way", "yes please", "true story",
	"100m", "128Mi", "1Gi", "250m", "2024-01-01T00:00:00Z", "2024-01-01 10:00:00", "1e3", "0x1F", "12:30", "1_000", "0b1",
	"0o7", "3d", "1h", "5s", "1.5Gi", "0.5", "1ki", "1 2", "7z", "12:30:45.5", "1:2:3", "0xZZ",
	// paths and command-line flags
	"/", "/usr/local/bin/app", "/healthz", "/a: b", "/a #b", "/a:", "/a\tb", "/a\rb", "/a [b", "/a, b", "/*", "/&a", "/a\x00",
	"-", "--", "---", "----", "- a", "-- a", "--- a", "-a", "-c", "-y", "-n", "-e", "-E1", "-.inf", "-.5", "-0b1", "-0x1", "-1e3",
	"--port=8080", "--log-format=json", "--a: b", "--a #b", "--a:", "-x:", "-x: y", "---x", "--.5", "--1", "-_", "-\x00", "Y ", "yes ", "/a ", "-a ", "y\u2028", "/a\u0085b", "a\x7f"}

// TestYAML11NonString: the shortcut agrees with kyaml's YAML 1.1 parse.
func TestYAML11NonString(t *testing.T) {
	for _, v := range yaml11Cases {
		assert.Equal(t, yaml.IsValueNonString(v), YAML11NonString(v), "%q", v)
	}
}

func FuzzYAML11NonString(f *testing.F) {
	for _, v := range yaml11Cases {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if got, want := YAML11NonString(v), yaml.IsValueNonString(v); got != want {
			t.Fatalf("YAML11NonString(%q) = %v, kyaml says %v", v, got, want)
		}
	})
}
