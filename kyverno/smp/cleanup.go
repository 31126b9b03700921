// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package smp

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// This file reproduces the final pass of anchor preprocessing
// (strategicPreprocessing.go:deleteConditionElements and deleteAnchors):
// anchored list elements (the templates) go, conditional and global keys
// go when their value is a scalar or ends up empty and are un-anchored
// otherwise, and maps and lists left empty go too.

// cleanRoot cleans every field of the root map. Root-level conditional keys
// that keep content are NOT un-anchored: they stay literal "(k)" keys.
func cleanRoot(pattern *yaml.RNode) error {
	keys, err := pattern.Fields()
	if err != nil {
		return err
	}
	for _, k := range keys {
		f := pattern.Field(k)
		if f == nil {
			continue
		}
		drop, err := cleanNode(f.Value, isConditional(parseAnchor(k)))
		if err != nil {
			return err
		}
		if drop {
			if err := pattern.PipeE(yaml.Clear(k)); err != nil {
				return err
			}
		}
	}
	return nil
}

// cleanNode removes anchors below n and reports whether n itself should go:
// an emptied map or list, or a scalar when dropScalar is set.
func cleanNode(n *yaml.RNode, dropScalar bool) (bool, error) {
	switch n.YNode().Kind {
	case yaml.MappingNode:
		return cleanMap(n)
	case yaml.SequenceNode:
		return cleanList(n)
	case yaml.ScalarNode:
		return dropScalar, nil
	}
	return false, nil
}

func cleanMap(n *yaml.RNode) (bool, error) {
	anchors, err := anchorsWhere(n, isConditional)
	if err != nil {
		return false, err
	}
	kept := false
	for _, a := range anchors {
		f := n.Field(a.String())
		if f == nil {
			return false, fmt.Errorf("%w: anchor %q is written with white space around it", errUpstreamCrash, a.String())
		}
		drop, err := cleanNode(f.Value, true)
		if err != nil {
			return false, err
		}
		if !drop {
			kept = true
			continue
		}
		if err := n.PipeE(yaml.Clear(a.String())); err != nil {
			return false, err
		}
	}
	if kept {
		// Conditional keys with content are merged as plain keys.
		left, err := anchorsWhere(n, isConditional)
		if err != nil {
			return false, fmt.Errorf("failed to remove anchor tags: %w", err)
		}
		for _, a := range left {
			renameKey(n, a.String(), a.key)
		}
	}
	keys, err := n.Fields()
	if err != nil {
		return false, err
	}
	empty := true
	for _, k := range keys {
		drop, err := cleanNode(n.Field(k).Value, false)
		if err != nil {
			return false, err
		}
		if !drop {
			empty = false
			continue
		}
		if err := n.PipeE(yaml.Clear(k)); err != nil {
			return false, err
		}
	}
	return empty, nil
}

// cleanList drops anchored elements and elements left empty. Like upstream
// it removes them by their index in the ORIGINAL list, so a second removal
// hits the wrong element (issue #16862); where upstream's slice expression
// would then go out of range (a crash), an error is returned.
func cleanList(n *yaml.RNode) (bool, error) {
	elems, err := n.Elements()
	if err != nil {
		return false, err
	}
	wasEmpty := len(elems) == 0
	for i, e := range elems {
		drop := true
		if !hasAnchors(e, isMutateAnchor) {
			drop, err = cleanNode(e, false)
			if err != nil {
				return false, fmt.Errorf("failed to delete anchors: %w", err)
			}
		}
		if !drop {
			continue
		}
		content := n.YNode().Content
		if i+1 > len(content) {
			return false, fmt.Errorf("%w: two or more elements of one list are removed by anchor processing (kyverno issue #16862)", errUpstreamCrash)
		}
		n.YNode().Content = append(content[:i], content[i+1:]...)
	}
	return len(n.YNode().Content) == 0 && !wasEmpty, nil
}
