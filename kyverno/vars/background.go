// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package vars

import (
	"encoding/json"
	"fmt"
	"regexp"
)

// forbiddenUserVariables are the user-info variables background mode
// rejects (pkg/validation/policy/background.go).
var forbiddenUserVariables = []*regexp.Regexp{
	regexp.MustCompile(`[^\.](serviceAccountName)\b`),
	regexp.MustCompile(`[^\.](serviceAccountNamespace)\b`),
	regexp.MustCompile(`[^\.](request.userInfo)\b`),
	regexp.MustCompile(`[^\.](request.roles)\b`),
	regexp.MustCompile(`[^\.](request.clusterRoles)\b`),
}

func backgroundError(err error) error {
	return fmt.Errorf("only select variables are allowed in background mode. Set spec.background=false to disable background mode for this policy rule: %s ", err)
}

// userVariables is containsUserVariables: user info in match/exclude of an
// expanded rule, then (unless a rule is mutateExisting) a user-info
// variable anywhere in doc's JSON text.
func userVariables(doc any, original, expanded []any) error {
	for i, r := range expanded {
		if err := userMatchExclude(i, r); err != nil {
			return err
		}
	}
	for _, r := range original {
		if _, ok := field(r, "mutate", "targets").([]any); ok {
			return nil
		}
	}
	text, err := json.Marshal(doc)
	if err != nil {
		return fmt.Errorf("failed to serialize the policy: %v", err)
	}
	for _, m := range reVariable.FindAllStringSubmatch(string(text), -1) {
		for _, re := range forbiddenUserVariables {
			if re.MatchString(m[2]) {
				return fmt.Errorf("variable %s is not allowed", m[2])
			}
		}
	}
	return nil
}

// place is a value and where it sits in the policy.
type place struct {
	path string
	val  any
}

func userMatchExclude(i int, rule any) error {
	places := []place{{fmt.Sprintf("spec/rules[%d]/match", i), field(rule, "match")}}
	places = append(places, indexed(fmt.Sprintf("spec/rules[%d]/match/any", i), field(rule, "match", "any"))...)
	places = append(places, indexed(fmt.Sprintf("spec/rules[%d]/match/all", i), field(rule, "match", "all"))...)
	if ex := field(rule, "exclude"); ex != nil {
		places = append(places, place{fmt.Sprintf("spec/rules[%d]/exclude", i), ex})
		places = append(places, indexed(fmt.Sprintf("spec/rules[%d]/exclude/all", i), field(rule, "exclude", "all"))...)
		places = append(places, indexed(fmt.Sprintf("spec/rules[%d]/exclude/any", i), field(rule, "exclude", "any"))...)
	}
	for _, p := range places {
		for _, k := range []string{"roles", "clusterRoles", "subjects"} {
			if l, _ := field(p.val, k).([]any); len(l) > 0 {
				return fmt.Errorf("invalid variable used at path: %s/%s", p.path, k)
			}
		}
	}
	return nil
}

func indexed(prefix string, list any) []place {
	l, _ := list.([]any)
	out := make([]place, len(l))
	for i, e := range l {
		out[i].path, out[i].val = fmt.Sprintf("%s[%d]", prefix, i), e
	}
	return out
}

// cleanPolicy drops what upstream blanks before scanning the policy text.
func cleanPolicy(policy any) any {
	m, ok := policy.(map[string]any)
	if !ok {
		return policy
	}
	m = copyMap(m)
	if ann, ok := field(m, "metadata", "annotations").(map[string]any); ok {
		ann["kubectl.kubernetes.io/last-applied-configuration"] = ""
	}
	if status, ok := m["status"].(map[string]any); ok {
		if autogen, ok := status["autogen"].(map[string]any); ok {
			delete(autogen, "rules")
		}
	}
	return m
}
