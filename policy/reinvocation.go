// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package policy

// Reinvocation is what a member cluster's admission chain remembers about
// one resource between its passes (k8s.io/apiserver admission.
// ReinvocationContext): the first pass runs every admission plugin in
// order (MutatingAdmissionPolicies, then the mutating webhooks such as
// Kyverno's); when a plugin asked for it, the chain admits the resource a
// second time (admission/reinvocation.go reinvoker.Admit), and each plugin
// then decides from what it stored here which of its hooks run again.
//
// A Resource carries one from the first admission Set that needs it to
// the Sets of the second pass (Binding.Reinvoke). It is not safe for
// concurrent use: a resource is admitted on one goroutine.
type Reinvocation struct {
	reinvoke, shouldReinvoke bool
	values                   map[string]any
}

// IsReinvoke reports whether the chain is in its second pass.
func (r *Reinvocation) IsReinvoke() bool { return r.reinvoke }

// SetIsReinvoke starts the second pass.
func (r *Reinvocation) SetIsReinvoke() { r.reinvoke = true }

// ShouldReinvoke reports whether a plugin asked for a second pass.
func (r *Reinvocation) ShouldReinvoke() bool { return r.shouldReinvoke }

// SetShouldReinvoke asks for a second pass.
func (r *Reinvocation) SetShouldReinvoke() { r.shouldReinvoke = true }

// Value is what the plugin named key stored, or nil.
func (r *Reinvocation) Value(key string) any { return r.values[key] }

// SetValue stores a plugin's state under its name.
func (r *Reinvocation) SetValue(key string, v any) {
	if r.values == nil {
		r.values = map[string]any{}
	}
	r.values[key] = v
}

// Reinvocation returns the resource's reinvocation context, made on first
// use by the first admission Set of the chain that keeps one.
func (r *Resource) Reinvocation() *Reinvocation {
	if r.reinvocation == nil {
		r.reinvocation = &Reinvocation{}
	}
	return r.reinvocation
}

// ReinvocationIfAny returns the resource's reinvocation context, or nil
// when no earlier admission Set made one: a later plugin then needs to
// keep none, as nothing before it in the chain can ask for a second pass.
func (r *Resource) ReinvocationIfAny() *Reinvocation { return r.reinvocation }

// SecondPass returns the resource's reinvocation context when the chain
// admits the resource a second time, as a plugin of the first pass asked
// (admission/reinvocation.go reinvoker.Admit), and marks the second pass
// begun; it returns nil when there is no second pass.
func (r *Resource) SecondPass() *Reinvocation {
	rc := r.reinvocation
	if rc == nil || !rc.ShouldReinvoke() {
		return nil
	}
	rc.SetIsReinvoke()
	return rc
}
