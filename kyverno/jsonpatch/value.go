// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package jsonpatch

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlvalue"
)

// valueNode turns the JSON text of an operation's value into a YAML node
// with the same JSON view (yamlvalue.FromJSON).
func valueNode(raw []byte) (*yaml.Node, error) { return yamlvalue.FromJSON(raw) }
