// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyverno

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	evanphx "github.com/evanphx/json-patch/v5"

	"github.com/apply-overrides/apply-overrides/kyverno/conditions"
	"github.com/apply-overrides/apply-overrides/kyverno/jsonpatch"
	"github.com/apply-overrides/apply-overrides/kyverno/smp"
	"github.com/apply-overrides/apply-overrides/kyverno/vars"
)

// invalid is a policy problem at a field of the policy.
type invalid struct {
	field string
	err   error
}

func (e *invalid) Error() string { return e.err.Error() }
func (e *invalid) Unwrap() error { return e.err }

func invalidf(path, format string, args ...any) *invalid {
	return &invalid{field: path, err: fmt.Errorf(format, args...)}
}

// validateSpec runs the checks upstream makes before autogen: the policy
// object as written.
func validateSpec(p *Policy) *invalid {
	if p.Metadata.Annotations[AnnotationAutogenControllers] == "all" {
		return invalidf("metadata.annotations", "Autogen annotation does not support 'all' anymore, remove the annotation or set it to a valid value")
	}
	if w := p.Spec.WebhookConfiguration; w != nil && w.MatchConditions != nil {
		return invalidf("spec.webhookConfiguration.matchConditions", "CEL match conditions are not supported: an offline render has no CEL admission environment to evaluate them in")
	}
	if len(p.Metadata.Name) > 63 {
		return invalidf("metadata.name", "name: Too long: may not be more than 63 bytes")
	}
	names := map[string]bool{}
	for i, r := range p.Spec.Rules {
		path := fmt.Sprintf("spec.rules[%d]", i)
		if names[r.Name] {
			return invalidf(path+".name", "Duplicate rule name: '%s'", r.Name)
		}
		names[r.Name] = true
		if len(r.Name) > 63 {
			return invalidf(path+".name", "may not be more than 63 bytes")
		}
		if err := validateRuleType(path, &r); err != nil {
			return err
		}
		if r.matchesEmptySet() {
			return invalidf(path, "Rule is matching an empty set")
		}
		if err := validateMutateExisting(path, &p.Spec, &r); err != nil {
			return err
		}
	}
	if p.Spec.Admission != nil && !*p.Spec.Admission {
		if !p.Spec.background() {
			return invalidf("spec", "disabling both admission and background processing is not allowed")
		}
		if slices.ContainsFunc(p.Spec.Rules, func(r Rule) bool { return r.Mutate != nil || r.Generate != nil || r.VerifyImages != nil }) {
			return invalidf("spec.admission", "disabling admission processing is only allowed with validation policies")
		}
	}
	return nil
}

func validateRuleType(path string, r *Rule) *invalid {
	count := 0
	for _, has := range []bool{r.Mutate != nil, r.Validate != nil, r.Generate != nil, r.VerifyImages != nil} {
		if has {
			count++
		}
	}
	switch {
	case count == 0:
		return invalidf(path, "No operation defined in the rule '%s'.(supported operations: mutate,validate,generate,verifyImages)", r.Name)
	case count > 1:
		return invalidf(path, "Multiple operations defined in the rule '%s', only one operation (mutate,validate,generate,verifyImages) is allowed per rule", r.Name)
	}
	return nil
}

// validateMutateExisting rejects mutate-existing rules: they mutate other
// objects in a running cluster.
func validateMutateExisting(path string, s *Spec, r *Rule) *invalid {
	m := r.Mutate
	if m == nil {
		return nil
	}
	if m.Targets != nil {
		return invalidf(path+".mutate.targets", "mutate targets (mutate-existing rules) are not supported: they change other objects already in a cluster, which an offline render does not have")
	}
	if s.MutateExistingOnPolicyUpdate || (m.MutateExistingOnPolicyUpdate != nil && *m.MutateExistingOnPolicyUpdate) {
		return invalidf(path+".mutate.mutateExistingOnPolicyUpdate", "mutateExistingOnPolicyUpdate is not supported: it mutates objects already in a cluster, which an offline render does not have")
	}
	return nil
}

// validateRules runs the checks upstream makes on the autogen-expanded
// rules, then the offline render's own rejections.
func validateRules(p *Policy, rules []Rule) *invalid {
	background := p.Spec.background()
	policyDoc, err := toJSONValue(p)
	if err != nil {
		return &invalid{field: "spec", err: err}
	}
	docs := make([]any, len(rules))
	for i := range rules {
		if docs[i], err = toJSONValue(&rules[i]); err != nil {
			return &invalid{field: fmt.Sprintf("spec.rules[%d]", i), err: err}
		}
	}
	if err := vars.ValidatePolicyVariables(policyDoc, docs, background); err != nil {
		return &invalid{field: "spec.rules", err: err}
	}
	for i := range rules {
		r, doc := &rules[i], docs[i]
		path := fmt.Sprintf("spec.rules[%d]", i)
		if err := vars.ValidateElementInForEach(doc); err != nil {
			return &invalid{field: path, err: err}
		}
		for _, check := range []func(string, *Policy, *Rule, bool) *invalid{
			validateFilters, validateKinds, validateJSONPatch, validatePreconditions, validateContext, validateMutation, validateLabelValues,
		} {
			if err := check(path, p, r, background); err != nil {
				return err
			}
		}
		if r.Mutate == nil {
			continue // not applied, so nothing it needs from a cluster matters
		}
		if err := rejectOffline(path, r, doc); err != nil {
			return err
		}
	}
	return nil
}

// validateFilters checks each match/exclude filter: name and names, the
// namespaced Policy's namespaces, user info (not available offline), and
// the mandatory kinds of match filters.
func validateFilters(path string, p *Policy, r *Rule, _ bool) *invalid {
	blocks := []struct {
		name string
		m    *MatchResources
	}{{"match", &r.Match}}
	if r.Exclude != nil {
		blocks = append(blocks, struct {
			name string
			m    *MatchResources
		}{"exclude", r.Exclude})
	}
	for _, b := range blocks {
		if (len(b.m.Any) > 0 || len(b.m.All) > 0) && !b.m.Resources.empty() {
			return invalidf(path+"."+b.name, "can't specify any/all together with %s resources", b.name)
		}
		for _, f := range filtersOf(path+"."+b.name, b.m) {
			d := &f.filter.Resources
			if d.Name != "" && len(d.Names) > 0 {
				return invalidf(f.path+".resources", "Both name and names can not be specified together")
			}
			if d.Selector != nil && !selectorHasWildcard(d.Selector) {
				sel, err := d.Selector.selector()
				if err != nil {
					return invalidf(f.path+".resources.selector", "%v", err)
				}
				if reqs, _ := sel.Requirements(); len(reqs) == 0 {
					return invalidf(f.path+".resources.selector", "The requirements are not specified in selector")
				}
			}
			if p.Kind == KindPolicy && len(d.Namespaces) > 0 {
				return invalidf(f.path+".resources.namespaces", "Filtering namespaces not allowed in namespaced policies")
			}
			if f.filter.hasUserInfo() && r.Mutate != nil {
				return invalidf(f.path, "user info criteria (subjects, roles, clusterRoles) are not supported: they need the admission request's user, which an offline render does not have")
			}
			if b.name == "match" && len(d.Kinds) == 0 {
				if !onlyMetadata(r) {
					return invalidf(f.path+".resources.kinds", "policy can only deal with the metadata field of the resource if the rule does not match any kind")
				}
				return invalidf(f.path+".resources.kinds", "at least one element must be specified in a kind block, the kind attribute is mandatory when working with the resources element")
			}
		}
	}
	return nil
}

// validateKinds is upstream's wildcard check on every kinds list.
func validateKinds(path string, _ *Policy, r *Rule, background bool) *invalid {
	blocks := []*MatchResources{&r.Match}
	names := []string{"match"}
	if r.Exclude != nil {
		blocks, names = append(blocks, r.Exclude), append(names, "exclude")
	}
	for i, b := range blocks {
		for _, f := range filtersOf(names[i], b) {
			kinds := f.filter.Resources.Kinds
			if !slices.Contains(kinds, "*") {
				continue
			}
			p := "path: " + path + "." + f.path + ".kinds: "
			switch {
			case background:
				return invalidf(path+"."+f.path+".resources.kinds", "%swildcard policy not allowed in background mode. Set spec.background=false to disable background mode for this policy rule ", p)
			case len(kinds) > 1:
				return invalidf(path+"."+f.path+".resources.kinds", "%swildcard policy can not deal with more than one kind", p)
			case !onlyMetadata(r):
				return invalidf(path+"."+f.path+".resources.kinds", "%spolicy can only deal with the metadata field of the resource if the rule does not match any kind", p)
			}
		}
	}
	return nil
}

// onlyMetadata is upstream's ruleOnlyDealsWithResourceMetaData for mutate
// rules: a strategic merge patch touching only metadata, or JSON patches on
// /metadata paths only.
func onlyMetadata(r *Rule) bool {
	m := r.Mutate
	if m == nil {
		return true
	}
	if psm, ok := m.PatchStrategicMerge.(map[string]any); ok {
		for k := range psm {
			if k != "metadata" {
				return false
			}
		}
	}
	if m.PatchesJSON6902 != "" {
		// Upstream decodes the raw string as JSON: a YAML patch decodes to
		// nothing and so counts as touching metadata only.
		ops, _ := evanphx.DecodePatch([]byte(m.PatchesJSON6902))
		for _, o := range ops {
			if p, _ := o.Path(); !strings.HasPrefix(p, "/metadata") {
				return false
			}
		}
	}
	return true
}

// validateJSONPatch checks a top-level patchesJson6902 (foreach patches are
// not checked upstream): variables in paths, leading slashes, operations.
func validateJSONPatch(path string, _ *Policy, r *Rule, _ bool) *invalid {
	if r.Mutate == nil || r.Mutate.PatchesJSON6902 == "" {
		return nil
	}
	field := path + ".mutate.patchesJson6902"
	paths, err := jsonpatch.Paths(r.Mutate.PatchesJSON6902)
	if err == nil {
		for _, p := range paths {
			if len(vars.Variables(p)) > 0 {
				return invalidf(field, "rule %q should not have variables in patchesJSON6902 path section", r.Name)
			}
		}
	}
	if err := jsonpatch.Validate(r.Mutate.PatchesJSON6902); err != nil {
		err = jsonpatch.Explain(err)
		var ve *jsonpatch.ValidationError
		if errors.As(err, &ve) {
			return &invalid{field: field, err: errors.New(ve.Message(path))}
		}
		return &invalid{field: field, err: err}
	}
	return nil
}

func validatePreconditions(path string, _ *Policy, r *Rule, _ bool) *invalid {
	if r.Preconditions == nil {
		return nil
	}
	if err := conditions.Validate(r.Preconditions, "validate.preconditions"); err != nil {
		return invalidf(path+".preconditions", "path: %s.%v", path, err) // sic: upstream says validate for every rule
	}
	return nil
}

// reservedContextNames are variables a context entry may not shadow.
var reservedContextNames = []string{"images", "request", "serviceAccountName", "serviceAccountNamespace", "element", "elementIndex"}

// validateContext checks context entries and rejects the kinds that need a
// cluster or a registry.
func validateContext(path string, _ *Policy, r *Rule, _ bool) *invalid {
	check := func(base string, entries []ContextEntry) *invalid {
		for j, e := range entries {
			p := fmt.Sprintf("%s.context[%d]", base, j)
			if e.Name == "" {
				return invalidf(p+".name", "path: %s: a name is required for context entries", path)
			}
			for _, v := range reservedContextNames {
				if e.Name == v || strings.HasPrefix(e.Name, v+".") {
					return invalidf(p+".name", "path: %s: entry name %s is invalid as it conflicts with a pre-defined variable %s", path, e.Name, v)
				}
			}
			sources := 0
			for _, kind := range []struct {
				name string
				set  bool
			}{{"configMap", e.ConfigMap != nil}, {"apiCall", e.APICall != nil}, {"imageRegistry", e.ImageRegistry != nil}, {"globalReference", e.GlobalReference != nil}, {"variable", e.Variable != nil}} {
				if !kind.set {
					continue
				}
				sources++
				if kind.name != "variable" && r.Mutate != nil {
					return invalidf(p+"."+kind.name, "context entry %q of type %s is not supported: it reads from a cluster or an image registry, which an offline render does not have (use a variable entry)", e.Name, kind.name)
				}
			}
			if sources != 1 {
				return invalidf(p, "path: %s: exactly one of configMap or apiCall or imageRegistry or variable is required for context entries", path)
			}
			v := e.Variable
			if v == nil {
				continue // a validate rule's cluster lookup: never run here
			}
			if v.Value == nil && v.JMESPath == "" {
				return invalidf(p+".variable", "path: %s: a variable must define a value or a jmesPath expression", path)
			}
			if v.Default != nil && v.JMESPath == "" {
				return invalidf(p+".variable", "path: %s: a variable must define a default value only when a jmesPath expression is defined", path)
			}
		}
		return nil
	}
	if err := check(path, r.Context); err != nil {
		return err
	}
	if r.Mutate != nil {
		for i, fe := range r.Mutate.ForEach {
			if err := check(fmt.Sprintf("%s.mutate.foreach[%d]", path, i), fe.Context); err != nil {
				return err
			}
		}
	}
	return nil
}

// validateMutation is upstream's mutate validation: one kind of patch per
// rule and per foreach entry, nested foreach alone.
func validateMutation(path string, _ *Policy, r *Rule, _ bool) *invalid {
	m := r.Mutate
	if m == nil {
		return nil
	}
	field := path + ".mutate"
	hasSMP, hasJP := m.PatchStrategicMerge != nil, m.PatchesJSON6902 != ""
	switch {
	case len(m.ForEach) > 0 && (hasSMP || hasJP):
		return invalidf(field, "path: %s.foreach: only one of `foreach`, `patchStrategicMerge`, or `patchesJson6902` is allowed", field)
	case hasSMP && hasJP:
		return invalidf(field, "path: %s.foreach.: only one of `patchStrategicMerge` or `patchesJson6902` is allowed", field)
	}
	for i, fe := range m.ForEach { // the CRD's enum (nested entries are schemaless)
		if fe.Order != "" && fe.Order != "Ascending" && fe.Order != "Descending" {
			return invalidf(fmt.Sprintf("%s.foreach[%d].order", field, i), "Unsupported value: %q: supported values: \"Ascending\", \"Descending\"", fe.Order)
		}
	}
	if tag, msg := foreachShape("", m.ForEach); msg != "" {
		return invalidf(field+".foreach", "path: %s.%s.: %s", field, tag, msg)
	}
	return validateForEachConditions(path, "mutate.foreach", field+".foreach", m.ForEach)
}

// foreachShape is upstream's validateForEach: each entry has exactly one
// patch, a nested foreach nothing else. As upstream, the path accumulates
// ("foreach[0]foreach[1]") and the check stops at the first nested foreach.
func foreachShape(tag string, entries []ForEachMutation) (string, string) {
	for i, fe := range entries {
		tag += fmt.Sprintf("foreach[%d]", i)
		if fe.ForEach != nil {
			nested, err := nestedForEach(fe.ForEach)
			if err != nil {
				return tag, err.Error()
			}
			if len(nested) > 0 {
				if fe.PatchStrategicMerge != nil || fe.PatchesJSON6902 != "" || fe.Context != nil || fe.Preconditions != nil {
					return tag, "a nested foreach cannot contain other declarations"
				}
				return foreachShape(tag, nested)
			}
		}
		if (fe.PatchStrategicMerge != nil) == (fe.PatchesJSON6902 != "") {
			return tag, "only one of `patchStrategicMerge` or `patchesJson6902` is allowed"
		}
	}
	return "", ""
}

// validateForEachConditions checks the preconditions of every foreach
// entry; rulePath and upstreamPath make upstream's text, which names no
// entry index ("spec.rules[0].mutate.foreach.mutate.foreach.conditions"
// when nested).
func validateForEachConditions(rulePath, upstreamPath, field string, entries []ForEachMutation) *invalid {
	for i, fe := range entries {
		p := fmt.Sprintf("%s[%d]", field, i)
		if fe.Preconditions != nil {
			if err := conditions.ValidateForEach(fe.Preconditions, upstreamPath+".conditions"); err != nil {
				return invalidf(p+".preconditions", "path: %s.%v", rulePath, err)
			}
		}
		if fe.ForEach == nil {
			continue
		}
		nested, err := nestedForEach(fe.ForEach)
		if err != nil {
			return &invalid{field: p + ".foreach", err: err}
		}
		if err := validateForEachConditions(rulePath, upstreamPath+".mutate.foreach", p+".foreach", nested); err != nil {
			return err
		}
	}
	return nil
}

// validateLabelValues is upstream's isLabelAndAnnotationsString: literal
// labels and annotations of a strategic merge patch (or of the first
// foreach entry's) must be strings. Upstream stops at whichever of
// metadata or spec its map iteration meets first; this checks both, which
// rejects every policy upstream may reject.
func validateLabelValues(path string, _ *Policy, r *Rule, _ bool) *invalid {
	m := r.Mutate
	if m == nil {
		return nil
	}
	root, _ := m.PatchStrategicMerge.(map[string]any)
	for _, fe := range m.ForEach {
		if root != nil {
			break
		}
		root, _ = fe.PatchStrategicMerge.(map[string]any)
	}
	const msg = "labels and annotations supports only string values, \"use double quotes around the non string values\""
	check := func(meta any) bool {
		mm, _ := meta.(map[string]any)
		for _, k := range []string{"labels", "annotations"} {
			if vals, ok := mm[k].(map[string]any); ok {
				for _, v := range vals {
					if _, isString := v.(string); !isString {
						return false
					}
				}
			}
		}
		return true
	}
	if !check(root["metadata"]) {
		return invalidf(path+".mutate", msg)
	}
	spec, _ := root["spec"].(map[string]any)
	tpl, _ := spec["template"].(map[string]any)
	if !check(tpl["metadata"]) {
		return invalidf(path+".mutate", msg)
	}
	return nil
}

// rejectOffline rejects what needs a live cluster or admission request.
func rejectOffline(path string, r *Rule, doc any) *invalid {
	if r.CELPreconditions != nil {
		return invalidf(path+".celPreconditions", "celPreconditions are not supported: an offline render has no CEL admission environment to evaluate them in")
	}
	if err := vars.CheckOffline(doc); err != nil {
		return &invalid{field: path, err: err}
	}
	m := r.Mutate
	if m == nil {
		return nil
	}
	if m.PatchStrategicMerge != nil {
		if err := smp.Check(m.PatchStrategicMerge); err != nil {
			return &invalid{field: path + ".mutate.patchStrategicMerge", err: err}
		}
	}
	return checkForEachPatches(path+".mutate.foreach", m.ForEach)
}

func checkForEachPatches(field string, entries []ForEachMutation) *invalid {
	for i, fe := range entries {
		p := fmt.Sprintf("%s[%d]", field, i)
		if fe.PatchStrategicMerge != nil {
			if err := smp.Check(fe.PatchStrategicMerge); err != nil {
				return &invalid{field: p + ".patchStrategicMerge", err: err}
			}
		}
		if fe.ForEach != nil {
			nested, err := nestedForEach(fe.ForEach)
			if err != nil {
				return &invalid{field: p + ".foreach", err: err}
			}
			if err := checkForEachPatches(p+".foreach", nested); err != nil {
				return err
			}
		}
	}
	return nil
}
