// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubeadmiral

import (
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
)

// applyPatch applies p with the semantics of the JSON-patch library
// KubeAdmiral uses, evanphx/json-patch v5.6.0+incompatible's root package
// (its v4 API), where it differs from the v5 API the engine implements
// (../shared/spec/kubeadmiral.md §6):
//
//   - replace of a missing object key adds it;
//   - the empty path never resolves;
//   - move and copy always fail, because KubeAdmiral's operations carry no
//     "from";
//   - removing a missing key says "Unable to remove nonexistent key".
//
// A replace of an existing value is reconciled in place, so that a whole
// new label map or container list keeps the comments of what it keeps.
func applyPatch(p yamlpatch.Patch, doc *yaml.Node) error {
	for _, op := range p {
		switch op.Op {
		case "move", "copy":
			return fmt.Errorf("%s operation failed to decode from: operation, missing from field: missing value", op.Op)
		}
		if op.Path == "" {
			return missingPath(op.Op)
		}
		if op.Op == "replace" {
			if missingObjectKey(doc, op.Path) {
				op.Op = "add"
			} else if target, err := yamlpatch.Get(doc, op.Path); err == nil {
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
			if op.Op == "remove" && strings.Contains(err.Error(), ": unable to remove nonexistent key: ") {
				return fmt.Errorf("%s", strings.Replace(err.Error(), ": unable to remove", ": Unable to remove", 1))
			}
			return err
		}
	}
	return nil
}

// missingPath is the v4 API's error for an operation on the empty path.
func missingPath(op string) error {
	switch op {
	case "add", "remove":
		return fmt.Errorf("%s operation does not apply: doc is missing path: \"\": missing value", op)
	case "replace":
		return fmt.Errorf("replace operation does not apply: doc is missing path: : missing value")
	case "test":
		return fmt.Errorf("test operation does not apply: is missing path: : missing value")
	}
	return fmt.Errorf("Unexpected kind: %s", op)
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
