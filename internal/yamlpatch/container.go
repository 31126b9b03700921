// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlpatch

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
)

// rfc6901 decodes a reference token: "~1" to "/", then "~0" to "~", left to
// right in one pass, as evanphx and go-openapi/jsonpointer both do.
var rfc6901 = strings.NewReplacer("~1", "/", "~0", "~")

func decodeToken(k string) string { return rfc6901.Replace(k) }

// findObject walks path to the container of its last token, as evanphx's
// findObject does: "" is the root itself (with key ""), the text before the
// first "/" is dropped whatever it is ("spec/replicas" addresses "replicas"
// in the root), a path without any "/" finds nothing, and every
// intermediate value must be an object or an array. It returns the chain of
// containers from the root and the decoded last token. With write set,
// aliases on the way are replaced by copies so a change stays local.
func (a *applier) findObject(path string, write bool) ([]*yaml.Node, string, bool) {
	parts := strings.Split(path, "/")
	if len(parts) < 2 {
		if path == "" && !a.opts.LegacyV4 {
			return []*yaml.Node{a.root}, "", true
		}
		return nil, "", false
	}
	chain := []*yaml.Node{a.root}
	con := a.root
	for _, part := range parts[1 : len(parts)-1] {
		next, pos, err := a.get(con, decodeToken(part))
		if err != nil || next == nil {
			return nil, "", false
		}
		if write && a.aliases && pos >= 0 && next.Kind == yaml.AliasNode {
			next = a.materialize(chain, pos)
		}
		next = yamlnode.Resolve(next)
		if next == nil || (next.Kind != yaml.MappingNode && next.Kind != yaml.SequenceNode) {
			return nil, "", false
		}
		con = next
		chain = append(chain, con)
	}
	return chain, decodeToken(parts[len(parts)-1]), true
}

// isObject reports whether container c is a JSON object: a mapping, or the
// null-object root.
func (a *applier) isObject(c *yaml.Node) bool {
	return c.Kind == yaml.MappingNode || (c == a.root && a.nullObj)
}

// selfOf is what key "" yields in c: the root's self, nil anywhere else.
func (a *applier) selfOf(c *yaml.Node) *yaml.Node {
	if c == a.root {
		return a.self
	}
	return nil
}

// index parses an array token like evanphx (strconv.Atoi) and maps negative
// indices from the end; n is the length that negative indices count from.
func index(key string, n int) (int, error) {
	idx, err := strconv.Atoi(key)
	if err != nil {
		return 0, err
	}
	if idx < 0 {
		if idx < -n {
			return 0, errInvalidIndex(idx)
		}
		idx += n
	}
	return idx, nil
}

// get returns the value under key in container c and its index in
// c.Content (-1 for the self of key ""). A missing object key wraps
// ErrMissing directly, which test relies on.
func (a *applier) get(c *yaml.Node, key string) (*yaml.Node, int, error) {
	if key == "" && !a.opts.LegacyV4 {
		return a.selfOf(c), -1, nil
	}
	if a.isObject(c) {
		if c.Kind != yaml.MappingNode {
			return nil, -1, ErrExpectedObject
		}
		i := findKey(c, key)
		if i < 0 {
			return nil, -1, fmt.Errorf("unable to get nonexistent key: %s: %w", key, ErrMissing)
		}
		return c.Content[i+1], i + 1, nil
	}
	idx, err := index(key, len(c.Content))
	if err != nil {
		return nil, -1, err
	}
	if idx >= len(c.Content) {
		return nil, -1, errInvalidIndex(idx)
	}
	return c.Content[idx], idx, nil
}

// set puts val under key in the last container of chain; for an array the
// index must exist (replace checks with get first).
func (a *applier) set(chain []*yaml.Node, key string, val *yaml.Node) error {
	c := chain[len(chain)-1]
	if a.isObject(c) {
		if c.Kind != yaml.MappingNode {
			return ErrExpectedObject
		}
		if i := findKey(c, key); i >= 0 {
			a.swap(chain, i+1, val)
			return nil
		}
		a.unshare(chain)
		a.touch(c)
		c.Content = append(c.Content, newString(key), val)
		a.placed(chain, len(c.Content)-1, false)
		return nil
	}
	idx, err := index(key, len(c.Content))
	if err != nil {
		return err
	}
	if idx >= len(c.Content) {
		return errInvalidIndex(idx)
	}
	a.swap(chain, idx, val)
	return nil
}

// swap replaces c.Content[i] by val, which takes over the old node's
// comments (they describe the position).
func (a *applier) swap(chain []*yaml.Node, i int, val *yaml.Node) {
	c := chain[len(chain)-1]
	old := c.Content[i]
	a.unshare(chain, old)
	a.touch(c)
	a.touch(val)
	if old != nil {
		takeComments(val, old)
	}
	c.Content[i] = val
	a.placed(chain, i, true)
}

// add is RFC 6902 add on the last container of chain: set for objects,
// insert for arrays ("-" appends; index len appends; negative indices count
// from len+1, so -1 appends too).
func (a *applier) add(chain []*yaml.Node, key string, val *yaml.Node) error {
	c := chain[len(chain)-1]
	if a.isObject(c) {
		return a.set(chain, key, val)
	}
	if key == "-" {
		a.unshare(chain)
		a.touch(c)
		c.Content = append(c.Content, val)
		a.placed(chain, len(c.Content)-1, false)
		a.nilArr = a.nilArr && c != a.root
		return nil
	}
	idx, err := strconv.Atoi(key)
	if err != nil {
		return fmt.Errorf("value was not a proper array index: '%s': %w", key, err)
	}
	if idx >= len(c.Content)+1 {
		return errInvalidIndex(idx)
	}
	if idx, err = index(key, len(c.Content)+1); err != nil {
		return err
	}
	a.unshare(chain)
	a.touch(c)
	c.Content = slices.Insert(c.Content, idx, val)
	a.placed(chain, idx, false)
	a.nilArr = a.nilArr && c != a.root
	return nil
}

// remove deletes key from the last container of chain. With
// AllowMissingPathOnRemove a missing key or out-of-range index is no error
// (a malformed index still is).
func (a *applier) remove(chain []*yaml.Node, key string) error {
	c := chain[len(chain)-1]
	tolerate := a.opts.AllowMissingPathOnRemove
	if a.isObject(c) {
		if c.Kind != yaml.MappingNode {
			return ErrExpectedObject
		}
		i := findKey(c, key)
		if i < 0 {
			if tolerate {
				return nil
			}
			if a.opts.LegacyV4 {
				return fmt.Errorf("Unable to remove nonexistent key: %s: %w", key, ErrMissing)
			}
			return fmt.Errorf("unable to remove nonexistent key: %s: %w", key, ErrMissing)
		}
		a.unshare(chain, c.Content[i], c.Content[i+1])
		a.touch(c)
		c.Content = slices.Delete(c.Content, i, i+2)
		a.emptied(chain)
		return nil
	}
	idx, err := strconv.Atoi(key)
	if err != nil {
		return err
	}
	if idx >= len(c.Content) || idx < -len(c.Content) {
		if tolerate {
			return nil
		}
		return errInvalidIndex(idx)
	}
	if idx < 0 {
		idx += len(c.Content)
	}
	a.unshare(chain, c.Content[idx])
	a.touch(c)
	c.Content = slices.Delete(c.Content, idx, idx+1)
	a.emptied(chain)
	return nil
}
