// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlpatch

import (
	"slices"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
)

// applier is the state of one Patch.Apply call. It mirrors what evanphx keeps
// while applying a patch:
//
//   - root is the document container, edited in place. evanphx can also hold
//     a JSON object with no map (after add "" null, or a null document):
//     nullObj; and a nil array (after replace "" null): nilArr, kept as an
//     empty sequence and written out as null.
//   - self is the root container's "self" node, which evanphx returns for the
//     key "" of the root (only of the root) — paths "/" and "//...". It is
//     the document as it was when Apply started (or the value of the last
//     add ""), never the live document, and nil after replace "". It is only
//     materialised when some path of the patch can reach it.
//   - rawNull marks null nodes evanphx holds as a non-nil "null" value (the
//     value of add/replace, and copies of such nodes); nulls that come from a
//     document are nil pointers in evanphx, and the two behave differently
//     in test.
//   - undo restores every node touched, so a failing Apply leaves the
//     document unchanged.
//   - opts are the evanphx ApplyOptions in force.
type applier struct {
	root     *yaml.Node
	opts     Options
	nullObj  bool
	nilArr   bool
	self     *yaml.Node
	needSelf bool
	shared   bool // self was moved into the document
	aliases  bool // the document may contain alias nodes
	rawNull  map[*yaml.Node]bool
	saved    map[*yaml.Node]bool
	undo     []savedNode
}

type savedNode struct {
	n *yaml.Node
	v yaml.Node
}

// touch records n's current state before its first change.
func (a *applier) touch(n *yaml.Node) {
	if a.saved == nil {
		a.saved = map[*yaml.Node]bool{}
	}
	if a.saved[n] {
		return
	}
	a.saved[n] = true
	v := *n
	v.Content = slices.Clone(n.Content)
	a.undo = append(a.undo, savedNode{n: n, v: v})
}

// rollback restores every touched node.
func (a *applier) rollback() {
	for i := len(a.undo) - 1; i >= 0; i-- {
		*a.undo[i].n = a.undo[i].v
	}
	a.undo, a.saved = nil, nil
}

// markRawNull records that n, if null, is a non-nil null in evanphx terms.
func (a *applier) markRawNull(n *yaml.Node) {
	if n == nil || !isNullNode(n) {
		return
	}
	if a.rawNull == nil {
		a.rawNull = map[*yaml.Node]bool{}
	}
	a.rawNull[n] = true
}

// isNil reports whether evanphx holds the value n as a nil pointer: a
// missing value, or a null that came from a document.
func (a *applier) isNil(n *yaml.Node) bool {
	return n == nil || (!a.rawNull[n] && isNullNode(n))
}

// value returns a fresh copy of an operation's value; nil is JSON null.
// Like evanphx's op.value(), a null value is a non-nil null.
func (a *applier) value(v *yaml.Node) (*yaml.Node, error) {
	var n *yaml.Node
	if r := yamlnode.Resolve(v); r == nil {
		n = newNull()
	} else {
		cp, err := deepCopy(v)
		if err != nil {
			return nil, err
		}
		n = cp
	}
	a.markRawNull(n)
	return n, nil
}

// copyOf deep-copies a document value for the copy operation, keeping its
// null flavour; the copy's own comments describe the source position and are
// dropped.
func (a *applier) copyOf(n *yaml.Node) (*yaml.Node, error) {
	if n == nil {
		return newNull(), nil
	}
	cp, err := deepCopy(n)
	if err != nil {
		return nil, err
	}
	dropComments(cp)
	if a.rawNull[n] {
		a.markRawNull(cp)
	}
	return cp, nil
}

// setRoot overwrites the root container in place with n, keeping the root's
// comments.
func (a *applier) setRoot(n *yaml.Node) {
	a.touch(a.root)
	takeComments(n, a.root)
	*a.root = *n
	a.fitFlow(a.root, false, false)
}

// unshare prepares a change of the container chain[len(chain)-1] that may
// detach the nodes old (a removed entry's key and value): any alias elsewhere in the document that points at a container
// of the chain, or into old, is replaced by a copy of its target, so the
// change neither leaks into other alias sites nor leaves dangling aliases.
func (a *applier) unshare(chain []*yaml.Node, old ...*yaml.Node) {
	if !a.aliases {
		return
	}
	targets := map[*yaml.Node]bool{}
	for _, c := range chain {
		targets[c] = true
	}
	for _, o := range old {
		if o == nil {
			continue
		}
		targets[o] = true
		walk(o, func(_ *yaml.Node, _ int, c *yaml.Node) bool {
			targets[c] = true
			return true
		})
	}
	a.expandAliases(a.root, targets)
}

// expandAliases replaces alias nodes under n whose target is in targets (all
// of them if targets is nil) by copies of their targets.
func (a *applier) expandAliases(n *yaml.Node, targets map[*yaml.Node]bool) {
	seen := map[*yaml.Node]bool{}
	var rec func(p *yaml.Node, inFlow bool)
	rec = func(p *yaml.Node, inFlow bool) {
		if seen[p] {
			return
		}
		seen[p] = true
		inFlow = inFlow || p.Style&yaml.FlowStyle != 0
		for i, c := range p.Content {
			switch {
			case c == nil:
			case c.Kind != yaml.AliasNode:
				rec(c, inFlow)
			case targets != nil && !targets[c.Alias]:
			case p.Kind == yaml.MappingNode && i%2 == 0:
				a.touch(p)
				p.Content[i] = copyKey(c)
			default:
				if cp, err := deepCopy(c); err == nil {
					a.touch(p)
					p.Content[i] = cp
					a.fitFlow(cp, inFlow, false)
				}
			}
		}
	}
	rec(n, false)
}

// materialize replaces the alias node chain[len(chain)-1].Content[i] by a
// copy of its target and returns the copy, so that a change below it stays
// local.
func (a *applier) materialize(chain []*yaml.Node, i int) *yaml.Node {
	p := chain[len(chain)-1]
	cp, err := deepCopy(p.Content[i])
	if err != nil {
		return p.Content[i]
	}
	a.touch(p)
	p.Content[i] = cp
	a.fitFlow(cp, inFlow(chain), false)
	return cp
}

// inFlow reports whether the last container of chain is in flow context.
func inFlow(chain []*yaml.Node) bool {
	for _, c := range chain {
		if c.Style&yaml.FlowStyle != 0 {
			return true
		}
	}
	return false
}
