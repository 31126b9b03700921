// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"encoding/json"
	"fmt"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"sigs.k8s.io/kustomize/kyaml/yaml"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
	"github.com/apply-overrides/apply-overrides/internal/yamlvalue"
)

// Field is Karmada's fieldOverrider: it patches a JSON or YAML document
// held in a string field (karmada pkg/util/overridemanager/overridemanager.go
// applyFieldOverriders @f8fdd02).
//
// Unlike the other filters, it runs upstream's own libraries on the
// embedded document, so the string is re-serialised exactly as upstream
// does: compact and HTML-escaped JSON with key order kept, or YAML 1.1 with
// sorted keys and no comments. Only the string field itself is edited in
// place.
type Field struct {
	// FieldPath is an RFC 6901 pointer to a string, e.g. "/data/config.json".
	FieldPath string
	// JSON patches the string as JSON; Path is the subPath.
	JSON []yamlpatch.Operation
	// YAML patches the string as YAML and wins over JSON when both are set.
	// With neither, the string becomes "".
	YAML []yamlpatch.Operation
}

var _ yaml.Filter = Field{}

// Filter rewrites the string at FieldPath in place.
func (o Field) Filter(rn *yaml.RNode) (*yaml.RNode, error) {
	return editDoc(rn, o.apply)
}

func (o Field) apply(doc *yaml.Node) error {
	target, err := yamlpatch.Get(doc, o.FieldPath)
	if err != nil {
		return prefixed(o.FieldPath, err)
	}
	if target == nil || !yamlpatch.IsString(target) {
		return fmt.Errorf("Get object's value by overrider's path(%s) is not string", o.FieldPath)
	}
	var out []byte
	switch {
	case len(o.YAML) > 0:
		out, err = applyRawYAMLPatch([]byte(target.Value), o.YAML)
	case len(o.JSON) > 0:
		out, err = applyRawJSONPatch([]byte(target.Value), o.JSON)
	}
	if err != nil {
		return prefixed(o.FieldPath, err)
	}
	literal := target.Style&yaml.LiteralStyle != 0
	setString(target, string(out))
	if literal && len(out) > 0 {
		// Keep a `|` block even for a one-line result (`|-`); the encoder
		// falls back to quoting where a block cannot hold the string.
		target.Style = yaml.LiteralStyle
	}
	return nil
}

// applyRawJSONPatch is upstream's: decode the patch, apply it to raw.
func applyRawJSONPatch(raw []byte, ops []yamlpatch.Operation) ([]byte, error) {
	patch, err := decodePatch(ops)
	if err != nil {
		return nil, err
	}
	return patch.Apply(raw)
}

// applyRawYAMLPatch is upstream's: YAML (1.1) to JSON, patch, JSON to YAML.
func applyRawYAMLPatch(raw []byte, ops []yamlpatch.Operation) ([]byte, error) {
	doc, err := sigsyaml.YAMLToJSON(raw)
	if err != nil {
		return nil, err
	}
	patch, err := decodePatch(ops)
	if err != nil {
		return nil, err
	}
	if doc, err = patch.Apply(doc); err != nil {
		return nil, err
	}
	return sigsyaml.JSONToYAML(doc)
}

// jsonOp is upstream's overrideOption with an always-present value.
type jsonOp struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	Value json.RawMessage `json:"value"`
}

// decodePatch builds the RFC 6902 patch upstream marshals from the policy,
// [{"op":…,"path":…,"value":…}], and decodes it with evanphx.
func decodePatch(ops []yamlpatch.Operation) (jsonpatch.Patch, error) {
	b, err := encodePatch(ops)
	if err != nil {
		return nil, err
	}
	return jsonpatch.DecodePatch(b)
}

// encodePatch is the JSON of ops, each value converted by yamlvalue.StoredJSON.
func encodePatch(ops []yamlpatch.Operation) ([]byte, error) {
	list := make([]jsonOp, 0, len(ops))
	for _, op := range ops {
		v, err := yamlvalue.StoredJSON(op.Value)
		if err != nil {
			return nil, fmt.Errorf("value of %s %s: %w", op.Op, op.Path, err)
		}
		list = append(list, jsonOp{Op: op.Op, Path: op.Path, Value: v})
	}
	return json.Marshal(list)
}
