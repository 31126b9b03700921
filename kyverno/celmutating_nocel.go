// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build nocel

package kyverno

import (
	"errors"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

// errNoCEL is what a build without CEL says of a MutatingPolicy. The
// function built so (bin/apply-overrides) hands every input that holds
// one to apply-overrides-cel before it decodes anything (fn's hand-over),
// so this is seen only by a caller that links this package built with
// -tags nocel and gives it a MutatingPolicy itself.
var errNoCEL = errors.New("this build of apply-overrides has no CEL engine (built with -tags nocel): run apply-overrides-cel, which evaluates MutatingPolicies, or a build without that tag")

// celPolicy is a MutatingPolicy; a build without CEL compiles none.
type celPolicy struct{}

// decodeCEL refuses the policy: this build cannot evaluate it.
func decodeCEL(_ *yaml.RNode, ref policy.Ref) (*celPolicy, []error) {
	return nil, []error{&policy.Error{Policy: ref, Field: "spec", Err: errNoCEL}}
}

// readCELNamespaces is never reached without a compiled MutatingPolicy.
func readCELNamespaces([]*yaml.RNode) (celNamespaces, []error) {
	return nil, []error{errNoCEL}
}

// rule is never reached: decodeCEL compiles no policy.
func (*celPolicy) rule(celNamespaces) *policy.Rule {
	return &policy.Rule{Field: celRuleField}
}

// celHint is never reached: decodeCEL compiles no policy.
func celHint(*celPolicy) string { return "" }
