// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package objects reads the objects of a rendering (a ResourceList's items
// or a multi-document YAML stream) as decoded values, for crosscheck and
// items. Karmada's own objects (policy.karmada.io, cluster.karmada.io,
// work.karmada.io) are left out, and so are annotations under
// config.kubernetes.io/ and internal.config.kubernetes.io/, which
// orchestrators add (an annotations map emptied by that is dropped too).
package objects

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Object is one object and its key: apiVersion, kind, namespace/name.
type Object struct {
	Key string
	Val map[string]any
}

// Load reads a ResourceList's items, or every document of a YAML stream.
func Load(path string) ([]Object, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var docs []any
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	for {
		var d any
		err := dec.Decode(&d)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if d != nil {
			docs = append(docs, d)
		}
	}
	if len(docs) == 1 {
		if m, ok := docs[0].(map[string]any); ok && m["kind"] == "ResourceList" {
			items, _ := m["items"].([]any)
			docs = items
		}
	}
	objs := make([]Object, 0, len(docs))
	for i, d := range docs {
		m, ok := d.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: object %d is a %T, not a mapping", path, i, d)
		}
		apiVersion, _ := m["apiVersion"].(string)
		if isKarmada(apiVersion) {
			continue
		}
		kind, _ := m["kind"].(string)
		meta, _ := m["metadata"].(map[string]any)
		ns, _ := meta["namespace"].(string)
		name, _ := meta["name"].(string)
		dropOrchestratorAnnotations(meta)
		objs = append(objs, Object{Key: fmt.Sprintf("%s %s %s/%s", apiVersion, kind, ns, name), Val: m})
	}
	return objs, nil
}

func isKarmada(apiVersion string) bool {
	group, _, _ := strings.Cut(apiVersion, "/")
	switch group {
	case "policy.karmada.io", "cluster.karmada.io", "work.karmada.io":
		return true
	}
	return false
}

func dropOrchestratorAnnotations(meta map[string]any) {
	ann, ok := meta["annotations"].(map[string]any)
	if !ok {
		return
	}
	n := len(ann)
	for k := range ann {
		if strings.HasPrefix(k, "config.kubernetes.io/") || strings.HasPrefix(k, "internal.config.kubernetes.io/") {
			delete(ann, k)
		}
	}
	if n > 0 && len(ann) == 0 {
		delete(meta, "annotations")
	}
}
