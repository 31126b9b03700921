// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package policy

import (
	"errors"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Policies is a dialect's policies, decoded and validated once per input.
// For binds them to one target (a cluster, its admission scope): the Sets
// that override the resources that cluster receives, the Placer that says
// which resources it receives, and the errors and warnings that only that
// cluster raises (a rule whose cluster match fails). Rendering N clusters
// decodes the policies once and calls For N times; a Binding is read-only,
// so resources are placed and overridden on all cores.
type Policies interface {
	For(t Target) (Binding, []error)
}

// Decoded is one policy a dialect decoded and validated: its identity, the
// key the dialect names it by, and the dialect's own form of it.
type Decoded[P any] struct {
	Ref    Ref
	Key    string
	Policy P
}

// Index is the policies of one dialect in input order, found by key too.
type Index[P any] struct {
	List  []Decoded[P]
	byKey map[string]int
}

// Get returns the policy recorded under key.
func (ix *Index[P]) Get(key string) (Decoded[P], bool) {
	i, ok := ix.byKey[key]
	if !ok {
		return Decoded[P]{}, false
	}
	return ix.List[i], true
}

// Decode is the compile step every dialect shares. For each object in
// input order, key says whether it is one of the dialect's policies and
// under which name policies of its kind must be unique (e.g.
// "OverridePolicy/default/web"); a second policy of the same key is an
// error naming the first copy's file (Names). decode decodes and validates
// one policy; a *field.Error it returns becomes an *Error on the policy at
// that field, any other error is kept as it is. A policy with errors is
// left out of the index; every error of every policy is returned, in input
// order.
func Decode[P any](objs []*yaml.RNode, key func(Ref) (string, bool), decode func(obj *yaml.RNode, ref Ref) (P, []error)) (*Index[P], []error) {
	ix := &Index[P]{byKey: map[string]int{}}
	seen := Names{}
	var errs []error
	for _, obj := range objs {
		ref := RefOf(obj)
		k, ok := key(ref)
		if !ok {
			continue
		}
		if err := seen.Add(k, ref); err != nil {
			errs = append(errs, err)
			continue
		}
		p, perrs := decode(obj, ref)
		for _, e := range perrs {
			errs = append(errs, onPolicy(ref, e))
		}
		if len(perrs) > 0 {
			continue
		}
		ix.byKey[k] = len(ix.List)
		ix.List = append(ix.List, Decoded[P]{Ref: ref, Key: k, Policy: p})
	}
	return ix, errs
}

// FieldErrors turns a field.ErrorList into the []error Decode's decode
// function returns.
func FieldErrors(list field.ErrorList) []error {
	if len(list) == 0 {
		return nil
	}
	out := make([]error, len(list))
	for i, e := range list {
		out[i] = e
	}
	return out
}

// onPolicy places a decode error on the policy: a *Error as it is, a
// field error at its field, anything else on the policy as a whole.
func onPolicy(ref Ref, err error) error {
	var pe *Error
	if errors.As(err, &pe) {
		return err
	}
	var fe *field.Error
	if errors.As(err, &fe) {
		return &Error{Policy: ref, Field: fe.Field, Err: fe}
	}
	return &Error{Policy: ref, Err: err}
}

// Compiler is a dialect's compile step.
type Compiler interface {
	Compile(objs []*yaml.RNode) (Policies, []error)
}

// CompileFor compiles objs and binds them to t: what a caller that renders
// a single target (a dialect's tests, a tool) needs in one call.
func CompileFor(c Compiler, objs []*yaml.RNode, t Target) (Binding, []error) {
	ps, errs := c.Compile(objs)
	if len(errs) > 0 {
		return Binding{}, errs
	}
	return ps.For(t)
}
