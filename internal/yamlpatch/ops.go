// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlpatch

import (
	"errors"
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
)

// The operations below follow evanphx/json-patch v5.9.11 step by step,
// including the order of lookups (which decides which error wins) and the
// exact error texts, quirks included: replace reports a failing set as
// "error in remove", move reports its from errors with the key only, and
// copy's add error carries no path.

func (a *applier) opAdd(op *Operation) error {
	if op.Path == "" && !a.opts.LegacyV4 {
		return a.addRoot(op.Value)
	}
	var made []madeNode
	if a.opts.EnsurePathExistsOnAdd {
		var err error
		if made, err = a.ensurePath(op.Path); err != nil {
			return err
		}
	}
	chain, key, ok := a.findObject(op.Path, true)
	if !ok {
		return fmt.Errorf("add operation does not apply: doc is missing path: \"%s\": %w", op.Path, ErrMissing)
	}
	val, err := a.value(op.Value)
	if err != nil {
		return err
	}
	if err := a.add(chain, key, val); err != nil {
		return fmt.Errorf("error in add for path: '%s': %w", op.Path, err)
	}
	a.settle(made)
	return nil
}

// addRoot is add with path "": evanphx parses the value as the new root,
// an array if it is one and an object otherwise (so null gives the null
// object and other scalars fail).
func (a *applier) addRoot(v *yaml.Node) error {
	val, err := a.value(v)
	if err != nil {
		return err
	}
	switch kind := kindOf(yamlnode.Resolve(val)); kind {
	case kindObject, kindArray:
		a.nullObj = false
	case kindNull:
		a.nullObj = true
	default:
		return errNotObject(kind)
	}
	a.nilArr = false
	a.setRoot(val)
	return a.resetSelf(v)
}

func (a *applier) opRemove(op *Operation) error {
	chain, key, ok := a.findObject(op.Path, true)
	if !ok {
		if a.opts.AllowMissingPathOnRemove {
			return nil
		}
		return fmt.Errorf("remove operation does not apply: doc is missing path: \"%s\": %w", op.Path, ErrMissing)
	}
	if err := a.remove(chain, key); err != nil {
		return fmt.Errorf("error in remove for path: '%s': %w", op.Path, err)
	}
	return nil
}

func (a *applier) opReplace(op *Operation) error {
	if op.Path == "" && !a.opts.LegacyV4 {
		return a.replaceRoot(op.Value)
	}
	chain, key, ok := a.findObject(op.Path, true)
	if !ok {
		return fmt.Errorf("replace operation does not apply: doc is missing path: %s: %w", op.Path, ErrMissing)
	}
	// v4 finds every key of an object, so a missing one is added.
	if _, _, err := a.get(chain[len(chain)-1], key); err != nil && !(a.opts.LegacyV4 && a.isObject(chain[len(chain)-1])) {
		return fmt.Errorf("replace operation does not apply: doc is missing key: %s: %w", op.Path, ErrMissing)
	}
	val, err := a.value(op.Value)
	if err != nil {
		return err
	}
	if err := a.set(chain, key, val); err != nil {
		return fmt.Errorf("error in remove for path: '%s': %w", op.Path, err)
	}
	return nil
}

// replaceRoot is replace with path "": objects and arrays become the root,
// null becomes evanphx's nil array, other scalars fail. The root then has no
// self.
func (a *applier) replaceRoot(v *yaml.Node) error {
	val, err := a.value(v)
	if err != nil {
		return err
	}
	switch kindOf(yamlnode.Resolve(val)) {
	case kindObject, kindArray:
		a.nilArr = false
	case kindNull:
		val = &yaml.Node{Kind: yaml.SequenceNode, Tag: yaml.NodeTagSeq}
		a.nilArr = true
	default:
		return errReplaceRootScalar
	}
	a.nullObj = false
	a.setRoot(val)
	a.self = nil
	return nil
}

func (a *applier) opMove(op *Operation) error {
	if op.From == "" {
		return fmt.Errorf("unable to move entire document to another path: %w", ErrInvalid)
	}
	chain, key, ok := a.findObject(op.From, true)
	if !ok {
		return fmt.Errorf("move operation does not apply: doc is missing from path: %s: %w", op.From, ErrMissing)
	}
	val, _, err := a.get(chain[len(chain)-1], key)
	if err != nil {
		return fmt.Errorf("error in move for path: '%s': %w", key, err)
	}
	if err := a.remove(chain, key); err != nil {
		return fmt.Errorf("error in move for path: '%s': %w", key, err)
	}
	chain, dst, ok := a.findObject(op.Path, true)
	if !ok {
		return fmt.Errorf("move operation does not apply: doc is missing destination path: %s: %w", op.Path, ErrMissing)
	}
	switch {
	case val == nil:
		val = newNull()
	case val.Kind == yaml.AliasNode:
		if val, err = deepCopy(val); err != nil {
			return fmt.Errorf("error in move for path: '%s': %w", op.Path, err)
		}
	case a.aliases:
		a.expandAliases(val, nil)
	}
	if val == a.self && val != nil {
		a.shared = true
	}
	if err := a.add(chain, dst, val); err != nil {
		return fmt.Errorf("error in move for path: '%s': %w", op.Path, err)
	}
	return nil
}

func (a *applier) opCopy(op *Operation) error {
	chain, key, ok := a.findObject(op.From, false)
	if !ok {
		return fmt.Errorf("copy operation does not apply: doc is missing from path: \"%s\": %w", op.From, ErrMissing)
	}
	val, _, err := a.get(chain[len(chain)-1], key)
	if err != nil {
		return fmt.Errorf("error in copy for from: '%s': %w", op.From, err)
	}
	chain, dst, ok := a.findObject(op.Path, true)
	if !ok {
		return fmt.Errorf("copy operation does not apply: doc is missing destination path: %s: %w", op.Path, ErrMissing)
	}
	cp, err := a.copyOf(val)
	if err != nil {
		return fmt.Errorf("error while performing deep copy: %w", err)
	}
	if err := a.add(chain, dst, cp); err != nil {
		return fmt.Errorf("error while adding value during copy: %w", err)
	}
	return nil
}

func (a *applier) opTest(op *Operation) error {
	if op.Path == "" && !a.opts.LegacyV4 {
		if a.testRoot(op.Value) {
			return nil
		}
		return fmt.Errorf("testing value %s failed: %w", op.Path, ErrTestFailed)
	}
	chain, key, ok := a.findObject(op.Path, false)
	if !ok {
		return fmt.Errorf("test operation does not apply: is missing path: %s: %w", op.Path, ErrMissing)
	}
	val, _, err := a.get(chain[len(chain)-1], key)
	if err != nil && errors.Unwrap(err) != ErrMissing {
		return fmt.Errorf("error in test for path: '%s': %w", op.Path, err)
	}
	wantNull := isNullNode(op.Value)
	switch {
	case a.isNil(val) || (a.opts.LegacyV4 && isNullNode(val)):
		// v4 compares a null the patch put there by its empty raw
		// bytes, which equal those of a null test value.
		if wantNull {
			return nil
		}
	case !wantNull && a.equal(val, op.Value, 0):
		return nil
	}
	return fmt.Errorf("testing value %s failed: %w", op.Path, ErrTestFailed)
}
