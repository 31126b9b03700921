// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
	"github.com/apply-overrides/apply-overrides/internal/yamlvalue"
)

// KeyValue is one entry of a labels or annotations overrider's value.
type KeyValue = yamlvalue.KeyValue

// LabelAnnotation is Karmada's labelsOverrider or annotationsOverrider
// (karmada pkg/util/overridemanager/labelannotationoverrider.go @f8fdd02).
// It touches the resource's own metadata only, never a pod template.
type LabelAnnotation struct {
	// Field is "labels" or "annotations".
	Field string
	// Operator is add (insert or overwrite), replace (overwrite existing
	// keys only) or remove (drop existing keys; values are ignored).
	Operator string
	// Value in the policy's order, e.g. [{Key: "team", Value: "web"}].
	// New keys are appended after the existing ones in this order.
	Value []KeyValue
}

var _ yaml.Filter = LabelAnnotation{}

// Filter edits metadata.labels or metadata.annotations in place.
func (o LabelAnnotation) Filter(rn *yaml.RNode) (*yaml.RNode, error) {
	if len(o.Value) == 0 {
		return rn, nil // no patch, no-op
	}
	return editDoc(rn, o.apply)
}

func (o LabelAnnotation) apply(doc *yaml.Node) error {
	meta := yamlnode.MapGet(doc, "metadata")
	m := yamlnode.MapGet(meta, o.Field)
	isMap := yamlvalue.IsStringMap(m)
	switch o.Operator {
	case OpAdd:
		if !isMap {
			var ok bool
			if m, ok = o.createMap(doc, meta, m); !ok {
				return nil
			}
		}
	case OpRemove, OpReplace:
		if !isMap {
			return nil // NestedStringMap fails: no key "exists"
		}
	default:
		return o.applyOther(doc)
	}
	for _, kv := range o.Value {
		if (o.Operator == OpRemove || o.Operator == OpReplace) && yamlnode.MapGet(m, kv.Key) == nil {
			continue
		}
		path := o.path(kv.Key)
		if o.Operator == OpRemove {
			if err := (yamlpatch.Patch{{Op: OpRemove, Path: path}}).Apply(doc); err != nil {
				return prefixed(path, err)
			}
			continue
		}
		if err := setStringAt(doc, o.Operator, path, kv.Value); err != nil {
			return err
		}
	}
	settleLineComment(yamlnode.MapGet(doc, "metadata"), o.Field)
	return nil
}

// path is the JSON pointer of key. Upstream escapes "/" but not "~" (the
// webhook rejects "~" in keys).
func (o LabelAnnotation) path(key string) string {
	return "/metadata/" + o.Field + "/" + strings.ReplaceAll(key, "/", "~1")
}

// applyOther handles an operator outside the CRD enum the way upstream
// does: one op per key, no existence checks, applied as one patch (which
// evanphx rejects unless the op is test, move or copy).
func (o LabelAnnotation) applyOther(doc *yaml.Node) error {
	patch := make(yamlpatch.Patch, 0, len(o.Value))
	for _, kv := range o.Value {
		patch = append(patch, yamlpatch.Operation{Op: o.Operator, Path: o.path(kv.Key), Value: yamlvalue.NewString(kv.Value)})
	}
	if err := checkPatch(patch); err != nil {
		return err
	}
	if err := patch.Apply(doc); err != nil {
		return prefixed("/metadata/"+o.Field, err)
	}
	return nil
}

// createMap reproduces unstructured.SetNestedStringMap(obj, {}, "metadata",
// field), which upstream calls whenever the field is not a map of strings
// (missing, null, a scalar, or a map holding a non-string value): the field
// becomes {}. It fails (and upstream skips every key) when metadata exists
// but is not an object.
func (o LabelAnnotation) createMap(doc, meta, m *yaml.Node) (*yaml.Node, bool) {
	switch {
	case meta == nil && doc.Kind == yaml.MappingNode:
		meta = &yaml.Node{Kind: yaml.MappingNode, Tag: yaml.NodeTagMap}
		doc.Content = append(doc.Content, yamlvalue.NewString("metadata"), meta)
	case meta == nil || meta.Kind != yaml.MappingNode:
		return nil, false
	}
	if m == nil {
		m = &yaml.Node{Kind: yaml.MappingNode, Tag: yaml.NodeTagMap}
		meta.Content = append(meta.Content, yamlvalue.NewString(o.Field), m)
		return m, true
	}
	// Keep the node (and its comments), drop its content.
	m.Kind, m.Tag, m.Value, m.Style, m.Content = yaml.MappingNode, yaml.NodeTagMap, "", 0, nil
	return m, true
}
