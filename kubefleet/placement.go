// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubefleet

import (
	"k8s.io/apimachinery/pkg/api/resource"
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

// validatePolicy is the webhook's validatePlacementPolicy, as far as the
// placement types go.
func validatePolicy(p *placementPolicy, pp *field.Path) field.ErrorList {
	errs := policy.Enum(pp.Child("placementType"), p.PlacementType, placementTypes)
	typ := p.PlacementType
	if typ == "" {
		typ = pickAll
	}
	if len(p.ClusterNames) > 100 {
		errs = append(errs, field.TooMany(pp.Child("clusterNames"), len(p.ClusterNames), 100))
	}
	if len(p.Tolerations) > 100 {
		errs = append(errs, field.TooMany(pp.Child("tolerations"), len(p.Tolerations), 100))
	}
	for i, t := range p.Tolerations {
		tp := pp.Child("tolerations").Index(i)
		errs = append(errs, policy.Enum(tp.Child("operator"), t.Operator, tolerationOps)...)
		if t.Operator == "Exists" && t.Value != "" {
			errs = append(errs, field.Invalid(tp.Child("value"), t.Value, "toleration value needs to be empty, when operator is Exists"))
		}
		if t.Operator != "Exists" && t.Key == "" {
			errs = append(errs, field.Invalid(tp.Child("key"), t.Key, "toleration key cannot be empty, when operator is Equal"))
		}
	}
	switch typ {
	case pickFixed:
		if len(p.ClusterNames) == 0 {
			errs = append(errs, field.Required(pp.Child("clusterNames"), "cluster names cannot be empty for policy type PickFixed"))
		}
		if p.NumberOfClusters != nil || p.Affinity != nil || len(p.TopologySpreadConstraints) > 0 {
			errs = append(errs, field.Forbidden(pp, "numberOfClusters, affinity and topologySpreadConstraints must be empty for policy type PickFixed"))
		}
	case pickAll:
		if len(p.ClusterNames) > 0 || p.NumberOfClusters != nil || len(p.TopologySpreadConstraints) > 0 {
			errs = append(errs, field.Forbidden(pp, "clusterNames, numberOfClusters and topologySpreadConstraints must be empty for policy type PickAll"))
		}
		if ca := clusterAffinityOf(p); ca != nil && len(ca.Preferred) > 0 {
			errs = append(errs, field.Forbidden(pp.Child("affinity", "clusterAffinity", "preferredDuringSchedulingIgnoredDuringExecution"), "PreferredDuringSchedulingIgnoredDuringExecution is not allowed for policy type PickAll"))
		}
	case pickN:
		if len(p.ClusterNames) > 0 {
			errs = append(errs, field.Forbidden(pp.Child("clusterNames"), "cluster names must be empty for policy type PickN"))
		}
		if p.NumberOfClusters == nil || *p.NumberOfClusters < 0 {
			errs = append(errs, field.Invalid(pp.Child("numberOfClusters"), p.NumberOfClusters, "number of clusters cannot be nil or negative for policy type PickN"))
		}
	}
	if ca := clusterAffinityOf(p); ca != nil {
		ap := pp.Child("affinity", "clusterAffinity")
		if r := ca.Required; r != nil {
			rp := ap.Child("requiredDuringSchedulingIgnoredDuringExecution", "clusterSelectorTerms")
			if len(r.ClusterSelectorTerms) > 10 {
				errs = append(errs, field.TooMany(rp, len(r.ClusterSelectorTerms), 10))
			}
			for i, t := range r.ClusterSelectorTerms {
				if t.PropertySorter != nil {
					errs = append(errs, field.Forbidden(rp.Index(i).Child("propertySorter"), "PropertySorter is not allowed for RequiredDuringSchedulingIgnoredDuringExecution affinity"))
				}
				errs = append(errs, validateTerm(t, rp.Index(i))...)
			}
		}
		for i, t := range ca.Preferred {
			ip := ap.Child("preferredDuringSchedulingIgnoredDuringExecution").Index(i)
			if t.Weight < -100 || t.Weight > 100 {
				errs = append(errs, field.Invalid(ip.Child("weight"), t.Weight, "must be between -100 and 100"))
			}
			if t.Preference.PropertySelector != nil {
				errs = append(errs, field.Forbidden(ip.Child("preference", "propertySelector"), "PropertySelector is not allowed for PreferredDuringSchedulingIgnoredDuringExecution affinity"))
			}
			errs = append(errs, validateTerm(t.Preference, ip.Child("preference"))...)
		}
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
	}
	return errs
}
