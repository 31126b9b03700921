// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubefleet

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/apply-overrides/apply-overrides/policy"
)

// validatePolicy is the webhook's validatePlacementPolicy
// (pkg/utils/validator/placement.go @78e6ca7) on the CRD-defaulted policy
// (placementType PickAll, toleration operator Equal), with its messages.
func validatePolicy(p *placementPolicy, pp *field.Path) field.ErrorList {
	errs := policy.Enum(pp.Child("placementType"), p.PlacementType, placementTypes)
	typ := p.PlacementType
	if typ == "" {
		typ = pickAll
	}
	forbid := func(child, msg string) {
		errs = append(errs, field.Forbidden(pp.Child(child), fmt.Sprintf(msg, typ)))
	}
	if len(p.ClusterNames) > 100 {
		errs = append(errs, field.TooMany(pp.Child("clusterNames"), len(p.ClusterNames), 100))
	}
	if len(p.Tolerations) > 100 {
		errs = append(errs, field.TooMany(pp.Child("tolerations"), len(p.Tolerations), 100))
	}
	ca := clusterAffinityOf(p)
	ap := pp.Child("affinity", "clusterAffinity")
	switch typ {
	case pickFixed:
		if len(p.ClusterNames) == 0 {
			errs = append(errs, field.Required(pp.Child("clusterNames"), "cluster names cannot be empty for policy type PickFixed"))
		}
		seen := map[string]bool{}
		for i, n := range p.ClusterNames {
			for _, msg := range validation.IsDNS1123Subdomain(n) {
				errs = append(errs, field.Invalid(pp.Child("clusterNames").Index(i), n, "PickFixed cluster name is not a valid member name: "+msg))
			}
			if len(n) > validation.DNS1035LabelMaxLength {
				errs = append(errs, field.TooLong(pp.Child("clusterNames").Index(i), n, validation.DNS1035LabelMaxLength))
			}
			if seen[n] {
				errs = append(errs, field.Duplicate(pp.Child("clusterNames").Index(i), n))
			}
			seen[n] = true
		}
		if p.NumberOfClusters != nil {
			forbid("numberOfClusters", "number of clusters must be nil for policy type %s, only valid for PickN placement policy type")
		}
		if p.Affinity != nil {
			forbid("affinity", "affinity must be nil for policy type %s, only valid for PickAll/PickN placement policy types")
		}
		if len(p.TopologySpreadConstraints) > 0 {
			forbid("topologySpreadConstraints", "topology spread constraints needs to be empty for policy type %s, only valid for PickN policy type")
		}
		if p.Tolerations != nil {
			forbid("tolerations", "tolerations needs to be empty for policy type %s, only valid for PickAll/PickN")
		}
		return errs
	case pickAll:
		if len(p.ClusterNames) > 0 {
			forbid("clusterNames", "cluster names needs to be empty for policy type %s, only valid for PickFixed policy type")
		}
		if p.NumberOfClusters != nil {
			forbid("numberOfClusters", "number of clusters must be nil for policy type %s, only valid for PickN placement policy type")
		}
		if len(p.TopologySpreadConstraints) > 0 {
			forbid("topologySpreadConstraints", "topology spread constraints needs to be empty for policy type %s, only valid for PickN policy type")
		}
		if ca != nil && len(ca.Preferred) > 0 {
			errs = append(errs, field.Forbidden(ap.Child("preferredDuringSchedulingIgnoredDuringExecution"), "PreferredDuringSchedulingIgnoredDuringExecution will be ignored for placement policy type PickAll"))
		}
	case pickN:
		if len(p.ClusterNames) > 0 {
			forbid("clusterNames", "cluster names needs to be empty for policy type %s, only valid for PickFixed policy type")
		}
		for i, tc := range p.TopologySpreadConstraints {
			tp := pp.Child("topologySpreadConstraints").Index(i)
			if tc.WhenUnsatisfiable != "" && tc.WhenUnsatisfiable != "DoNotSchedule" && tc.WhenUnsatisfiable != "ScheduleAnyway" {
				errs = append(errs, field.NotSupported(tp.Child("whenUnsatisfiable"), tc.WhenUnsatisfiable, []string{"DoNotSchedule", "ScheduleAnyway"}))
			}
			if tc.MaxSkew != nil && *tc.MaxSkew < 1 {
				errs = append(errs, field.Invalid(tp.Child("maxSkew"), *tc.MaxSkew, "should be greater than or equal to 1"))
			}
		}
		switch {
		case p.NumberOfClusters == nil:
			errs = append(errs, field.Required(pp.Child("numberOfClusters"), "number of cluster cannot be nil for policy type PickN"))
		case *p.NumberOfClusters < 0:
			errs = append(errs, field.Invalid(pp.Child("numberOfClusters"), *p.NumberOfClusters, "number of clusters cannot be negative for policy type PickN"))
		}
		if ca != nil {
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
	}
	if ca != nil && ca.Required != nil {
		rp := ap.Child("requiredDuringSchedulingIgnoredDuringExecution", "clusterSelectorTerms")
		if len(ca.Required.ClusterSelectorTerms) > 10 {
			errs = append(errs, field.TooMany(rp, len(ca.Required.ClusterSelectorTerms), 10))
		}
		for i, t := range ca.Required.ClusterSelectorTerms {
			if t.PropertySorter != nil {
				errs = append(errs, field.Forbidden(rp.Index(i).Child("propertySorter"), "PropertySorter is not allowed for RequiredDuringSchedulingIgnoredDuringExecution affinity"))
			}
			errs = append(errs, validateTerm(t, rp.Index(i))...)
		}
	}
	return append(errs, validateTolerations(p.Tolerations, pp.Child("tolerations"))...)
}

// validateTolerations is the webhook's validateTolerations.
func validateTolerations(tols []toleration, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := map[toleration]bool{}
	for i, t := range tols {
		tp := p.Index(i)
		errs = append(errs, policy.Enum(tp.Child("operator"), t.Operator, tolerationOps)...)
		errs = append(errs, policy.Enum(tp.Child("effect"), t.Effect, []string{"NoSchedule"})...)
		if t.Key != "" {
			for _, msg := range validation.IsQualifiedName(t.Key) {
				errs = append(errs, field.Invalid(tp.Child("key"), t.Key, "invalid toleration key: "+msg))
			}
		}
		switch t.Operator {
		case "Exists":
			if t.Value != "" {
				errs = append(errs, field.Invalid(tp.Child("value"), t.Value, "toleration value needs to be empty, when operator is Exists"))
			}
		case "", "Equal":
			t.Operator = "Equal"
			if t.Key == "" {
				errs = append(errs, field.Invalid(tp.Child("key"), t.Key, "toleration key cannot be empty, when operator is Equal"))
			}
			for _, msg := range validation.IsValidLabelValue(t.Value) {
				errs = append(errs, field.Invalid(tp.Child("value"), t.Value, "invalid toleration value: "+msg))
			}
		}
		if seen[t] {
			errs = append(errs, field.Duplicate(tp, "toleration already exists, tolerations must be unique"))
		}
		seen[t] = true
	}
	return errs
}

// propertyNameError is the webhook's validateName: a resource property is
// resources.kubernetes-fleet.io/<total|allocatable|available>-<resource>;
// any other name is a qualified name, or segments after a DNS subdomain.
func propertyNameError(name string) string {
	if rest, ok := strings.CutPrefix(name, resourcePropertyPrefix); ok {
		capacity, _, found := strings.Cut(rest, "-")
		if !found {
			return "invalid resource property name, expected format is [PREFIX]/[CAPACITY_TYPE]-[RESOURCE_NAME]"
		}
		if capacity != "total" && capacity != "allocatable" && capacity != "available" {
			return "invalid capacity type in resource property name, supported values are [total allocatable available]"
		}
		if msgs := validation.IsQualifiedName(name); msgs != nil {
			return "property name is not valid: " + strings.Join(msgs, "; ")
		}
		return ""
	}
	segs := strings.Split(name, "/")
	if len(segs) <= 1 {
		if msgs := validation.IsQualifiedName(name); msgs != nil {
			return "property name is not valid: " + strings.Join(msgs, "; ")
		}
		return ""
	}
	if validation.IsDNS1123Subdomain(segs[0]) != nil && validation.IsQualifiedName(segs[0]) != nil {
		return "property name first segment " + segs[0] + " is neither a valid DNS subdomain nor a valid qualified name"
	}
	for _, seg := range segs[1:] {
		if msgs := validation.IsQualifiedName(seg); msgs != nil {
			return "property name segment " + seg + " is not valid: " + strings.Join(msgs, "; ")
		}
	}
	return ""
}
