// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlpatch

import (
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
)

// apply runs p against doc with options o; see Patch.Apply.
func (p Patch) apply(doc *yaml.Node, o Options) error {
	if doc == nil {
		return fmt.Errorf("nil document: %w", ErrInvalid)
	}
	if o.LegacyV4 && (o.EnsurePathExistsOnAdd || o.AllowMissingPathOnRemove) {
		return fmt.Errorf("LegacyV4 with v5 options: %w", ErrInvalid)
	}
	root := doc
	if doc.Kind == yaml.DocumentNode {
		if len(doc.Content) == 0 {
			return nil // like evanphx with an empty document: nothing to patch
		}
		root = doc.Content[0]
	}
	if root == nil {
		return nil
	}
	a := &applier{root: root, aliases: hasAlias(root), opts: o}
	switch kind := kindOf(yamlnode.Resolve(root)); kind {
	case kindObject, kindArray:
	case kindNull:
		a.nullObj = true
	default:
		if o.LegacyV4 {
			return errNotPartialDoc(kind)
		}
		return errNotObject(kind)
	}
	for _, op := range p {
		if o.LegacyV4 {
			break // v4's root has no self
		}
		a.needSelf = a.needSelf || reachesSelf(op.Path) ||
			((op.Op == "move" || op.Op == "copy") && reachesSelf(op.From)) ||
			(op.Op == "copy" && op.From == "")
	}
	if a.needSelf {
		if err := a.resetSelf(root); err != nil {
			return err
		}
	}
	err := a.run(p)
	if err == nil {
		err = a.finish()
	}
	if err != nil {
		a.rollback()
	}
	return err
}

// reachesSelf reports whether evanphx would look up key "" in the root when
// resolving path ("/", "//x", "a/", ...), i.e. whether the root's self can
// matter. A copy from "" reads it too.
func reachesSelf(path string) bool {
	parts := strings.Split(path, "/")
	return len(parts) >= 2 && parts[1] == ""
}

// resetSelf makes the root's self a copy of v (a null v is a non-nil null).
func (a *applier) resetSelf(v *yaml.Node) error {
	if !a.needSelf {
		return nil
	}
	self, err := a.value(v)
	if err != nil {
		return err
	}
	a.self = self
	return nil
}

func (a *applier) run(p Patch) error {
	for i := range p {
		op := &p[i]
		var err error
		switch op.Op {
		case "add":
			err = a.opAdd(op)
		case "remove":
			err = a.opRemove(op)
		case "replace":
			err = a.opReplace(op)
		case "move", "copy":
			if a.opts.LegacyV4 {
				err = fmt.Errorf("%s operation failed to decode from: %w", op.Op, errMissingFromV4)
			} else if op.Op == "move" {
				err = a.opMove(op)
			} else {
				err = a.opCopy(op)
			}
		case "test":
			err = a.opTest(op)
		default:
			err = fmt.Errorf("Unexpected kind: %s", op.Op)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// finish turns the end state into a document the way evanphx serialises it:
// a null object fails, a nil array becomes null, and nodes shared through
// the root's self are unshared (a cycle fails).
func (a *applier) finish() error {
	if a.nullObj {
		return errMarshalNullDoc
	}
	if a.nilArr {
		a.setRoot(newNull())
		a.nilArr = false
	}
	if a.shared {
		return a.unshareAll()
	}
	return nil
}

// unshareAll copies every node that occurs twice in the document and fails
// if the document contains itself.
func (a *applier) unshareAll() error {
	seen := map[*yaml.Node]bool{}
	onStack := map[*yaml.Node]bool{}
	var rec func(n *yaml.Node, inFlow bool) error
	rec = func(n *yaml.Node, inFlow bool) error {
		onStack[n] = true
		defer delete(onStack, n)
		inFlow = inFlow || n.Style&yaml.FlowStyle != 0
		for i, c := range n.Content {
			if c == nil {
				continue
			}
			if onStack[c] {
				return errCycle
			}
			if seen[c] {
				cp, err := deepCopy(c)
				if err != nil {
					return err
				}
				a.touch(n)
				n.Content[i] = cp
				a.fitFlow(cp, inFlow, false)
				continue
			}
			seen[c] = true
			if err := rec(c, inFlow); err != nil {
				return err
			}
		}
		return nil
	}
	return rec(a.root, false)
}
