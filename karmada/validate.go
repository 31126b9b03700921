// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/kustomize/kyaml/yaml"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/policy"
)

// Enums of the CRD schema (kubebuilder markers in override_types.go).
var (
	imageComponents       = []string{"Registry", "Repository", "Tag"}
	operators             = []string{"add", "remove", "replace"}
	commandArgsOperators  = []string{"add", "remove"}
	fieldSelectorKeys     = []string{"provider", "region", "zone"}
	fieldSelectorOperator = []string{"In", "NotIn"}
)

// validateSchema checks what the CRD's OpenAPI schema enforces beyond types
// and required fields: the enums.
func validateSchema(o *overriderSet, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	enum := func(path *field.Path, v string, allowed []string) {
		errs = append(errs, policy.Enum(path, v, allowed)...)
	}
	for i, io := range o.ImageOverrider {
		enum(p.Child("imageOverrider").Index(i).Child("component"), io.Component, imageComponents)
		enum(p.Child("imageOverrider").Index(i).Child("operator"), io.Operator, operators)
	}
	for i, c := range o.CommandOverrider {
		enum(p.Child("commandOverrider").Index(i).Child("operator"), c.Operator, commandArgsOperators)
	}
	for i, c := range o.ArgsOverrider {
		enum(p.Child("argsOverrider").Index(i).Child("operator"), c.Operator, commandArgsOperators)
	}
	for i, l := range o.LabelsOverrider {
		enum(p.Child("labelsOverrider").Index(i).Child("operator"), l.Operator, operators)
	}
	for i, l := range o.AnnotationsOverrider {
		enum(p.Child("annotationsOverrider").Index(i).Child("operator"), l.Operator, operators)
	}
	for i, pt := range o.Plaintext {
		enum(p.Child("plaintext").Index(i).Child("operator"), pt.Operator, operators)
	}
	for i, f := range o.FieldOverrider {
		fp := p.Child("fieldOverrider").Index(i)
		for j, op := range f.JSON {
			enum(fp.Child("json").Index(j).Child("operator"), op.Operator, operators)
		}
		for j, op := range f.YAML {
			enum(fp.Child("yaml").Index(j).Child("operator"), op.Operator, operators)
		}
	}
	return errs
}

// validateWebhook mirrors pkg/util/validation.ValidateOverrideSpec, run after
// the OverridePolicy mutating webhook defaulted empty selector namespaces to
// the policy's namespace (policyNamespace is "" for ClusterOverridePolicy).
func validateWebhook(s *overrideSpec, policyNamespace string) field.ErrorList {
	var errs field.ErrorList
	spec := field.NewPath("spec")
	if s.TargetCluster != nil {
		errs = append(errs, validateAffinity(s.TargetCluster, spec.Child("targetCluster"))...)
	}
	if s.TargetCluster != nil && s.OverrideRules != nil {
		errs = append(errs, field.Invalid(spec.Child("targetCluster"), asJSON(s.TargetCluster), "overrideRules and targetCluster can't co-exist"))
	}
	if !emptyOverriders(&s.Overriders) && s.OverrideRules != nil {
		errs = append(errs, field.Invalid(spec.Child("overriders"), asJSON(s.Overriders), "overrideRules and overriders can't co-exist"))
	}
	for i := range s.OverrideRules {
		rule := &s.OverrideRules[i]
		rp := spec.Child("overrideRules").Index(i)
		op := rp.Child("overriders")
		for j, a := range rule.Overriders.AnnotationsOverrider {
			m, _ := stringMap(a.Value, nil)
			errs = append(errs, sorted(apivalidation.ValidateAnnotations(m, op.Child("annotationsOverrider").Index(j).Child("value")))...)
		}
		for j, l := range rule.Overriders.LabelsOverrider {
			m, _ := stringMap(l.Value, nil)
			errs = append(errs, sorted(metav1validation.ValidateLabels(m, op.Child("labelsOverrider").Index(j).Child("value")))...)
		}
		for j, io := range rule.Overriders.ImageOverrider {
			if io.Predicate != nil {
				errs = append(errs, validatePointer(io.Predicate.Path, op.Child("imageOverrider").Index(j).Child("predicate", "path"))...)
			}
		}
		for j := range rule.Overriders.FieldOverrider {
			f := &rule.Overriders.FieldOverrider[j]
			fp := op.Child("fieldOverrider").Index(j)
			if len(f.YAML) > 0 && len(f.JSON) > 0 {
				errs = append(errs, field.Invalid(fp, asJSON(f), "FieldOverrider has both YAML and JSON set. Only one is allowed"))
			}
			if len(f.YAML) == 0 && len(f.JSON) == 0 {
				errs = append(errs, field.Required(fp, "FieldOverrider must have either JSON or YAML set"))
			}
			errs = append(errs, validatePointer(f.FieldPath, fp.Child("fieldPath"))...)
			errs = append(errs, validatePatchOps(f.JSON, fp.Child("json"))...)
			errs = append(errs, validatePatchOps(f.YAML, fp.Child("yaml"))...)
		}
		if rule.TargetCluster != nil {
			errs = append(errs, validateAffinity(rule.TargetCluster, rp.Child("targetCluster"))...)
		}
	}
	if policyNamespace != "" {
		for i, rs := range s.ResourceSelectors {
			if rs.Namespace != policyNamespace {
				errs = append(errs, field.Invalid(spec.Child("resourceSelectors").Index(i).Child("namespace"), rs.Namespace,
					"namespace of resource selector must be the same as the namespace of the policy"))
			}
		}
	}
	return errs
}

// emptyOverriders mirrors Karmada's emptyOverrides, which does not look at
// fieldOverrider.
func emptyOverriders(o *overriderSet) bool {
	return len(o.Plaintext) == 0 && len(o.ImageOverrider) == 0 && len(o.CommandOverrider) == 0 &&
		len(o.ArgsOverrider) == 0 && len(o.LabelsOverrider) == 0 && len(o.AnnotationsOverrider) == 0
}

// validateAffinity mirrors ValidateClusterAffinity/ValidatePolicyFieldSelector:
// only the first bad expression is reported.
func validateAffinity(a *clusterAffinity, p *field.Path) field.ErrorList {
	if a.FieldSelector == nil {
		return nil
	}
	for _, e := range a.FieldSelector.MatchExpressions {
		msg := ""
		switch {
		case !slices.Contains(fieldSelectorKeys, e.Key):
			msg = fmt.Sprintf("unsupported key %q, must be provider, region, or zone", e.Key)
		case !slices.Contains(fieldSelectorOperator, e.Operator):
			msg = fmt.Sprintf("unsupported operator %q, must be In or NotIn", e.Operator)
		default:
			continue
		}
		return field.ErrorList{field.Invalid(p.Child("fieldSelector"), asJSON(a.FieldSelector), msg)}
	}
	return nil
}

// validatePointer mirrors jsonpointer.New's only check.
func validatePointer(ptr string, p *field.Path) field.ErrorList {
	if ptr != "" && !strings.HasPrefix(ptr, "/") {
		return field.ErrorList{field.Invalid(p, ptr, `JSON pointer must be empty or start with a "/"`)}
	}
	return nil
}

func validatePatchOps(ops []patchOperation, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, op := range ops {
		errs = append(errs, validatePointer(op.SubPath, p.Index(i).Child("subPath"))...)
		empty := yamlnode.IsNull(op.Value)
		switch op.Operator {
		case "add", "replace":
			if empty {
				errs = append(errs, field.Invalid(p.Index(i).Child("value"), json.RawMessage("null"), "value is required for add or replace operation"))
			}
		case "remove":
			if !empty {
				errs = append(errs, field.Invalid(p.Index(i).Child("value"), asJSON(op.Value), "value is not allowed for remove operation"))
			}
		}
	}
	return errs
}

// stringMap reads a map[string]string value in order. With a non-nil path
// it reports values that are not strings, as the CRD schema would.
func stringMap(n *yaml.Node, p *field.Path) (map[string]string, field.ErrorList) {
	var errs field.ErrorList
	m := map[string]string{}
	if yamlnode.IsNull(n) {
		return m, nil
	}
	if n.Kind != yaml.MappingNode {
		if p != nil {
			errs = append(errs, field.Invalid(p, yamlnode.JSONKind(n), "must be of type object"))
		}
		return m, errs
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if yamlnode.IsNull(v) {
			continue // pruned by the apiserver: the CRD's values are not nullable
		}
		if v.Kind != yaml.ScalarNode || v.ShortTag() != yaml.NodeTagString {
			if p != nil {
				errs = append(errs, field.Invalid(p.Key(k.Value), yamlnode.JSONKind(v), "must be of type string"))
			}
			continue
		}
		m[k.Value] = v.Value
	}
	return m, errs
}

// asJSON renders a value for "Invalid value: <v>" the way Karmada's webhook
// prints its typed structs: as JSON, fields in API order.
func asJSON(v any) json.RawMessage {
	if n, ok := v.(*yaml.Node); ok && yamlnode.IsNull(n) {
		return json.RawMessage("null")
	}
	y, err := yaml.Marshal(v)
	if err != nil {
		return json.RawMessage("{}")
	}
	j, err := sigsyaml.YAMLToJSON(y)
	if err != nil {
		return json.RawMessage("{}")
	}
	return json.RawMessage(j)
}

// sorted orders errors from validators that range over Go maps.
func sorted(errs field.ErrorList) field.ErrorList {
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
	return errs
}

// validateBeyond checks what Karmada's admission lets through but no
// render can mean (README "Validation", on top of Karmada): image values
// no image reference can hold, JSON pointers with an invalid "~" escape,
// and, for the deprecated spec.overriders (deprecated is true), the label
// and annotation keys and values the webhook checks only in overrideRules.
func validateBeyond(o *overriderSet, p *field.Path, deprecated bool) field.ErrorList {
	var errs field.ErrorList
	pointer := func(ptr string, path *field.Path) {
		if msg := policy.PointerEscapeError(ptr); msg != "" {
			errs = append(errs, field.Invalid(path, ptr, msg))
		}
	}
	for i, io := range o.ImageOverrider {
		ip := p.Child("imageOverrider").Index(i)
		if io.Operator != "remove" {
			if msg := policy.ImageValueError(io.Component, io.Value); msg != "" {
				errs = append(errs, field.Invalid(ip.Child("value"), io.Value, msg))
			}
		}
		if io.Predicate != nil {
			pointer(io.Predicate.Path, ip.Child("predicate", "path"))
		}
	}
	for i, f := range o.FieldOverrider {
		fp := p.Child("fieldOverrider").Index(i)
		pointer(f.FieldPath, fp.Child("fieldPath"))
		for j, op := range f.JSON {
			pointer(op.SubPath, fp.Child("json").Index(j).Child("subPath"))
		}
		for j, op := range f.YAML {
			pointer(op.SubPath, fp.Child("yaml").Index(j).Child("subPath"))
		}
	}
	for i, pt := range o.Plaintext {
		pointer(pt.Path, p.Child("plaintext").Index(i).Child("path"))
	}
	if deprecated {
		for j, a := range o.AnnotationsOverrider {
			m, _ := stringMap(a.Value, nil)
			errs = append(errs, sorted(apivalidation.ValidateAnnotations(m, p.Child("annotationsOverrider").Index(j).Child("value")))...)
		}
		for j, l := range o.LabelsOverrider {
			m, _ := stringMap(l.Value, nil)
			errs = append(errs, sorted(metav1validation.ValidateLabels(m, p.Child("labelsOverrider").Index(j).Child("value")))...)
		}
	}
	return errs
}
