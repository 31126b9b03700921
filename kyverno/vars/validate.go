// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package vars

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// reBraces finds variables in match/exclude (no escape handling).
var reBraces = regexp.MustCompile(`\{\{[^{}]*\}\}`)

// ValidateVariables checks one autogen-expanded rule (a JSON value) as
// kyverno apply's policy validation does (§2 items 2 and 7): with
// background, user-info variables and match/exclude user info are refused;
// then variables in match, exclude or a patchesJson6902 path are refused,
// every {{ }} must be an allowed variable or a context entry of the rule,
// and $(...) references must resolve; last, element variables must sit
// under a foreach. Messages are upstream's, with the "policy contains
// invalid variables: " wrap where upstream puts it.
//
// The rule's own context entries are read from the rule; contextNames adds
// names (normally none are needed). Match/exclude paths say spec/rules[0]:
// use ValidatePolicyVariables for the real index.
func ValidateVariables(rule any, contextNames []string, background bool) error {
	if background {
		if err := userVariables(rule, []any{rule}, []any{rule}); err != nil {
			return backgroundError(err)
		}
	}
	if err := invalidVariables(rule, contextNames, background); err != nil {
		return fmt.Errorf("policy contains invalid variables: %s", err.Error())
	}
	return ValidateElementInForEach(rule)
}

// ValidatePolicyVariables is upstream's ValidateVariables for a whole
// policy: policy is the policy as a JSON value (its text is scanned for
// user-info variables), rules its autogen-expanded rules. It does not run
// ValidateElementInForEach, which upstream runs later, per rule.
func ValidatePolicyVariables(policy any, rules []any, background bool) error {
	if background {
		m, _ := policy.(map[string]any)
		spec, _ := m["spec"].(map[string]any)
		original, _ := spec["rules"].([]any)
		if err := userVariables(cleanPolicy(policy), original, rules); err != nil {
			return backgroundError(err)
		}
	}
	for _, r := range rules {
		if err := invalidVariables(r, nil, background); err != nil {
			return fmt.Errorf("policy contains invalid variables: %s", err.Error())
		}
	}
	return nil
}

// invalidVariables is hasInvalidVariables for one rule.
func invalidVariables(rule any, contextNames []string, background bool) error {
	name, _ := field(rule, "name").(string)
	if p, ok := field(rule, "mutate", "patchesJson6902").(string); ok && jsonPatchPathHasVariables(p) {
		return fmt.Errorf("rule \"%s\" should not have variables in patchesJSON6902 path section", name)
	}
	if ex := field(rule, "exclude"); ex != nil && hasBraces(ex) {
		return fmt.Errorf("rule \"%s\" should not have variables in exclude section", name)
	}
	if hasBraces(field(rule, "match")) {
		return fmt.Errorf("rule \"%s\" should not have variables in match section", name)
	}
	_, targets := field(rule, "mutate", "targets").([]any)
	mock := &mockContext{re: allowedRegex(background, targets), patterns: contextPatterns(rule, contextNames)}
	if _, err := substitute(mock, rule); err != nil {
		return fmt.Errorf("variable substitution failed for rule %s: %s", name, err.Error())
	}
	return nil
}

func allowedRegex(background, target bool) *regexp.Regexp {
	switch {
	case target && background:
		return allowedVariablesBackgroundInTarget
	case target:
		return allowedVariablesInTarget
	case background:
		return allowedVariablesBackground
	}
	return allowedVariables
}

func hasBraces(v any) bool {
	text, err := json.Marshal(v)
	return err == nil && reBraces.Match(text)
}

// jsonPatchPathHasVariables tells whether an operation path of the patch
// holds a variable; a patch that does not decode is left to later checks.
func jsonPatchPathHasVariables(patch string) bool {
	data, err := utilyaml.ToJSON([]byte(patch))
	if err != nil {
		return false
	}
	ops, err := jsonpatch.DecodePatch(data)
	if err != nil {
		return false
	}
	for _, op := range ops {
		p, err := op.Path()
		if err != nil {
			return false
		}
		if reVariable.MatchString(p) {
			return true
		}
	}
	return false
}

// contextPatterns lists the wildcard patterns of the rule's context
// entries (addContextVariables): name* for variable, apiCall,
// globalReference and imageRegistry entries, name.data, name.metadata and
// their .* for configMap entries; rule, validate/mutate/generate foreach
// (first level) and mutate targets.
func contextPatterns(rule any, extra []string) []string {
	var out []string
	var lists []any
	lists = append(lists, field(rule, "context"))
	for _, path := range [][]string{{"validate", "foreach"}, {"mutate", "foreach"}, {"mutate", "targets"}, {"generate", "foreach"}} {
		l, _ := field(rule, path...).([]any)
		for _, fe := range l {
			lists = append(lists, field(fe, "context"))
		}
	}
	for _, l := range lists {
		entries, _ := l.([]any)
		for _, e := range entries {
			n, _ := field(e, "name").(string)
			for _, kind := range []string{"apiCall", "globalReference", "imageRegistry", "variable"} {
				if field(e, kind) != nil {
					out = append(out, n+"*")
					break
				}
			}
			if field(e, "configMap") != nil {
				out = append(out, n+".data", n+".metadata", n+".data.*", n+".metadata.*")
			}
		}
	}
	for _, n := range extra {
		if !slices.Contains(out, n+"*") && !slices.Contains(out, n+".data") {
			out = append(out, n+"*")
		}
	}
	return out
}

// ValidateElementInForEach refuses element, element<N> and elementIndex
// variables outside a foreach (validateElementInForEach, §2 item 7):
// `variable 'element.name' present outside of foreach at path /mutate/...`.
func ValidateElementInForEach(rule any) error {
	_, err := walk(rule, "", func(elem any, at string) (any, error) {
		s, ok := elem.(string)
		if !ok {
			return elem, nil
		}
		for _, v := range reVariable.FindAllString(s, -1) {
			if !reVariableStart.MatchString(v) {
				v = v[1:]
			}
			variable, _ := variableText(v)
			if (strings.HasPrefix(variable, "element") || variable == "elementIndex") && !strings.Contains(at, "/foreach/") {
				return nil, fmt.Errorf("variable '%v' present outside of foreach at path %s", variable, at)
			}
		}
		return elem, nil
	})
	return err
}

// field reads a nested map field; nil when absent.
func field(v any, path ...string) any {
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}
