// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"fmt"
	"strconv"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
)

// podSpecPath is where the pod spec of a workload kind lives. Upstream
// switches on kind only (apiVersion and group are ignored) and knows no
// other kinds: CronJob, ReplicationController, PodTemplate and CRDs are
// never auto-detected.
func podSpecPath(kind string) []string {
	switch kind {
	case "Pod":
		return []string{"spec"}
	case "ReplicaSet", "Deployment", "DaemonSet", "StatefulSet", "Job":
		return []string{"spec", "template", "spec"}
	}
	return nil
}

// kindOf is unstructured's GetKind: "" unless kind is a string.
func kindOf(doc *yaml.Node) string {
	if v := yamlnode.MapGet(doc, "kind"); v != nil && yamlpatch.IsString(v) {
		return v.Value
	}
	return ""
}

// imageField is one container's image: its JSON pointer and its node (nil
// when the container has no image, which upstream reads as "").
type imageField struct {
	path string
	node *yaml.Node
}

// containerImages lists the images of spec.containers for the kinds of
// podSpecPath, in container order. Upstream first converts the object to
// its typed form; the conversion errors this can raise along the path to
// the images are reproduced (the rest of the object is not type-checked).
func containerImages(doc *yaml.Node) ([]imageField, error) {
	kind := kindOf(doc)
	segs := podSpecPath(kind)
	if segs == nil {
		return nil, nil
	}
	convErr := func(path, msg string) error {
		return prefixed(path, fmt.Errorf("failed to convert %s from unstructured object: %s", kind, msg))
	}
	cur, path := doc, ""
	for _, s := range segs {
		path += "/" + s
		v := yamlnode.MapGet(cur, s)
		if v == nil || yamlnode.IsNullScalar(v) {
			return nil, nil
		}
		if v.Kind != yaml.MappingNode {
			return nil, convErr(path, "cannot restore struct from: "+goKind(v))
		}
		cur = v
	}
	path += "/containers"
	cs := yamlnode.MapGet(cur, "containers")
	if cs == nil || yamlnode.IsNullScalar(cs) {
		return nil, nil
	}
	if cs.Kind != yaml.SequenceNode {
		return nil, convErr(path, "cannot restore slice from "+goKind(cs))
	}
	images := make([]imageField, 0, len(cs.Content))
	for i, c := range cs.Content {
		c = yamlnode.Deref(c)
		p := fmt.Sprintf("%s/%d", path, i)
		if yamlnode.IsNullScalar(c) {
			images = append(images, imageField{path: p + "/image"})
			continue
		}
		if c.Kind != yaml.MappingNode {
			return nil, convErr(p, "cannot restore struct from: "+goKind(c))
		}
		img := yamlnode.MapGet(c, "image")
		switch {
		case img == nil || yamlnode.IsNullScalar(img):
			images = append(images, imageField{path: p + "/image"})
		case yamlpatch.IsString(img):
			images = append(images, imageField{path: p + "/image", node: img})
		case goKind(img) == "int64":
			return nil, convErr(p+"/image", "cannot convert int64 to string")
		default:
			return nil, convErr(p+"/image", "unrecognized type: string")
		}
	}
	return images, nil
}

// parseInt32 is strconv.ParseInt(s, 10, 32), as Karmada's walker uses.
func parseInt32(s string) (int64, error) {
	return strconv.ParseInt(s, 10, 32)
}
