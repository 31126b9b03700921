// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyverno

import (
	"slices"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/decode"
	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
)

// kyverno.io/v2beta1 ClusterPolicy and Policy: `kyverno apply` (v1.19.1,
// cmd/cli/kubectl-kyverno/policy/load.go) checks them against the
// v2beta1 schema of its CRDs, then converts them to the v1 types, which it
// validates and applies exactly as a v1 policy. The two schemas differ
// only where v2beta1 dropped v1's deprecated forms, so a v2beta1 policy is
// decoded as a v1 one after v2beta1Check has rejected those forms.

// v2beta1MatchFields are the only fields of a v2beta1 match or exclude
// block: the inline resources, subjects, roles and clusterRoles of v1 are
// gone.
var v2beta1MatchFields = []string{"any", "all"}

// v2beta1VerifyImagesRemoved are the v1 verifyImages fields the v2beta1
// schema no longer has (v1 deprecated them for attestors).
var v2beta1VerifyImagesRemoved = []string{"additionalExtensions", "annotations", "cosignOCI11", "image", "issuer", "key", "roots", "subject"}

// v2beta1Operators are the condition operators of the v2beta1 schema, in
// its order: v1's deprecated In and NotIn are gone.
var v2beta1Operators = []string{
	"Equals", "NotEquals", "AnyIn", "AllIn", "AnyNotIn", "AllNotIn",
	"GreaterThanOrEquals", "GreaterThan", "LessThanOrEquals", "LessThan",
	"DurationGreaterThanOrEquals", "DurationGreaterThan", "DurationLessThanOrEquals", "DurationLessThan",
}

// anyAllConditionsV2beta1 is the v2beta1 schema of preconditions and of
// validate.deny.conditions (v1 leaves both schemaless): an object of any
// and all lists, never v1's plain list.
type anyAllConditionsV2beta1 struct {
	Any []conditionV2beta1 `yaml:"any"`
	All []conditionV2beta1 `yaml:"all"`
}

// conditionV2beta1 is one v2beta1 condition.
type conditionV2beta1 struct {
	Key      any    `yaml:"key"`
	Operator string `yaml:"operator"`
	Value    any    `yaml:"value"`
	Message  string `yaml:"message"`
}

// v2beta1Check reports the first field of a v2beta1 policy that the v2beta1
// schema rejects and the v1 schema admits. It runs after the v1 decode, so
// spec.rules is a list of mappings.
func v2beta1Check(obj *yaml.RNode) *invalid {
	rules := yamlnode.MapGet(yamlnode.MapGet(obj.YNode(), "spec"), "rules")
	if rules == nil || rules.Kind != yaml.SequenceNode {
		return nil
	}
	for i, rule := range rules.Content {
		path := field.NewPath("spec", "rules").Index(i)
		for _, block := range []string{"match", "exclude"} {
			if err := onlyFields(yamlnode.MapGet(rule, block), path.Child(block), v2beta1MatchFields); err != nil {
				return err
			}
		}
		if err := checkConditionsV2beta1(yamlnode.MapGet(rule, "preconditions"), path.Child("preconditions")); err != nil {
			return err
		}
		if validate := yamlnode.MapGet(rule, "validate"); validate != nil {
			if yamlnode.MapGet(validate, "allowExistingViolations") != nil {
				return unknownField(path.Child("validate", "allowExistingViolations"))
			}
			if deny := yamlnode.MapGet(validate, "deny"); deny != nil {
				if err := checkConditionsV2beta1(yamlnode.MapGet(deny, "conditions"), path.Child("validate", "deny", "conditions")); err != nil {
					return err
				}
			}
		}
		if vi := yamlnode.MapGet(rule, "verifyImages"); vi != nil && vi.Kind == yaml.SequenceNode {
			for j, item := range vi.Content {
				for _, removed := range v2beta1VerifyImagesRemoved {
					if yamlnode.MapGet(item, removed) != nil {
						return unknownField(path.Child("verifyImages").Index(j).Child(removed))
					}
				}
			}
		}
	}
	return nil
}

// checkConditionsV2beta1 decodes a v2beta1 conditions block strictly and
// checks its operators against the schema's enum.
func checkConditionsV2beta1(n *yaml.Node, path *field.Path) *invalid {
	if n == nil {
		return nil
	}
	var c anyAllConditionsV2beta1
	if errs := decode.Decode(n, path, &c); len(errs) > 0 {
		return &invalid{field: errs[0].Field, err: errs[0]}
	}
	for _, l := range []struct {
		key   string
		conds []conditionV2beta1
	}{{"any", c.Any}, {"all", c.All}} {
		for j, cond := range l.conds {
			if cond.Operator != "" && !slices.Contains(v2beta1Operators, cond.Operator) {
				err := field.NotSupported(path.Child(l.key).Index(j).Child("operator"), cond.Operator, v2beta1Operators)
				return &invalid{field: err.Field, err: err}
			}
		}
	}
	return nil
}

// onlyFields rejects the keys of mapping m outside allowed.
func onlyFields(m *yaml.Node, path *field.Path, allowed []string) *invalid {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if key := m.Content[i].Value; !slices.Contains(allowed, key) {
			return unknownField(path.Child(key))
		}
	}
	return nil
}

// unknownField is the decoder's error for a field the schema lacks.
func unknownField(path *field.Path) *invalid {
	err := field.Forbidden(path, "unknown field")
	return &invalid{field: err.Field, err: err}
}
