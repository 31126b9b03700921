// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyverno

import (
	"reflect"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

// A member cluster admits a resource through Kyverno's mutating webhooks,
// which kube-apiserver calls after its MutatingAdmissionPolicies. Kyverno
// v1.19.1 registers the webhooks that serve kyverno.io policies
// (mutate.kyverno.svc-fail, -ignore and the fine-grained ones) with
// reinvocationPolicy IfNeeded, and those that serve its CEL
// MutatingPolicies (mpol.validate.kyverno.svc-*, built from validating
// webhooks) without one, so Never (pkg/controllers/webhook/controller.go
// buildResourceMutatingWebhookRules, buildForJSONPoliciesMutation). The
// render keeps `kyverno apply`'s order inside Kyverno and counts Kyverno's
// calls as one webhook call per pass: the mpol webhooks sort before
// mutate.kyverno.svc, so nothing of Kyverno's first pass comes after its
// IfNeeded webhook.
//
// Kyverno's handler does not tell a reinvoked request from a first one
// (pkg/webhooks/resource/handlers.go Mutate, mutation/mutation.go
// applyMutations): every mutate rule that matches runs again on the object
// as it now is, so a JSON patch that appends to a list appends once more.

// webhookPlugin keys Kyverno's state in a resource's Reinvocation, as the
// API server keys its webhook plugin's.
const webhookPlugin = "MutatingAdmissionWebhook"

// webhookContext is what the webhook plugin keeps about Kyverno's
// IfNeeded webhook between the chain's passes (k8s.io/apiserver
// plugin/webhook/mutating/reinvocationcontext.go webhookReinvokeContext).
type webhookContext struct {
	// lastOutput is the object as the plugin's first pass left it.
	lastOutput map[string]any
	// invoked is set when the webhook ran in the first pass; reinvoke when
	// the object changed after it ran.
	invoked, reinvoke bool
}

// webhookCall adds to the first pass's rules the bookkeeping of the
// webhook plugin: when the call changed the object the chain is admitted
// again, and Kyverno's IfNeeded webhook, if it ran, is due again once a
// later change follows (plugin/webhook/mutating/dispatcher.go Dispatch).
// Only a resource whose chain keeps a Reinvocation (one with
// MutatingAdmissionPolicies before Kyverno) needs it: otherwise nothing
// before or after Kyverno can change the object between its passes.
func (s *Set) webhookCall(res *policy.Resource, rules []*policy.Rule) ([]*policy.Rule, error) {
	rc := res.ReinvocationIfAny()
	if rc == nil || len(rules) == 0 {
		return rules, nil
	}
	before, err := jsonView(res.Node)
	if err != nil {
		return nil, err
	}
	end := webhookEnd{rc: rc, before: before, invoked: s.mutates()}
	return append(rules, &policy.Rule{Policy: rules[0].Policy, Field: "reinvocation", Internal: true,
		Steps: []policy.Step{{Field: "reinvocation", Filter: end}}}), nil
}

// mutates reports whether a kyverno.io policy of the Set has mutate rules,
// so that Kyverno's IfNeeded webhook is called for the resource.
func (s *Set) mutates() bool {
	for _, p := range s.policies {
		if len(p.rules) > 0 {
			return true
		}
	}
	return false
}

// webhookEnd records what Kyverno's first-pass call did.
type webhookEnd struct {
	rc      *policy.Reinvocation
	before  map[string]any
	invoked bool
}

func (e webhookEnd) Filter(n *yaml.RNode) (*yaml.RNode, error) {
	_, _, err := e.FilterCount(n)
	return n, err
}

// FilterCount implements policy.CountingFilter: the step changes nothing.
func (e webhookEnd) FilterCount(n *yaml.RNode) (int, bool, error) {
	after, err := jsonView(n)
	if err != nil {
		return 0, false, err
	}
	if !reflect.DeepEqual(e.before, after) {
		e.rc.SetShouldReinvoke()
	}
	e.rc.SetValue(webhookPlugin, &webhookContext{lastOutput: after, invoked: e.invoked})
	return 0, false, nil
}

// Reinvocation is Kyverno's part of the admission chain's second pass
// (Binding.Reinvoke).
type Reinvocation struct{ set *Set }

// Rules runs Kyverno's kyverno.io policies again when the chain is
// admitted a second time and the object changed after Kyverno's first
// call (the MutatingAdmissionPolicies reinvoked before it changed it); the
// rules are named "(reinvoked)". Its CEL MutatingPolicies are served by
// webhooks that are never reinvoked.
func (r Reinvocation) Rules(res *policy.Resource) ([]*policy.Rule, error) {
	rc := res.SecondPass()
	if rc == nil {
		return nil, nil
	}
	wc, _ := rc.Value(webhookPlugin).(*webhookContext)
	if wc == nil || !wc.invoked {
		return nil, nil
	}
	now, err := jsonView(res.Node)
	if err != nil {
		return nil, err
	}
	if !reflect.DeepEqual(wc.lastOutput, now) {
		wc.reinvoke = true
	}
	if !wc.reinvoke {
		return nil, nil
	}
	rules := make([]*policy.Rule, 0, len(r.set.policies))
	share := &viewShare{}
	for _, p := range r.set.policies {
		rules = append(rules, &policy.Rule{Policy: &p.ref, Field: reinvokedRules, Steps: []policy.Step{{
			Field:  reinvokedRules,
			Filter: policyFilter{p: p, ns: r.set.namespaces, share: share},
		}}})
	}
	return rules, nil
}

// reinvokedRules names a policy's rules run in the second pass.
const reinvokedRules = "spec.rules (reinvoked)"
