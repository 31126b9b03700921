// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
)

// JSONPatch is one entry of overriders.jsonpatch
// (kubeadmiral pkg/apis/core/v1alpha1 JsonPatchOverrider @19de01c). There
// is no "from", so move and copy always fail when applied.
type JSONPatch struct {
	// Operator is any string; "" means replace. Unknown operators only
	// fail when the patch is applied ("Unexpected kind: <op>").
	Operator string
	// Path is an RFC 6901 pointer, e.g. "/spec/replicas", used verbatim.
	Path string
	// Value is the policy's value node; nil (value omitted) is JSON null.
	Value *yaml.Node
}

// JSONPatches is a rule's overriders.jsonpatch list
// (kubeadmiral pkg/controllers/override/util.go parseJSONPatchOverriders):
// one operation per overrider, in order, with nothing validated.
type JSONPatches []JSONPatch

var _ Patcher = JSONPatches{}

// Patches returns the operations; obj is not read.
func (o JSONPatches) Patches(*yaml.Node) (yamlpatch.Patch, error) {
	if len(o) == 0 {
		return nil, nil
	}
	patch := make(yamlpatch.Patch, 0, len(o))
	for _, ov := range o {
		op := ov.Operator
		if op == "" {
			op = "replace" // ApplyJSONPatch's default
		}
		patch = append(patch, yamlpatch.Operation{Op: op, Path: ov.Path, Value: ov.Value})
	}
	return patch, nil
}
