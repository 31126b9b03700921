// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/imageref"
	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
	"github.com/apply-overrides/apply-overrides/internal/yamlvalue"
)

// KubeAdmiral's image components and operators, as its CRD enums spell them.
const (
	componentRegistry   = "Registry"
	componentRepository = "Repository"
	componentTag        = "Tag"
	componentDigest     = "Digest"

	opAddIfAbsent = "addIfAbsent"
	opOverwrite   = "overwrite"
	opDelete      = "delete"
	opAppend      = "append"
)

// ImageOperation is one entry of an image overrider's operations.
type ImageOperation struct {
	// Component is imageComponent: Registry, Repository, Tag or Digest.
	Component string
	// Operator is addIfAbsent, overwrite (also when empty) or delete.
	Operator string
	// Value is e.g. "mirror.example.com"; overwrite with "" deletes.
	Value string
}

// Image is one entry of overriders.image
// (kubeadmiral pkg/apis/core/v1alpha1 ImageOverrider @19de01c).
type Image struct {
	// ContainerNames limits the pod spec's initContainers and containers
	// that are changed; empty means all of them. Ignored with ImagePath.
	ContainerNames []string
	// ImagePath, when set, is the slash-separated path of one image string
	// in any kind of resource, e.g. "/spec/templates/0/container/image".
	// It is not an RFC 6901 pointer: "~0"/"~1" are not unescaped and list
	// indices must be non-negative numbers.
	ImagePath string
	// Operations run in order on the parsed image.
	Operations []ImageOperation
}

// Images is a rule's overriders.image list
// (kubeadmiral pkg/controllers/override/imagepatch.go parseImageOverriders).
// The overriders run in order; those that hit the same path see each
// other's result. Patches returns one replace per touched path, sorted by
// path, even where the image is unchanged.
type Images []Image

var _ Patcher = Images{}

// Patches computes the image patches for obj.
func (o Images) Patches(obj *yaml.Node) (yamlpatch.Patch, error) {
	return o.patchesAs(obj, GVK(objectNode(obj)))
}

func (o Images) patchesAs(obj *yaml.Node, gvk schema.GroupVersionKind) (yamlpatch.Patch, error) {
	patch, err := o.build(objectNode(obj), gvk)
	var applyErr *ApplyError
	switch {
	case errors.As(err, &applyErr):
		return nil, applyErr
	case err != nil:
		return nil, fmt.Errorf("failed to parse image overriders: %w", err)
	}
	return patch, nil
}

func (o Images) build(obj *yaml.Node, gvk schema.GroupVersionKind) (yamlpatch.Patch, error) {
	// newest image value per path, shared by both modes
	images := map[string]string{}
	var containers []containerRef
	resolved := false
	for i := range o {
		ov := &o[i]
		if ov.ImagePath != "" {
			if err := ov.fromImagePath(obj, images); err != nil {
				return nil, err
			}
			continue
		}
		if !resolved {
			var err error
			if containers, err = podContainers(obj, gvk); err != nil {
				return nil, err
			}
			resolved = true
		}
		if err := ov.fromWorkload(containers, images); err != nil {
			return nil, err
		}
	}
	return replaceSorted(images, func(image string) (*yaml.Node, error) {
		s, err := rawJSONString(image)
		if err != nil {
			return nil, err
		}
		return yamlvalue.NewString(s), nil
	})
}

// fromImagePath is parsePatchesFromImagePath. A chained value of "" counts
// as none, so the original is read again.
func (ov *Image) fromImagePath(obj *yaml.Node, images map[string]string) error {
	if !strings.HasPrefix(ov.ImagePath, "/") {
		return fmt.Errorf("image path should be start with /")
	}
	cur := images[ov.ImagePath]
	if cur == "" {
		var err error
		if cur, err = stringAt(obj, ov.ImagePath); err != nil {
			return fmt.Errorf("failed to parse image value from unstructured obj: %w", err)
		}
	}
	img, err := ov.apply(cur)
	if err != nil {
		return fmt.Errorf("failed to apply image override: %w", err)
	}
	images[ov.ImagePath] = img
	return nil
}

// fromWorkload is parsePatchesFromWorkload. A chained value is used even
// when it is "".
func (ov *Image) fromWorkload(containers []containerRef, images map[string]string) error {
	names := map[string]bool{}
	for _, n := range ov.ContainerNames {
		if n != "" {
			names[n] = true
		}
	}
	for _, c := range containers {
		if len(ov.ContainerNames) != 0 && !names[c.Name] {
			continue
		}
		path := c.path + "/image"
		cur, ok := images[path]
		if !ok {
			cur = c.Image
		}
		img, err := ov.apply(cur)
		if err != nil {
			return fmt.Errorf("failed to apply image overrider: %w", err)
		}
		images[path] = img
	}
	return nil
}

// apply is applyImageOverrider: the image is parsed even when no
// operation needs it.
func (ov *Image) apply(image string) (string, error) {
	img, err := parseImage(image)
	if err != nil {
		return "", fmt.Errorf("parse image failed(%s), error: %w", image, err)
	}
	for _, op := range ov.Operations {
		operator := op.Operator
		if operator == "" {
			operator = opOverwrite
		}
		var target *string
		switch op.Component {
		case componentRegistry:
			target = &img.Registry
		case componentRepository:
			target = &img.Repository
		case componentTag:
			target = &img.Tag
		case componentDigest:
			target = &img.Digest
		default:
			return "", fmt.Errorf("unsupported image component(%s)", op.Component)
		}
		v, err := operateComponent(*target, operator, op.Value)
		if err != nil {
			return "", err
		}
		switch {
		case op.Component == componentTag && v != "" && !imageref.IsTag(v):
			return "", fmt.Errorf("invalid tag format after applying the overrider")
		case op.Component == componentDigest && v != "" && !imageref.IsDigest(v):
			return "", fmt.Errorf("invalid digest format after applying the overrider")
		}
		*target = v
	}
	return img.String(), nil
}

// stringAt is upstream's GetStringFromUnstructuredObj: it trims "/" on
// both ends and splits on "/", reads map keys and decimal list indices
// (32-bit, no "-", no negatives), and needs a string at the end.
func stringAt(obj *yaml.Node, path string) (string, error) {
	fields := strings.Split(strings.Trim(path, "/"), "/")
	cur := obj
	for i, f := range fields {
		cur = yamlnode.Deref(cur)
		switch {
		case cur != nil && cur.Kind == yaml.MappingNode:
			cur = yamlnode.MapGet(cur, f)
		case cur != nil && cur.Kind == yaml.SequenceNode:
			idx, err := strconv.ParseInt(f, 10, 32)
			if err != nil {
				return "", fmt.Errorf("slice found at path %s, but the next path segment is not a number (found %q)", strings.Join(fields[:i], "/"), f)
			}
			if idx < 0 || int(idx) >= len(cur.Content) {
				return "", fmt.Errorf("index(%d) is negative or out of range", idx)
			}
			cur = cur.Content[idx]
		default:
			return "", fmt.Errorf("%s accessor error: unknown type %s, expected map[string]interface{} or []interface{}", strings.Join(fields[:i], "/"), goType(cur))
		}
	}
	cur = yamlnode.Deref(cur)
	if cur == nil || !yamlpatch.IsString(cur) {
		return "", fmt.Errorf("%q does not point to a string field", path)
	}
	return cur.Value, nil
}

// goType is the %T of n's unstructured value; n is nil or a scalar.
func goType(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode {
		return "<nil>"
	}
	return fmt.Sprintf("%T", yamlvalue.ToUnstructured(n))
}
