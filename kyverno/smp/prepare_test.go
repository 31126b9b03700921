// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package smp

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// TestPreparePatchLeavesResource checks on every oracle case that anchor
// preprocessing only reads the resource and that the prepared patch shares
// no node with it: Apply merges into the same parsed resource afterwards.
func TestPreparePatchLeavesResource(t *testing.T) {
	for _, file := range []string{"testdata/oracle.jsonl", "testdata/oracle_random.jsonl", "testdata/oracle_yaml.jsonl"} {
		for _, c := range readOracle(t, file) {
			resJSON, err := json.Marshal(c.Resource)
			require.NoError(t, err)
			patchJSON, err := json.Marshal(c.Patch)
			require.NoError(t, err)
			res, err := parseJSON(resJSON)
			require.NoError(t, err)
			pristine := res.Copy()
			prepared, err := preparePatch(patchJSON, res)
			if err != nil {
				continue
			}
			require.Equal(t, pristine.Document(), res.Document(), c.Name)
			nodes := map[*yaml.Node]bool{}
			var mark func(n *yaml.Node)
			mark = func(n *yaml.Node) {
				nodes[n] = true
				for _, ch := range n.Content {
					mark(ch)
				}
			}
			mark(res.YNode())
			var check func(n *yaml.Node)
			check = func(n *yaml.Node) {
				require.False(t, nodes[n], "%s: the prepared patch shares a node with the resource", c.Name)
				for _, ch := range n.Content {
					check(ch)
				}
			}
			check(prepared.YNode())
		}
	}
}
