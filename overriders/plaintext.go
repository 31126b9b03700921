// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
)

// Plaintext is Karmada's plaintext overrider: all entries of a rule form
// one RFC 6902 patch on the resource, applied once, ops in list order
// (karmada pkg/util/overridemanager/overridemanager.go
// parseJSONPatchesByPlaintext @f8fdd02). Paths and values are not checked:
// a path without a leading "/" loses its first segment, and add with no
// value (a nil Value) sets null.
type Plaintext struct {
	// Patch is e.g. {{Op: "replace", Path: "/spec/replicas", Value: <3>}}.
	Patch yamlpatch.Patch
}

var _ yaml.Filter = Plaintext{}

// Filter applies the patch to rn in place; on error rn is unchanged.
func (o Plaintext) Filter(rn *yaml.RNode) (*yaml.RNode, error) {
	doc := root(rn)
	if doc == nil || len(o.Patch) == 0 {
		return rn, nil
	}
	// evanphx's errors name the failing op and path; the caller adds the
	// policy and rule. Ops are checked first, as evanphx's DecodePatch does.
	if err := checkPatch(o.Patch); err != nil {
		return nil, err
	}
	// The engine leaves doc unchanged when an op fails.
	if err := o.Patch.Apply(doc); err != nil {
		return nil, err
	}
	return rn, nil
}
