// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package policy

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNamesAdd(t *testing.T) {
	n := Names{}
	first := Ref{Kind: "OverridePolicy", Namespace: "default", Name: "web", File: "base/policies.yaml", Index: 2}
	require.NoError(t, n.Add("OverridePolicy/default/web", first))
	again := first
	again.File, again.Index = "overlay/policies.yaml", 0
	err := n.Add("OverridePolicy/default/web", again)
	require.Error(t, err)
	assert.Equal(t, "OverridePolicy default/web: duplicate OverridePolicy default/web: a policy of that name was already given in base/policies.yaml (document index 2); remove one copy or rename it", err.Error())
	var pe *Error
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "overlay/policies.yaml", pe.Policy.File)
	assert.Equal(t, "metadata.name", pe.Field)

	n = Names{}
	require.NoError(t, n.Add("k", Ref{Kind: "ClusterPolicy", Name: "p"}))
	assert.ErrorContains(t, n.Add("k", Ref{Kind: "ClusterPolicy", Name: "p"}), "already given earlier in the input")
}
