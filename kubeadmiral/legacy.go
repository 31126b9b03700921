// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubeadmiral

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
)

// legacyV4 is the JSON-patch library KubeAdmiral uses, evanphx/json-patch
// v5.6.0+incompatible's root package (its v4 API), where it differs from
// the v5 API (kubewharf/kubeadmiral go.mod @19de01c requires
// github.com/evanphx/json-patch v5.6.0+incompatible): see
// yamlpatch.Options.LegacyV4. A path without its leading "/" never gets
// here: policy validation refuses it. KubeAdmiral's operations carry no "from".
var legacyV4 = yamlpatch.Options{LegacyV4: true}

// applyPatch applies p with the semantics of that library, one operation
// at a time. A replace of an existing value is reconciled in place, so that
// a whole new label map or container list keeps the comments of what it
// keeps.
func applyPatch(p yamlpatch.Patch, doc *yaml.Node) error {
	for _, op := range p {
		if op.Op == "replace" && op.Path != "" {
			if target, err := yamlpatch.Get(doc, op.Path); err == nil {
				value := op.Value
				if value == nil {
					value = &yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagNull, Value: "null"}
				}
				if err := yamlpatch.Reconcile(target, value); err != nil {
					return err
				}
				continue
			}
		}
		if err := (yamlpatch.Patch{op}).ApplyWithOptions(doc, legacyV4); err != nil {
			return err
		}
	}
	return nil
}
