// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyverno

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/decode"
	"github.com/apply-overrides/apply-overrides/kyverno/conditions"
	"github.com/apply-overrides/apply-overrides/kyverno/vars"
	"github.com/apply-overrides/apply-overrides/policy"
)

// compiled is a policy ready to run: its mutate rules, autogen rules
// included, in the order Kyverno runs them.
type compiled struct {
	ref        policy.Ref
	namespaced bool
	namespace  string
	applyOne   bool
	rules      []*compiledRule
	// sources are the mutate rules of spec.rules, in order: what the
	// rules (autogen ones included) are counted as when they match.
	sources []sourceRule
	// nondeterministic lists the time- and randomness-dependent JMESPath
	// calls of the rules, for a warning.
	nondeterministic []string
	// kinds remembers mayMatchKind by group, version and kind.
	kinds struct {
		sync.RWMutex
		m map[[3]string]bool
	}
}

// compiledRule is one mutate rule with what the engine needs at hand.
type compiledRule struct {
	rule  Rule
	name  string
	field string // e.g. "spec.rules[0]" or "spec.rules (generated autogen-x)"
	// source is the field of the rule of spec.rules this one is or was
	// generated from: "spec.rules[0]".
	source string
	// doc is the rule's JSON value, substituted whole before a patch.
	doc any
	// pre is rule.Preconditions parsed (read only), or preErr.
	pre    *conditions.Conditions
	preErr error
	// mutate is doc's mutate part, and mutateOnly says that substituting
	// it alone gives what substituting doc gives: nothing else in doc
	// holds a variable or a reference (so nothing else can change or
	// fail), and mutate holds no reference (which reads the whole doc).
	mutate     any
	mutateOnly bool
	// usesNamespaceSelector, with selectorField, marks rules that need the
	// labels of the resource's namespace.
	usesNamespaceSelector bool
	selectorField         string
}

// compilePolicy decodes, validates and prepares one policy object. The
// first problem found is returned, as `kyverno apply` reports one error per
// policy.
func compilePolicy(obj *yaml.RNode, ref policy.Ref) (*compiled, *invalid) {
	var p Policy
	if errs := decode.Decode(obj.YNode(), nil, &p); len(errs) > 0 {
		return nil, &invalid{field: errs[0].Field, err: errs[0]}
	}
	if p.APIVersion == Group+"/"+VersionV2beta1 {
		if err := v2beta1Check(obj); err != nil {
			return nil, err
		}
	}
	if ref.Kind == KindClusterPolicy && p.Metadata.Namespace != "" {
		return nil, invalidf("metadata.namespace", "A clusterpolicy should not have the namespace defined")
	}
	if errs := policy.ValidateMetadata(obj, ref.Kind == KindPolicy); len(errs) > 0 {
		return nil, &invalid{field: errs[0].Field, err: errs[0]}
	}
	if err := validateSpec(&p); err != nil {
		return nil, err
	}
	rules, err := computeRules(&p)
	if err != nil {
		return nil, &invalid{field: "spec.rules", err: err}
	}
	if err := validateRules(&p, rules); err != nil {
		return nil, err
	}
	c := &compiled{ref: ref, namespaced: ref.Kind == KindPolicy, namespace: p.Metadata.Namespace, applyOne: p.Spec.ApplyRules == "One"}
	if c.namespaced && c.namespace == "" {
		c.namespace = "default"
	}
	for i, r := range rules {
		if r.Mutate == nil {
			continue // validate, generate and verifyImages rules do not mutate
		}
		cr := &compiledRule{rule: r, name: r.Name, field: ruleField(&p, i, r.Name)}
		cr.pre, cr.preErr = conditions.Parse(r.Preconditions) // reported where upstream evaluates them
		src := sourceOf(&p, cr.field, r.Name)
		cr.source = cr.field
		if src >= 0 {
			cr.source = fmt.Sprintf("spec.rules[%d]", src)
			if !slices.ContainsFunc(c.sources, func(s sourceRule) bool { return s.field == cr.source }) {
				c.sources = append(c.sources, sourceRule{field: cr.source, name: p.Spec.Rules[src].Name, rule: p.Spec.Rules[src]})
			}
		}
		doc, err := toJSONValue(r)
		if err != nil {
			return nil, &invalid{field: cr.field, err: err}
		}
		cr.doc = doc
		cr.mutate, cr.mutateOnly = mutateOnly(doc)
		c.nondeterministic = append(c.nondeterministic, vars.NonDeterministic(doc)...)
		cr.selectorField = namespaceSelectorField(&r)
		cr.usesNamespaceSelector = cr.selectorField != ""
		c.rules = append(c.rules, cr)
	}
	return c, nil
}

// ruleField names rule i of the autogen-expanded list: original rules by
// index, generated ones by name.
func ruleField(p *Policy, i int, name string) string {
	if i < len(p.Spec.Rules) && p.Spec.Rules[i].Name == name {
		return fmt.Sprintf("spec.rules[%d]", i)
	}
	return fmt.Sprintf("spec.rules (generated %s)", name)
}

// sourceRule is a mutate rule of spec.rules, as the user wrote it.
type sourceRule struct {
	field, name string
	rule        Rule
}

// sourceOf is the index in spec.rules of the rule that the rule at field
// (as ruleField names it) is, or that autogen generated it from; -1 when
// none is.
func sourceOf(p *Policy, field, name string) int {
	for j := range p.Spec.Rules {
		if field == fmt.Sprintf("spec.rules[%d]", j) {
			return j
		}
	}
	for j := range p.Spec.Rules {
		src := p.Spec.Rules[j].Name
		if name == autogenName("autogen", src) || name == autogenName("autogen-cronjob", src) {
			return j
		}
	}
	return -1
}

// namespaceSelectorField returns the path of the rule's first
// namespaceSelector, or "".
func namespaceSelectorField(r *Rule) string {
	blocks := map[string]*MatchResources{"match": &r.Match}
	if r.Exclude != nil {
		blocks["exclude"] = r.Exclude
	}
	for _, name := range []string{"match", "exclude"} {
		b := blocks[name]
		if b == nil {
			continue
		}
		if b.Resources.NamespaceSelector != nil {
			return name + ".resources.namespaceSelector"
		}
		for _, l := range []struct {
			key string
			fs  []ResourceFilter
		}{{"any", b.Any}, {"all", b.All}} {
			for j, f := range l.fs {
				if f.Resources.NamespaceSelector != nil {
					return fmt.Sprintf("%s.%s[%d].resources.namespaceSelector", name, l.key, j)
				}
			}
		}
	}
	return ""
}

// toJSONValue is v's JSON value.
func toJSONValue(v any) (any, error) {
	var out any
	err := convertJSON(v, &out)
	return out, err
}

// convertJSON sets out (a pointer) from in through JSON.
func convertJSON(in, out any) error {
	b, err := json.Marshal(in)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}

// background reports spec.background (default true).
func (s *Spec) background() bool { return s.Background == nil || *s.Background }

// filterAt is a match or exclude filter with its path.
type filterAt struct {
	path   string
	filter ResourceFilter
}

// filtersOf lists a block's filters; the inline form is one filter.
func filtersOf(block string, m *MatchResources) []filterAt {
	var out []filterAt
	for j, f := range m.Any {
		out = append(out, filterAt{fmt.Sprintf("%s.any[%d]", block, j), f})
	}
	for j, f := range m.All {
		out = append(out, filterAt{fmt.Sprintf("%s.all[%d]", block, j), f})
	}
	if len(m.Any) == 0 && len(m.All) == 0 {
		out = append(out, filterAt{block, ResourceFilter{Resources: m.Resources, Subjects: m.Subjects, Roles: m.Roles, ClusterRoles: m.ClusterRoles}})
	}
	return out
}

// mutateOnly reports that a rule's JSON value has no variable or reference
// outside its mutate part and no reference inside it, and returns that part.
func mutateOnly(doc any) (any, bool) {
	m, ok := doc.(map[string]any)
	if !ok {
		return nil, false
	}
	mutate, ok := m["mutate"]
	if !ok || vars.Mentions(mutate, "$(") {
		return nil, false
	}
	for k, v := range m {
		if k != "mutate" && (vars.Mentions(k, "{{") || vars.Mentions(k, "$(") || vars.Mentions(v, "{{") || vars.Mentions(v, "$(")) {
			return nil, false
		}
	}
	return mutate, true
}
