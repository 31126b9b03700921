// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build !nocel

package kyverno

import (
	"encoding/json"
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/kyverno/mpol"
	"github.com/apply-overrides/apply-overrides/kyverno/smp"
	"github.com/apply-overrides/apply-overrides/policy"
)

// celPolicy is one compiled MutatingPolicy.
type celPolicy struct {
	ref policy.Ref
	p   *mpol.Policy
	// fields are the steps' fields: one per mutation.
	fields []string
}

// decodeCEL compiles one MutatingPolicy; its error names the field.
func decodeCEL(obj *yaml.RNode, ref policy.Ref) (*celPolicy, []error) {
	p, err := mpol.Compile(obj)
	if err != nil {
		field := "spec"
		if fe, ok := err.(*mpol.FieldError); ok {
			field = fe.Field
		}
		return nil, []error{&policy.Error{Policy: ref, Field: field, Err: err}}
	}
	cp := &celPolicy{ref: ref, p: p}
	for i := 0; i < p.Mutations(); i++ {
		cp.fields = append(cp.fields, fmt.Sprintf("spec.mutations[%d]", i))
	}
	if len(cp.fields) == 0 {
		cp.fields = []string{celRuleField}
	}
	return cp, nil
}

// readCELNamespaces reads the input's Namespace objects for the
// MutatingPolicies, without the orchestrators' wire annotations (which
// neither the CLI's values file nor a cluster's Namespace has).
func readCELNamespaces(nodes []*yaml.RNode) (celNamespaces, []error) {
	out := celNamespaces{}
	var errs []error
	for _, n := range nodes {
		ref := policy.RefOf(n)
		b, err := yamlnode.MarshalJSON(n.YNode())
		var obj map[string]any
		if err == nil {
			obj, err = decodeObject(b)
		}
		if err == nil {
			meta, _ := obj["metadata"].(map[string]any)
			if annos, ok := meta["annotations"].(map[string]any); ok {
				for k := range annos {
					if isWireAnnotation(k) {
						delete(annos, k)
					}
				}
				if len(annos) == 0 {
					delete(meta, "annotations")
				}
			}
			b, err = json.Marshal(obj)
		}
		if err == nil {
			obj, err = mpol.NamespaceObject(b)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s (file %s): MutatingPolicies read it as their namespaceObject, and it is not a valid v1 Namespace: %w; fix the Namespace object", ref.GVKString(), ref.File, err))
			continue
		}
		out[ref.Name] = obj
	}
	return out, errs
}

// rule returns the policy as a rule of the neutral model: one step per
// mutation, sharing one run of the policy on the resource; namespaces
// are the input's Namespace objects.
func (c *celPolicy) rule(namespaces celNamespaces) *policy.Rule {
	run := &celRun{c: c, namespaces: namespaces}
	r := &policy.Rule{Policy: &c.ref, Field: celRuleField}
	for i, f := range c.fields {
		r.Steps = append(r.Steps, policy.Step{Field: f, Filter: celStep{run: run, index: i}})
	}
	return r
}

// celRun is the policy run on one resource. The first step runs the whole
// policy on the resource's JSON view (as `kyverno apply` runs it: matched
// once, then every mutation on the output of the previous one) and
// records the object after each mutation; each step then writes back the
// object as it stood after its own mutation.
type celRun struct {
	c          *celPolicy
	namespaces celNamespaces
	// done is set once the policy ran; states[i] is the object after
	// mutation i (nil when it did not run).
	done      bool
	matched   bool
	states    [][]byte
	changed   []bool
	defaulted bool
}

func (r *celRun) run(n *yaml.RNode) error {
	r.done = true
	b, err := yamlnode.MarshalJSON(n.YNode())
	if err != nil {
		return fmt.Errorf("read the resource as JSON: %w", err)
	}
	obj, err := mpol.DecodeObject(b)
	if err != nil || obj == nil {
		return fmt.Errorf("read the resource as JSON: %v", err)
	}
	meta, _ := obj["metadata"].(map[string]any)
	if ns, _ := meta["namespace"].(string); ns == "" && meta != nil && namespacedKind(obj) {
		r.defaulted = true
	}
	defaultNamespace(obj)
	// The resource's Namespace, when the input holds it: namespaceObject
	// and the labels namespaceSelector matches, as `kyverno apply` takes
	// them from its values file (policy_processor.go:325, NewEngine with
	// p.Variables.Namespace) and a cluster from its Namespace; without
	// one, namespaceObject is null and namespaceSelector sees only the
	// label kubernetes.io/metadata.name (pkg/cel/matching/predicates/
	// namespace). A cluster-scoped resource has no namespace (the engine
	// resolves one only for a request with a namespace, engine.go:149).
	// A NamespacedMutatingPolicy is not kept to its own namespace, as in
	// the CLI.
	var ns mpol.Namespace
	if name, _ := meta["namespace"].(string); name != "" {
		ns.Object = r.namespaces[name]
	}
	res, err := r.c.p.Apply(obj, ns, func(index int, state map[string]any, changed bool) error {
		if r.states == nil {
			r.states = make([][]byte, len(r.c.fields))
			r.changed = make([]bool, len(r.c.fields))
		}
		if r.defaulted {
			undefaultNamespace(state)
		}
		s, err := json.Marshal(state)
		if err != nil {
			return err
		}
		r.states[index] = s
		r.changed[index] = r.changed[index] || changed
		return nil
	})
	if err != nil {
		return err
	}
	r.matched = res.Matched
	return nil
}

// undefaultNamespace takes back the namespace defaultNamespace gave the
// JSON view, when the policy left it as it was.
func undefaultNamespace(obj map[string]any) {
	meta, _ := obj["metadata"].(map[string]any)
	if ns, _ := meta["namespace"].(string); ns == "default" {
		delete(meta, "namespace")
	}
}

// celStep is one mutation of a MutatingPolicy run on a resource.
type celStep struct {
	run   *celRun
	index int
}

func (s celStep) Filter(n *yaml.RNode) (*yaml.RNode, error) {
	_, _, _, err := s.FilterMatch(n)
	return n, err
}

func (s celStep) FilterCount(n *yaml.RNode) (int, bool, error) {
	applied, modified, _, err := s.FilterMatch(n)
	return applied, modified, err
}

// FilterMatch implements policy.MatchingFilter: the mutation applied when
// it changed the resource; the policy matched when its matchConstraints
// and matchConditions did.
func (s celStep) FilterMatch(n *yaml.RNode) (int, bool, []string, error) {
	r := s.run
	if !r.done {
		_, undo, err := asKyvernoSeesIt(n, nil)
		if err != nil {
			return 0, false, nil, err
		}
		err = r.run(n)
		if uerr := undo(); uerr != nil && err == nil {
			err = uerr
		}
		if err != nil {
			ce := &celError{Field: celRuleField, Err: err}
			if me, ok := err.(*mpol.MutationError); ok {
				ce.Field, ce.Err = me.Field, me.Err
			}
			return 0, false, nil, ce
		}
	}
	var matched []string
	if r.matched {
		matched = []string{celRuleField}
	}
	if r.states == nil || r.states[s.index] == nil || !r.changed[s.index] {
		return 0, false, matched, nil
	}
	_, undo, err := asKyvernoSeesIt(n, nil)
	if err != nil {
		return 0, false, nil, err
	}
	err = smp.ReconcileTo(n, r.states[s.index])
	if uerr := undo(); uerr != nil && err == nil {
		err = uerr
	}
	if err != nil {
		return 0, false, nil, &celError{Field: r.c.fields[s.index], Err: err}
	}
	return 1, true, matched, nil
}

// celHint says what a MutatingPolicy selects, for the warning about a
// policy that matched nothing.
func celHint(c *celPolicy) string {
	return "it selects " + strings.Join(c.p.Selects(), "; ")
}

// celError is a MutatingPolicy failing on a resource, at a field of it
// (the results name the policy and the resource).
type celError struct {
	Field string
	Err   error
}

func (e *celError) Error() string { return e.Err.Error() }
func (e *celError) Unwrap() error { return e.Err }

// PolicyField is the failing field in the policy, for results.
func (e *celError) PolicyField() string { return e.Field }
