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

// madeNode is a container that ensurePath put into parent.
type madeNode struct {
	parent, node *yaml.Node
	flow         bool // parent is in flow context
}

// ensurePath creates the missing parents of an add's path the way evanphx's
// ensurePathExists does, quirks included:
//
//   - a parent counts as missing when the lookup fails or yields a null
//     that came from the document (a null a patch put there is an existing
//     scalar, and descending into any scalar fails with ErrInvalid);
//   - a missing integer token above an array's length first pads the array
//     with nulls;
//   - the new container is an array when the next token is an integer or
//     "-", padded with that many nulls (-1 and "-" count as 0, lower
//     negative indices fail), and an object otherwise;
//   - it is added under the token as written, not decoded ("a~1b" becomes
//     that key, so the lookup that follows fails), and a failing add is
//     ignored: creation goes on in a container outside the document, where
//     only the negative-index check can still fail.
//
// An array index token is inserted, not set: a null at /list/1 of a path
// /list/1/x is pushed to index 2 by the new object. The created containers
// are returned for settle.
func (a *applier) ensurePath(path string) ([]madeNode, error) {
	parts := strings.Split(path, "/")
	if len(parts) < 2 {
		return nil, nil
	}
	parts = parts[1:]
	chain := []*yaml.Node{a.root}
	attached := true
	padded := 0
	var made []madeNode
	for pi, part := range parts[:len(parts)-1] {
		if attached {
			con := chain[len(chain)-1]
			target, pos, err := a.get(con, decodeToken(part))
			if err == nil && !a.isNil(target) {
				if a.aliases && pos >= 0 && target.Kind == yaml.AliasNode {
					target = a.materialize(chain, pos)
				}
				target = yamlnode.Resolve(target)
				if k := kindOf(target); k != kindObject && k != kindArray {
					return nil, ErrInvalid
				}
				chain = append(chain, target)
				continue
			}
			if idx, err := strconv.Atoi(part); err == nil && !a.isObject(con) && idx > len(con.Content) {
				if err := a.pad(chain, idx-len(con.Content), &padded); err != nil {
					return nil, err
				}
			}
		}
		next := parts[pi+1]
		n, err := strconv.Atoi(next)
		fresh := &yaml.Node{Kind: yaml.MappingNode, Tag: yaml.NodeTagMap}
		if err == nil || next == "-" {
			if n < -1 {
				return nil, fmt.Errorf("Unable to ensure path for negative index other than -1: %d: %w", n, ErrInvalidIndex)
			}
			fresh = &yaml.Node{Kind: yaml.SequenceNode, Tag: yaml.NodeTagSeq}
			n = max(n, 0)
		}
		if !attached {
			continue
		}
		con := chain[len(chain)-1]
		if err := a.add(chain, part, fresh); err != nil {
			attached = false // evanphx ignores this error
			continue
		}
		made = append(made, madeNode{parent: con, node: fresh, flow: inFlow(chain)})
		chain = append(chain, fresh)
		if fresh.Kind == yaml.SequenceNode {
			if err := a.pad(chain, n, &padded); err != nil {
				return nil, err
			}
		}
	}
	return made, nil
}

// pad appends n nulls to the array that ends chain; they are nulls a patch
// put there in evanphx's terms. padded counts the nulls of the whole path
// against MaxEnsurePadding.
func (a *applier) pad(chain []*yaml.Node, n int, padded *int) error {
	if *padded += n; *padded > MaxEnsurePadding {
		return fmt.Errorf("Unable to ensure path: more than %d nulls of padding: %w", MaxEnsurePadding, ErrInvalidIndex)
	}
	for range n {
		null := newNull()
		a.markRawNull(null)
		if err := a.add(chain, "-", null); err != nil {
			return err
		}
	}
	return nil
}

// settle fixes the comments of containers ensurePath created once the add
// has filled them: a comment taken over from the null a container replaced
// (or from its key, while it was empty) sits on the container's line, where
// the encoder cannot print it for a block collection; it moves to the key,
// which prints on the same line. Other comments are placed as for any value.
func (a *applier) settle(made []madeNode) {
	for _, m := range made {
		i := slices.Index(m.parent.Content, m.node)
		if m.flow || i < 0 {
			continue
		}
		v := m.node
		if m.parent.Kind == yaml.MappingNode && len(v.Content) > 0 && v.Style&yaml.FlowStyle == 0 && v.LineComment != "" {
			key := m.parent.Content[i-1]
			a.touch(key)
			a.touch(v)
			key.LineComment = joinComments(" ", key.LineComment, v.LineComment)
			v.LineComment = ""
		}
		a.placeComments(m.parent, i)
	}
}
