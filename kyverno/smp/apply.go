// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package smp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"

	"sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/kustomize/kyaml/yaml/merge2"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
)

// Apply applies a patchStrategicMerge value (a JSON value, variables already
// substituted) to resource in place, as Kyverno v1.19.1 does: anchor
// preprocessing against the resource's JSON view, then kyaml merge2 with
// ListIncreaseDirection Prepend and kyaml's built-in Kubernetes v1.21.2
// OpenAPI schema (associative lists by patch merge key, every other list
// atomic). Comments, key order and styles of what the patch does not
// replace are kept, and so are the comments of replaced scalars.
//
// changed is false when the result's JSON equals the input's (upstream: rule
// skip "no patches applied"), which includes a conditional or global anchor
// failing outside a list element (the patch then becomes {}).
//
// Errors read as those of upstream's ProcessStrategicMergePatch, e.g.
// "failed to preProcess rule: ..." or kyaml's merge errors; the caller adds
// upstream's "failed to patch resource: " in front. On error the resource
// is unchanged.
//
// Apply does not reject what Check rejects: it reproduces upstream there
// (literal =() keys, stale-index deletions), except that where upstream
// would crash it returns an error. Call Check first.
func Apply(resource *yaml.RNode, patch any) (changed bool, err error) {
	changed, _, err = ApplyJSON(resource, nil, patch)
	return changed, err
}

// ApplyJSON is Apply for a caller that knows the resource's JSON view
// (internal/yamlnode.MarshalJSON of its node) from a previous call: before,
// or nil to compute it. after is the JSON view of the result, for the
// next call while nothing else changes the resource.
func ApplyJSON(resource *yaml.RNode, before []byte, patch any) (changed bool, after []byte, err error) {
	if resource.IsNil() {
		return false, nil, errors.New("no resource to patch")
	}
	if before == nil {
		if before, err = yamlnode.MarshalJSON(resource.YNode()); err != nil {
			return false, nil, fmt.Errorf("read the resource as JSON: %w", err)
		}
	}
	patchJSON, err := json.Marshal(patch)
	if err != nil {
		return false, nil, err
	}
	res, err := parseJSON(before)
	if err != nil {
		return false, nil, err
	}
	prepared, err := preparePatch(patchJSON, res)
	if err != nil {
		return false, nil, err
	}
	after, merged, err := mergeJSON(prepared, res, before)
	if err != nil {
		return false, nil, err
	}
	if bytes.Equal(bytes.TrimSpace(before), bytes.TrimSpace(after)) {
		return false, before, nil
	}
	if err := mergeInto(resource, prepared, after, merged); err != nil {
		return false, nil, err
	}
	return true, after, nil
}

// preparePatch parses the patch and runs anchor preprocessing against the
// resource (res, parsed from JSON as upstream parses it). A failed
// condition leaves an empty patch.
func preparePatch(patchJSON []byte, res *yaml.RNode) (*yaml.RNode, error) {
	pattern, err := parseJSON(patchJSON)
	if err != nil {
		return nil, err
	}
	if err := preprocess(pattern, res); err != nil {
		if !isConditionErr(err) && !isGlobalConditionErr(err) {
			return nil, fmt.Errorf("failed to preProcess rule: %w", err)
		}
		return yaml.NewMapRNode(nil), nil
	}
	return pattern, nil
}

// mergeJSON is upstream's merge: kustomize's patchstrategicmerge.Filter
// applied through kyaml's filtersutil.ApplyToJSON, on node (the resource
// parsed from its JSON text before, consumed). It returns the result and
// its JSON.
func mergeJSON(patch, node *yaml.RNode, before []byte) ([]byte, *yaml.Node, error) {
	merged, err := mergeWith(merge2.Merger{}, func() (*yaml.RNode, *yaml.RNode, error) {
		if node == nil { // a second attempt
			n, err := parseJSON(before)
			return n, patch.Copy(), err
		}
		n := node
		node = nil
		return n, patch.Copy(), nil
	})
	if err != nil {
		return nil, nil, err
	}
	if merged == nil {
		return nil, nil, errors.New("filter cannot create or delete objects")
	}
	b, err := yamlnode.MarshalJSON(merged.YNode())
	return b, merged.YNode(), err
}

// fallbacks counts merges whose in-place result disagreed with upstream's,
// for tests.
var fallbacks atomic.Int64

// mergeInto merges the prepared patch into a working copy of the resource
// node and, if the copy's JSON equals want (the JSON of wantNode), makes
// it the resource. Otherwise the resource is reconciled to want.
func mergeInto(resource, prepared *yaml.RNode, want []byte, wantNode *yaml.Node) error {
	if work, ok := mergeCopy(resource, prepared); ok {
		if sameJSON(work.YNode(), wantNode) {
			*resource.YNode() = *work.YNode()
			return nil
		}
		if got, err := yamlnode.MarshalJSON(work.YNode()); err == nil && bytes.Equal(got, want) {
			*resource.YNode() = *work.YNode()
			return nil
		}
	}
	fallbacks.Add(1)
	return reconcileTo(resource, want)
}

// mergeCopy runs the comment-keeping merge on a copy of the resource.
func mergeCopy(resource, prepared *yaml.RNode) (*yaml.RNode, bool) {
	var work *yaml.RNode
	var saved comments
	merged, err := mergeNodes(func() (*yaml.RNode, *yaml.RNode, error) {
		w, err := workingCopy(resource)
		if err != nil {
			return nil, nil, err
		}
		work, saved = w, takeComments(w.YNode())
		patch := prepared.Copy()
		restyle(patch.YNode())
		return work, patch, nil
	})
	if err != nil || merged.IsNil() {
		return nil, false
	}
	if merged.YNode() != work.YNode() {
		// The patch replaced the whole object ($patch: replace).
		if err := yamlpatch.Reconcile(work.YNode(), merged.YNode()); err != nil {
			return nil, false
		}
	}
	saved.restore(work.YNode())
	return work, true
}

// workingCopy copies the resource node. Aliases and merge keys, which the
// JSON view expands, are expanded in the copy.
func workingCopy(resource *yaml.RNode) (*yaml.RNode, error) {
	if !hasAliases(resource.YNode()) {
		return resource.Copy(), nil
	}
	s, err := resource.String()
	if err != nil {
		return nil, err
	}
	work, err := yaml.Parse(s)
	if err != nil {
		return nil, err
	}
	if err := work.DeAnchor(); err != nil {
		return nil, err
	}
	return work, nil
}

// hasAliases reports whether a tree has an alias or a merge key.
func hasAliases(n *yaml.Node) bool {
	if n == nil {
		return false
	}
	if n.Kind == yaml.AliasNode || (n.Kind == yaml.ScalarNode && n.ShortTag() == "!!merge") {
		return true
	}
	for _, c := range n.Content {
		if hasAliases(c) {
			return true
		}
	}
	return false
}

// reconcileTo turns the resource into the JSON value want, keeping what
// comments and styles it can.
func reconcileTo(resource *yaml.RNode, want []byte) error {
	target, err := yaml.Parse(string(want))
	if err != nil {
		return err
	}
	restyle(target.YNode())
	dst := yaml.CopyYNode(resource.YNode())
	if err := yamlpatch.Reconcile(dst, target.YNode()); err != nil {
		return err
	}
	comments{}.restore(dst) // only normalises empty collections
	got, err := yamlnode.MarshalJSON(dst)
	if err != nil {
		return fmt.Errorf("internal error: the merged resource does not read back as JSON: %w", err)
	}
	if !bytes.Equal(got, want) {
		return errors.New("internal error: the merged resource does not read back as the merge result")
	}
	*resource.YNode() = *dst
	return nil
}
