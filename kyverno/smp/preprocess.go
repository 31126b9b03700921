// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package smp

import (
	"encoding/json"
	"errors"
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
)

// This file reproduces pkg/engine/mutate/patch/strategicPreprocessing.go:
// the patch and the resource are kyaml nodes parsed from JSON, and the
// patch is rewritten in place. kyaml's own accessors are used throughout
// so that duplicate keys, nulls and wrong node kinds behave (and fail with
// the messages) they do upstream.

// preprocess rewrites pattern against resource: anchors first, then the
// clean-up pass.
func preprocess(pattern, resource *yaml.RNode) error {
	if err := walkPattern(pattern, resource); err != nil {
		return err
	}
	return cleanRoot(pattern)
}

func walkPattern(pattern, resource *yaml.RNode) error {
	switch pattern.YNode().Kind {
	case yaml.MappingNode:
		return walkMap(pattern, resource)
	case yaml.SequenceNode:
		return walkList(pattern, resource)
	}
	return nil
}

// walkMap handles the +() keys of a map, checks its global and then its
// conditional anchors, and recurses into every other key.
func walkMap(pattern, resource *yaml.RNode) error {
	if _, err := addIfNotPresent(pattern, resource); err != nil {
		return fmt.Errorf("failed to process addIfNotPresent anchor: %w", err)
	}
	if err := checkAnchors(pattern, resource, isGlobal); err != nil {
		if errors.Is(err, errUpstreamCrash) {
			return err
		}
		return &globalConditionError{err}
	}
	if err := checkAnchors(pattern, resource, isCondition); err != nil {
		if errors.Is(err, errUpstreamCrash) {
			return err
		}
		return &conditionError{err}
	}
	keys, err := keysWhere(pattern, func(a *anchor) bool { return !isMutateAnchor(a) })
	if err != nil {
		return err
	}
	for _, k := range keys {
		var value *yaml.RNode
		if resource != nil {
			if f := resource.Field(k); f != nil {
				value = f.Value
			}
		}
		if err := walkPattern(pattern.Field(k).Value, value); err != nil {
			return err
		}
	}
	return nil
}

func walkList(pattern, resource *yaml.RNode) error {
	elems, err := pattern.Elements()
	if err != nil {
		return err
	}
	if len(elems) == 0 || elems[0].YNode().Kind != yaml.MappingNode {
		return nil
	}
	return expandList(pattern, resource)
}

// expandList handles a list of maps. Each element with anchors is walked,
// as ONE copy shared by all resource elements (so +() decisions made for
// the first match stick: issues #6686/#6750), and every resource element
// it matches adds a copy without anchors, named after that element.
func expandList(pattern, resource *yaml.RNode) error {
	elems, err := pattern.Elements()
	if err != nil {
		return err
	}
	targets, err := resource.Elements()
	if err != nil {
		return err
	}
	for _, elem := range elems {
		if !hasAnchors(elem, isMutateAnchor) {
			continue
		}
		global := hasAnchors(elem, isGlobal)
		globalPassed := false
		var lastGlobalErr error
		tmpl := elem.Copy()
		for _, target := range targets {
			if err := walkPattern(tmpl, target); err != nil {
				switch {
				case isConditionErr(err):
					continue
				case isGlobalConditionErr(err):
					lastGlobalErr = err
					continue
				}
				return err
			}
			if global {
				globalPassed = true
				continue
			}
			if err := addNamedCopy(pattern, tmpl, target); err != nil {
				return fmt.Errorf("failed to update name in pattern: %w", err)
			}
		}
		if resource == nil {
			// An absent list: the element is checked once against nothing.
			if err := walkPattern(tmpl, nil); err != nil {
				if isConditionErr(err) {
					continue
				}
				return err
			}
			if global {
				globalPassed = true
			}
		}
		if !globalPassed && lastGlobalErr != nil {
			return lastGlobalErr
		}
	}
	return nil
}

// addNamedCopy appends to list a copy of tmpl without its anchors, named
// like target; nothing if target has no name or nothing is left.
func addNamedCopy(list, tmpl, target *yaml.RNode) error {
	name := target.Field("name")
	if name.IsNilOrEmpty() {
		return nil
	}
	elem := tmpl.Copy()
	empty, err := cleanNode(elem, true)
	if err != nil || empty {
		return err
	}
	// A copy: the resource is merged into afterwards.
	if err := elem.PipeE(yaml.SetField("name", yaml.NewRNode(yaml.CopyYNode(name.Value.YNode())))); err != nil {
		return err
	}
	return list.PipeE(yaml.Append(elem.YNode()))
}

// addIfNotPresent drops each +(k) key whose k the resource has and
// un-anchors the others. It returns how many +() keys there were.
func addIfNotPresent(pattern, resource *yaml.RNode) (int, error) {
	anchors, err := anchorsWhere(pattern, isAdd)
	if err != nil {
		return 0, err
	}
	for _, a := range anchors {
		if resource != nil && resource.Field(a.key) != nil {
			if err := pattern.PipeE(yaml.Clear(a.String())); err != nil {
				return 0, err
			}
			continue
		}
		renameKey(pattern, a.String(), a.key)
	}
	return len(anchors), nil
}

// checkAnchors checks the anchors of one kind of a map: the key must exist
// in the resource and, unless the anchor's value holds +() keys (which are
// then applied instead), its value must match.
func checkAnchors(pattern, resource *yaml.RNode, kind func(*anchor) bool) error {
	anchors, err := anchorsWhere(pattern, kind)
	if err != nil {
		return err
	}
	for _, a := range anchors {
		if resource == nil || resource.Field(a.key) == nil {
			return fmt.Errorf("could not found \"%s\" key in the resource", a.key)
		}
		f := pattern.Field(a.String())
		if f == nil {
			return fmt.Errorf("%w: anchor %q is written with white space around it", errUpstreamCrash, a.String())
		}
		value := resource.Field(a.key).Value
		n, err := addIfNotPresent(f.Value, value)
		if err != nil {
			return err
		}
		if n > 0 {
			continue
		}
		if err := checkValue(f.Value, value); err != nil {
			return err
		}
	}
	return nil
}

// checkValue runs the validate-pattern engine on an anchor's value. Scalars
// are compared as their YAML text, collections as JSON values.
func checkValue(pattern, resource *yaml.RNode) error {
	p, err := patternValue(pattern)
	if err != nil {
		return err
	}
	r, err := patternValue(resource)
	if err != nil {
		return err
	}
	return matchPattern(r, p)
}

func patternValue(n *yaml.RNode) (any, error) {
	if n.YNode().Kind == yaml.ScalarNode {
		return n.YNode().Value, nil
	}
	b, err := yamlnode.MarshalJSON(n.YNode())
	if err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// hasAnchors reports whether n has a key of the given kind anywhere. A
// scalar VALUE spelled like a conditional anchor ("(x)") counts too, for
// every kind, as upstream has it.
func hasAnchors(n *yaml.RNode, kind func(*anchor) bool) bool {
	switch n.YNode().Kind {
	case yaml.MappingNode:
		keys, err := n.Fields()
		if err != nil {
			return false
		}
		for _, k := range keys {
			if a := parseAnchor(k); a != nil && kind(a) {
				return true
			}
			if f := n.Field(k); !f.IsNilOrEmpty() && hasAnchors(f.Value, kind) {
				return true
			}
		}
	case yaml.ScalarNode:
		return isConditional(parseAnchor(n.YNode().Value))
	case yaml.SequenceNode:
		elems, _ := n.Elements()
		for _, e := range elems {
			if hasAnchors(e, kind) {
				return true
			}
		}
	}
	return false
}

// anchorsWhere lists the anchored keys of kind of a map (none for other nodes).
func anchorsWhere(n *yaml.RNode, kind func(*anchor) bool) ([]*anchor, error) {
	if yaml.ErrorIfInvalid(n, yaml.MappingNode) != nil {
		return nil, nil
	}
	keys, err := n.Fields()
	if err != nil {
		return nil, err
	}
	var out []*anchor
	for _, k := range keys {
		if a := parseAnchor(k); a != nil && kind(a) {
			out = append(out, a)
		}
	}
	return out, nil
}

// keysWhere lists the keys of a map that are not anchors or are anchors
// of kind.
func keysWhere(n *yaml.RNode, kind func(*anchor) bool) ([]string, error) {
	if yaml.ErrorIfInvalid(n, yaml.MappingNode) != nil {
		return nil, nil
	}
	keys, err := n.Fields()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, k := range keys {
		if a := parseAnchor(k); a == nil || kind(a) {
			out = append(out, k)
		}
	}
	return out, nil
}

// renameKey renames the (last) key from to to.
func renameKey(n *yaml.RNode, from, to string) {
	if f := n.Field(from); f != nil {
		f.Key.YNode().Value = to
	}
}
