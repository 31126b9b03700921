// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubefleet

import (
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

// Placement types and the enums of the placement CRD schema.
const (
	pickAll   = "PickAll"
	pickN     = "PickN"
	pickFixed = "PickFixed"
)

var (
	placementTypes     = []string{pickAll, pickN, pickFixed}
	propertyOperators  = []string{"Gt", "Ge", "Eq", "Ne", "Lt", "Le"}
	sortOrders         = []string{"Descending", "Ascending"}
	tolerationOps      = []string{"Exists", "Equal"}
	reportingScopes    = []string{"ClusterScopeOnly", "NamespaceAccessible"}
	labelSelectorField = "labelSelector"
)

// placement is a valid ClusterResourcePlacement or ResourcePlacement.
type placement struct {
	ref  policy.Ref
	spec placementSpec
}

// typ is the placement type, PickAll when unset (the CRD's default, and a
// placement without policy).
func (p *placement) typ() string {
	if p.spec.Policy == nil || p.spec.Policy.PlacementType == "" {
		return pickAll
	}
	return p.spec.Policy.PlacementType
}

// decodePlacement decodes and validates a placement as the CRD schema
// (with its CEL rules) and the validating webhook
// (pkg/utils/validator/placement.go @78e6ca7) do, as far as a render reads
// it.
func decodePlacement(obj *yaml.RNode, ref policy.Ref) (*placement, []error) {
	var o placementObject
	namespaced := ref.Kind == KindResourcePlacement
	if errs := decodeObject(obj, ref, namespaced, &o, "a ResourcePlacement places resources of its own namespace"); len(errs) > 0 {
		return nil, policy.FieldErrors(errs)
	}
	var errs field.ErrorList
	if len(ref.Name) > validation.DNS1035LabelMaxLength {
		errs = append(errs, field.TooLong(field.NewPath("metadata", "name"), ref.Name, validation.DNS1035LabelMaxLength))
	}
	spec := field.NewPath("spec")
	sp := spec.Child("resourceSelectors")
	errs = append(errs, items(sp, len(o.Spec.ResourceSelectors), 1, 100)...)
	errs = append(errs, policy.Enum(spec.Child("statusReportingScope"), o.Spec.StatusReportingScope, reportingScopes)...)
	for i, s := range o.Spec.ResourceSelectors {
		ip := sp.Index(i)
		errs = append(errs, policy.Enum(ip.Child("selectionScope"), s.SelectionScope, selectionScopes)...)
		if s.Name != "" && s.LabelSelector != nil {
			errs = append(errs, field.Invalid(ip, s.Name, "the labelSelector and name fields are mutually exclusive"))
		}
		if s.LabelSelector != nil {
			errs = append(errs, validLabelSelector(s.LabelSelector, ip.Child(labelSelectorField))...)
		}
	}
	errs = append(errs, validateNamespaceSelectors(o.Spec.ResourceSelectors, sp)...)
	if p := o.Spec.Policy; p != nil {
		errs = append(errs, validatePolicy(p, spec.Child("policy"))...)
	}
	if len(errs) > 0 {
		return nil, policy.FieldErrors(errs)
	}
	return &placement{ref: ref, spec: o.Spec}, nil
}

// validateNamespaceSelectors is the CRD's CEL rules on
// NamespaceWithResourceSelectors.
func validateNamespaceSelectors(sel []resourceSelector, p *field.Path) field.ErrorList {
	var ns, withSel int
	byName := 0
	for _, s := range sel {
		if s.Kind != "Namespace" || s.Group != "" || s.Version != "v1" {
			continue
		}
		ns++
		if s.SelectionScope == "NamespaceWithResourceSelectors" {
			withSel++
			if s.Name != "" && s.LabelSelector == nil {
				byName++
			}
		}
	}
	var errs field.ErrorList
	switch {
	case withSel > 1:
		errs = append(errs, field.Invalid(p, withSel, "only one namespace selector with NamespaceWithResourceSelectors mode is allowed"))
	case withSel == 1 && byName != 1:
		errs = append(errs, field.Invalid(p, "", "namespace selector with NamespaceWithResourceSelectors mode must select by name (not by label)"))
	case withSel == 1 && ns != 1:
		errs = append(errs, field.Invalid(p, ns, "when using NamespaceWithResourceSelectors mode, only one namespace selector is allowed (cannot mix with other namespace selectors)"))
	}
	return errs
}

func clusterAffinityOf(p *placementPolicy) *clusterAffinity {
	if p == nil || p.Affinity == nil {
		return nil
	}
	return p.Affinity.ClusterAffinity
}

// validateTerm checks a cluster selector term's label selector, property
// selector (one quantity per expression) and property sorter.
func validateTerm(t clusterSelectorTerm, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if t.LabelSelector != nil {
		errs = append(errs, validLabelSelector(t.LabelSelector, p.Child(labelSelectorField))...)
	}
	if ps := t.PropertySelector; ps != nil {
		for i, e := range ps.MatchExpressions {
			ep := p.Child("propertySelector", "matchExpressions").Index(i)
			errs = append(errs, policy.Enum(ep.Child("operator"), e.Operator, propertyOperators)...)
			if msg := propertyNameError(e.Name); msg != "" {
				errs = append(errs, field.Invalid(ep.Child("name"), e.Name, msg))
			}
			if len(e.Values) != 1 {
				errs = append(errs, field.Invalid(ep.Child("values"), e.Values, "exactly one value is required for the property selector operator"))
				continue
			}
			if _, err := resource.ParseQuantity(e.Values[0]); err != nil {
				errs = append(errs, field.Invalid(ep.Child("values").Index(0), e.Values[0], "value is not a valid resource quantity: "+err.Error()))
			}
		}
	}
	if s := t.PropertySorter; s != nil {
		errs = append(errs, policy.Enum(p.Child("propertySorter", "sortOrder"), s.SortOrder, sortOrders)...)
		if msg := propertyNameError(s.Name); msg != "" {
			errs = append(errs, field.Invalid(p.Child("propertySorter", "name"), s.Name, msg))
		}
	}
	return errs
}
