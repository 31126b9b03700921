// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubefleet

import (
	"fmt"
	"strings"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
	"github.com/apply-overrides/apply-overrides/internal/yamlvalue"
	"github.com/apply-overrides/apply-overrides/policy"
)

// The variables of a JSON patch value (apis/placement/v1beta1/commons.go
// @78e6ca7).
const (
	clusterNameVariable      = "${MEMBER-CLUSTER-NAME}"
	clusterLabelKeyVarPrefix = "${MEMBER-CLUSTER-LABEL-KEY-"
)

// patchFor builds a rule's JSON patch for cluster c. As the work generator
// does (applyJSONPatchOverride), the variables are replaced in each
// value's JSON text, never in the path: every ${MEMBER-CLUSTER-NAME} by
// the cluster's name, then each ${MEMBER-CLUSTER-LABEL-KEY-<key>} (the key
// ending at the next "}", wherever it is) by the value of that label; a
// missing label or "}" is an error. A value without variables keeps its
// node (and its YAML style).
func patchFor(ops []jsonPatchOverride, c *policy.Cluster) (yamlpatch.Patch, error) {
	patch := make(yamlpatch.Patch, len(ops))
	for i, op := range ops {
		patch[i] = yamlpatch.Operation{Op: op.Op, Path: op.Path}
		if op.Value == nil || yamlnode.IsNull(op.Value) {
			continue // JSON null, as apiextensions' JSON marshals an empty value
		}
		patch[i].Value = op.Value
		text, err := yamlvalue.StoredJSON(op.Value)
		if err != nil {
			return nil, fmt.Errorf("jsonPatchOverrides[%d].value: %w", i, err)
		}
		if !strings.Contains(string(text), "${MEMBER-CLUSTER-") {
			continue
		}
		s, err := substitute(string(text), c)
		if err != nil {
			return nil, fmt.Errorf("jsonPatchOverrides[%d].value: %w", i, err)
		}
		v, err := yamlvalue.FromJSON([]byte(s))
		if err != nil {
			return nil, fmt.Errorf("jsonPatchOverrides[%d].value: after the variables were replaced, %q is no JSON value: %w", i, s, err)
		}
		patch[i].Value = v
	}
	return patch, nil
}

// substitute replaces the variables in a value's JSON text.
func substitute(text string, c *policy.Cluster) (string, error) {
	out := strings.ReplaceAll(text, clusterNameVariable, c.Name)
	for {
		start := strings.Index(out, clusterLabelKeyVarPrefix)
		if start == -1 {
			return out, nil
		}
		rest := out[start+len(clusterLabelKeyVarPrefix):]
		end := strings.Index(rest, "}")
		if end == -1 {
			return "", fmt.Errorf("input %s is missing the closing bracket `}`: write ${MEMBER-CLUSTER-LABEL-KEY-<label key>}", text)
		}
		key := rest[:end]
		v, ok := c.Labels[key]
		if !ok {
			return "", fmt.Errorf("label key %s not found on cluster %s: add the label to the MemberCluster or change the rule's clusterSelector so that it selects only clusters with that label", key, c.Name)
		}
		out = strings.Replace(out, out[start:start+len(clusterLabelKeyVarPrefix)+end+1], v, 1)
	}
}
