// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"errors"
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
	"github.com/apply-overrides/apply-overrides/internal/yamlvalue"
)

// Image is Karmada's imageOverrider: it rewrites one component of container
// images (karmada pkg/util/overridemanager/imageoverride.go @f8fdd02).
type Image struct {
	// Predicate is predicate.path, e.g. "/spec/template/spec/initContainers/0/image".
	// nil means the images are found by kind: the containers of a Pod,
	// ReplicaSet, Deployment, DaemonSet, StatefulSet or Job; any other kind
	// (CronJob included) is left alone.
	Predicate *string
	// Component is Registry, Repository or Tag.
	Component string
	// Operator is add, remove or replace. Anything else leaves the
	// components as they are but still re-serialises the image.
	Operator string
	// Value is used by add and replace, e.g. "registry.example.com".
	Value string
}

var _ yaml.Filter = Image{}

// Filter rewrites the images of rn in place.
func (o Image) Filter(rn *yaml.RNode) (*yaml.RNode, error) {
	return editDoc(rn, func(doc *yaml.Node) error {
		if o.Predicate != nil {
			return o.withPredicate(doc, *o.Predicate)
		}
		return o.byKind(doc)
	})
}

// byKind is buildPatchesWithEmptyPredicate: every container image of a
// workload kind gets a replace, even when unchanged.
func (o Image) byKind(doc *yaml.Node) error {
	images, err := containerImages(doc)
	if err != nil {
		return err
	}
	values := make([]string, len(images))
	for i, img := range images {
		cur := ""
		if img.node != nil {
			cur = img.node.Value
		}
		if values[i], err = overrideImage(cur, o.Component, o.Operator, o.Value); err != nil {
			return prefixed(img.path, err)
		}
	}
	// All values are computed before the first write, so an error leaves
	// the resource untouched; a parsed image is always an existing string.
	for i, img := range images {
		if img.node != nil {
			setString(img.node, values[i])
		}
	}
	return nil
}

// withPredicate is buildPatchesWithPredicate.
func (o Image) withPredicate(doc *yaml.Node, path string) error {
	cur, err := obtainImageValue(doc, path)
	if err != nil {
		return fmt.Errorf("failed to obtain imageValue with predicate path(%s), error: %w", path, err)
	}
	if !strings.HasPrefix(path, "/") {
		return prefixed(path, errors.New("imagePath should be start with / character"))
	}
	value, err := overrideImage(cur, o.Component, o.Operator, o.Value)
	if err != nil {
		return prefixed(path, err)
	}
	return setStringAt(doc, OpReplace, path, value)
}

// setStringAt performs the JSON patch {op, path, value: s}. When path
// resolves to an existing scalar, the scalar is edited in place so its
// comments and style survive; otherwise the patch engine does the edit
// (and reports evanphx's error, e.g. for a missing key).
func setStringAt(doc *yaml.Node, op, path, s string) error {
	if op == OpAdd || op == OpReplace {
		if n, err := yamlpatch.Get(doc, path); err == nil && n != nil && n.Kind == yaml.ScalarNode {
			setString(n, s)
			return nil
		}
	}
	patch := yamlpatch.Patch{{Op: op, Path: path, Value: yamlvalue.NewString(s)}}
	if err := patch.Apply(doc); err != nil {
		return prefixed(path, err)
	}
	return nil
}

// obtainImageValue is Karmada's own path walker, not RFC 6901: it trims
// "/" on both ends, splits on "/", never unescapes "~0"/"~1", and after a
// list it reads the next segment as an index into a list of objects.
// Where upstream panics (index out of range, element not an object) it
// returns an error.
func obtainImageValue(doc *yaml.Node, path string) (string, error) {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	cur := doc
	for i := 0; i < len(segs)-1; i++ {
		v := yamlnode.MapGet(cur, segs[i])
		switch {
		case v != nil && v.Kind == yaml.MappingNode:
			cur = v
		case v != nil && v.Kind == yaml.SequenceNode:
			idx, err := parseInt32(segs[i+1])
			if err != nil {
				return "", fmt.Errorf("path(%s) of rawObj's is not number", segs[i+1])
			}
			if idx < 0 || idx >= int64(len(v.Content)) {
				return "", fmt.Errorf("path(%s) of rawObj's index %d is out of range [0:%d]", segs[i], idx, len(v.Content))
			}
			elem := yamlnode.Deref(v.Content[idx])
			if elem.Kind != yaml.MappingNode {
				return "", fmt.Errorf("path(%s/%d) of rawObj's type is not map[string]interface{}", segs[i], idx)
			}
			cur = elem
			i++
		default:
			return "", fmt.Errorf("path(%s) of rawObj's type is not map[string]interface{} and []interface{}", segs[i])
		}
	}
	last := segs[len(segs)-1]
	v := yamlnode.MapGet(cur, last)
	if v == nil || !yamlpatch.IsString(v) {
		return "", fmt.Errorf("failed to convert path(%s) to string", last)
	}
	return v.Value, nil
}
