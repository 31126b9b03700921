// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubeadmiral

import (
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
)

// applyPatch applies p with the semantics of the JSON-patch library
// KubeAdmiral uses (evanphx/json-patch's v4 API), whose one difference that
// KubeAdmiral's own patches rely on is that replace of a missing object key
// adds it. A replace of an existing value is reconciled in place, so that a
// whole new label map or container list keeps the comments of what it
// keeps.
func applyPatch(p yamlpatch.Patch, doc *yaml.Node) error {
	for _, op := range p {
		if op.Op == "replace" {
			if missingObjectKey(doc, op.Path) {
				op.Op = "add"
			} else if target, err := yamlpatch.Get(doc, op.Path); err == nil && op.Path != "" {
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
		if err := (yamlpatch.Patch{op}).Apply(doc); err != nil {
			return err
		}
	}
	return nil
}

// missingObjectKey reports whether path names a key that its (existing)
// parent object lacks.
func missingObjectKey(doc *yaml.Node, path string) bool {
	i := strings.LastIndex(path, "/")
	if i < 0 {
		return false
	}
	parent, err := yamlpatch.Get(doc, path[:i])
	if err != nil || parent == nil || parent.Kind != yaml.MappingNode {
		return false
	}
	key := strings.NewReplacer("~1", "/", "~0", "~").Replace(path[i+1:])
	for j := 0; j+1 < len(parent.Content); j += 2 {
		if parent.Content[j].Value == key {
			return false
		}
	}
	return true
}
