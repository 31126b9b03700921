// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package jsonpatch

import (
	"bytes"
	"errors"
	"fmt"

	evanphx "github.com/evanphx/json-patch/v5"
	"sigs.k8s.io/kustomize/kyaml/yaml"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
)

// kyvernoOptions are the ApplyOptions Kyverno passes to evanphx (negative
// indices are always on in yamlpatch).
var kyvernoOptions = yamlpatch.Options{EnsurePathExistsOnAdd: true, AllowMissingPathOnRemove: true}

// Apply applies patch, a rule's patchesJson6902 after variable
// substitution, to resource in place, as Kyverno's patchesJSON6902 patcher
// does. On error resource is unchanged.
//
// The error text is what upstream's patcher returns, e.g.
// `failed to decode patches: ...` or evanphx's
// `replace operation does not apply: doc is missing key: /x: missing value`.
// Kyverno reports it as the rule's message with a prefix the caller must
// add: "failed to patch resource: " + err.Error().
func Apply(resource *yaml.RNode, patch string) error {
	if resource == nil || resource.YNode() == nil {
		return errors.New("no resource to patch")
	}
	p, err := decode(patch)
	if err != nil {
		return err
	}
	return p.ApplyWithOptions(resource.YNode(), kyvernoOptions)
}

// decode reads patch as upstream's patcher does and turns its operations
// into yamlpatch operations.
func decode(patch string) (yamlpatch.Patch, error) {
	raw, err := patchJSON(patch)
	if err != nil {
		return nil, err
	}
	ops, err := evanphx.DecodePatch(raw)
	if err != nil {
		return nil, fmt.Errorf("failed to decode patches: %w", err)
	}
	out := make(yamlpatch.Patch, 0, len(ops))
	for i, op := range ops {
		o, err := operation(op)
		if err != nil {
			return nil, fmt.Errorf("failed to decode patches: operation %d: %w", i, err)
		}
		out = append(out, o)
	}
	return out, nil
}

// patchJSON is the JSON text of patch: patch itself when it starts with
// "[" (no space allowed before it), else its YAML converted to JSON.
func patchJSON(patch string) ([]byte, error) {
	if patch == "" || patch[0] == '[' {
		return []byte(patch), nil
	}
	b, err := sigsyaml.YAMLToJSON([]byte(patch))
	if err != nil {
		return nil, fmt.Errorf("failed to convert patchesJSON6902 to JSON: %w", err)
	}
	return b, nil
}

// operation converts one decoded operation. DecodePatch has already
// checked the fields each kind needs, so the errors here cannot happen for
// operations it returns.
func operation(op evanphx.Operation) (yamlpatch.Operation, error) {
	o := yamlpatch.Operation{Op: op.Kind()}
	path, err := op.Path()
	if err != nil {
		return o, err
	}
	o.Path = path
	if o.Op == "move" || o.Op == "copy" {
		if o.From, err = op.From(); err != nil {
			return o, err
		}
	}
	// A missing value and a JSON null both read as null (test treats
	// them alike, and add and replace require a value).
	if raw := op["value"]; raw != nil {
		if o.Value, err = valueNode(*raw); err != nil {
			return o, fmt.Errorf("value of %s %s: %w", o.Op, o.Path, err)
		}
	}
	return o, nil
}

// Changes reports whether patch changes a resource whose JSON text (keys
// sorted, as Kyverno marshals its unstructured objects) is resourceJSON,
// by upstream's test: evanphx's output bytes differ from the input's. A
// patch that removes and re-adds a key therefore counts as a change (the key
// moves to the end), as it does for Kyverno's rule status.
func Changes(resourceJSON []byte, patch string) (bool, error) {
	raw, err := patchJSON(patch)
	if err != nil {
		return false, err
	}
	ops, err := evanphx.DecodePatch(raw)
	if err != nil {
		return false, fmt.Errorf("failed to decode patches: %w", err)
	}
	opts := evanphx.NewApplyOptions()
	opts.EnsurePathExistsOnAdd, opts.AllowMissingPathOnRemove, opts.SupportNegativeIndices = true, true, true
	out, err := ops.ApplyWithOptions(resourceJSON, opts)
	if err != nil {
		return false, err
	}
	return !bytes.Equal(bytes.TrimSpace(resourceJSON), bytes.TrimSpace(out)), nil
}
