// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubeadmiral

import (
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
)

// legacyV4 is the JSON-patch library KubeAdmiral uses, evanphx/json-patch
// v5.6.0+incompatible's root package (its v4 API), where it differs from
// the v5 API (../shared/spec/kubeadmiral.md §6): see
// yamlpatch.Options.LegacyV4. KubeAdmiral's operations carry no "from".
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
		opts := legacyV4
		if op.Op == "replace" && op.Path != "" && !strings.HasPrefix(op.Path, "/") {
			// A deviation from v4 kept from before LegacyV4 (test/
			// badpolicy_kubeadmiral_test.go "jsonpatch path without a
			// slash"): v4 drops the first segment and, the key being
			// missing, adds it to the parent (`spec/replicas` sets a
			// top-level `replicas`); here the missing key fails, as in v5.
			opts = yamlpatch.Options{}
		}
		if err := (yamlpatch.Patch{op}).ApplyWithOptions(doc, opts); err != nil {
			return err
		}
	}
	return nil
}
