// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

import (
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/decode"
	"github.com/apply-overrides/apply-overrides/policy"
)

// The propagation policy kinds.
const (
	KindPropagationPolicy        = "PropagationPolicy"
	KindClusterPropagationPolicy = "ClusterPropagationPolicy"
)

// The values the CRD schema and the webhooks of Karmada v1.16.0 default
// and allow (pkg/apis/policy/v1alpha1/propagation_types.go markers,
// pkg/webhook/propagationpolicy/mutating.go, pkg/util/helper/policy.go).
const (
	defaultSchedulerName = "default-scheduler"
	schedulingDuplicated = "Duplicated"
	schedulingDivided    = "Divided"
	divisionAggregated   = "Aggregated"
	divisionWeighted     = "Weighted"
)

var (
	preemptionValues      = []string{"Always", "Never"}
	conflictValues        = []string{"Abort", "Overwrite"}
	activationValues      = []string{"Lazy"}
	spreadByFieldValues   = []string{"cluster", "region", "zone", "provider"}
	schedulingTypeValues  = []string{schedulingDuplicated, schedulingDivided}
	divisionValues        = []string{divisionAggregated, divisionWeighted}
	dynamicWeightValues   = []string{"AvailableReplicas"}
	applicationPurgeModes = []string{"Directly", "Gracefully", "Never"}
	gracefulPurgeModes    = []string{"Graciously", "Gracefully"}
)

// propagationPolicy is a valid PropagationPolicy or ClusterPropagationPolicy
// with the defaults Karmada's CRD schema and mutating webhook apply.
type propagationPolicy struct {
	ref       policy.Ref
	selectors []compiledSelector
	// priority is spec.priority (0 when absent).
	priority           int32
	propagateDeps      bool
	placement          placement
	dependentOverrides []string
	schedulerName      string
}

// decodePropagation decodes, defaults and validates one propagation policy
// as the API server would on create: the CRD's structural schema (types,
// required fields, enums, defaults), then the mutating webhook, then the
// validating webhook (pkg/util/validation.ValidatePropagationSpec).
func decodePropagation(obj *yaml.RNode, ref policy.Ref) (*propagationPolicy, []error) {
	var o propagationObject
	errs := decode.Options{CRD: true}.Decode(obj.YNode(), nil, &o)
	namespaced := ref.Kind == KindPropagationPolicy
	errs = append(errs, policy.ValidateMetadata(obj, namespaced)...)
	if ref.Name == "" {
		errs = append(errs, field.Required(field.NewPath("metadata", "name"), ""))
	}
	if namespaced && ref.Namespace == "" {
		errs = append(errs, field.Required(field.NewPath("metadata", "namespace"),
			"a PropagationPolicy propagates only resources of its own namespace"))
	}
	if len(errs) > 0 {
		return nil, policy.FieldErrors(errs)
	}
	s := &o.Spec
	errs = append(errs, schemaPropagation(s, strings.HasPrefix(ref.APIVersion, GroupACKOne+"/"))...)
	if len(errs) > 0 {
		return nil, policy.FieldErrors(errs)
	}
	mutatePropagation(s, ref)
	errs = append(errs, validatePropagation(s)...)
	if len(errs) > 0 {
		return nil, policy.FieldErrors(dedupe(errs))
	}
	p := &propagationPolicy{
		ref: ref, propagateDeps: s.PropagateDeps, placement: s.Placement,
		dependentOverrides: s.DependentOverrides, schedulerName: s.SchedulerName,
	}
	if s.Priority != nil {
		p.priority = *s.Priority
	}
	for _, rs := range s.ResourceSelectors {
		p.selectors = append(p.selectors, compileSelector(rs))
	}
	return p, nil
}

// schemaPropagation checks what the CRD's OpenAPI schema enforces beyond
// types and required fields (enums, minimums, lengths), folds ACK One's
// excludeClusters, and applies the schema's defaults.
func schemaPropagation(s *propagationSpec, ackOne bool) field.ErrorList {
	spec := field.NewPath("spec")
	var errs field.ErrorList
	if len(s.ResourceSelectors) == 0 {
		errs = append(errs, field.Required(spec.Child("resourceSelectors"), "at least one resource selector: a propagation policy without one propagates nothing"))
	}
	errs = append(errs, policy.Enum(spec.Child("preemption"), s.Preemption, preemptionValues)...)
	errs = append(errs, policy.Enum(spec.Child("conflictResolution"), s.ConflictResolution, conflictValues)...)
	errs = append(errs, policy.Enum(spec.Child("activationPreference"), s.ActivationPreference, activationValues)...)
	pl := spec.Child("placement")
	errs = append(errs, foldExclude(s.Placement.ClusterAffinity, pl.Child("clusterAffinity"), ackOne)...)
	for i := range s.Placement.ClusterAffinities {
		t := &s.Placement.ClusterAffinities[i]
		tp := pl.Child("clusterAffinities").Index(i)
		if n := len(t.AffinityName); n < 1 || n > 32 {
			errs = append(errs, field.Invalid(tp.Child("affinityName"), t.AffinityName, "must be 1 to 32 characters long"))
		}
		if t.ExcludeClusters != nil {
			if !ackOne {
				errs = append(errs, field.Forbidden(tp.Child("excludeClusters"),
					"unknown field: Karmada spells it \"exclude\" (excludeClusters is ACK One's spelling)"))
			} else {
				t.Exclude = append(t.Exclude, t.ExcludeClusters...)
			}
		}
	}
	for i, c := range s.Placement.SpreadConstraints {
		errs = append(errs, policy.Enum(pl.Child("spreadConstraints").Index(i).Child("spreadByField"), c.SpreadByField, spreadByFieldValues)...)
	}
	if rs := s.Placement.ReplicaScheduling; rs != nil {
		rp := pl.Child("replicaScheduling")
		errs = append(errs, policy.Enum(rp.Child("replicaSchedulingType"), rs.ReplicaSchedulingType, schedulingTypeValues)...)
		errs = append(errs, policy.Enum(rp.Child("replicaDivisionPreference"), rs.ReplicaDivisionPreference, divisionValues)...)
		switch {
		case rs.CustomSchedulingType != "" && !ackOne:
			errs = append(errs, field.Forbidden(rp.Child("customSchedulingType"), "unknown field: customSchedulingType is ACK One's (policy.one.alibabacloud.com)"))
		case rs.CustomSchedulingType != "":
			errs = append(errs, field.Invalid(rp.Child("customSchedulingType"), rs.CustomSchedulingType,
				"ACK One's gang scheduling places all of a job's replicas or none, by the member clusters' live capacity, which a render cannot see: remove the field to render the placement without it"))
		}
		if rs.ReplicaSchedulingType == "" {
			rs.ReplicaSchedulingType = schedulingDivided // the CRD's default, whenever replicaScheduling is given
		}
		if wp := rs.WeightPreference; wp != nil {
			wpp := rp.Child("weightPreference")
			errs = append(errs, policy.Enum(wpp.Child("dynamicWeight"), wp.DynamicWeight, dynamicWeightValues)...)
			for i := range wp.StaticWeightList {
				w := &wp.StaticWeightList[i]
				if w.Weight < 1 {
					errs = append(errs, field.Invalid(wpp.Child("staticWeightList").Index(i).Child("weight"), w.Weight, "should be greater than or equal to 1"))
				}
				errs = append(errs, foldExclude(&w.TargetCluster, wpp.Child("staticWeightList").Index(i).Child("targetCluster"), ackOne)...)
			}
		}
	}
	if f := s.Failover; f != nil && f.Application != nil {
		a := f.Application
		errs = append(errs, policy.Enum(spec.Child("failover", "application", "purgeMode"), a.PurgeMode, applicationPurgeModes)...)
		if a.PurgeMode == "" {
			a.PurgeMode = "Gracefully" // the CRD's default
		}
		if a.DecisionConditions.TolerationSeconds == nil {
			v := int32(300) // the CRD's default
			a.DecisionConditions.TolerationSeconds = &v
		}
	}
	if s.SchedulerName == "" {
		s.SchedulerName = defaultSchedulerName
	}
	return errs
}

// mutatePropagation is the mutating webhook (pkg/webhook/propagationpolicy
// and clusterpropagationpolicy mutating.go at v1.16.0), minus the
// permanent-id label and the finalizer, which the render does not need.
func mutatePropagation(s *propagationSpec, ref policy.Ref) {
	if ref.Kind == KindPropagationPolicy {
		for i := range s.ResourceSelectors {
			if s.ResourceSelectors[i].Namespace == "" {
				s.ResourceSelectors[i].Namespace = ref.Namespace
			}
		}
	}
	for i := range s.Placement.SpreadConstraints {
		c := &s.Placement.SpreadConstraints[i]
		if c.SpreadByField == "" && c.SpreadByLabel == "" {
			c.SpreadByField = "cluster"
		}
		if c.MinGroups == 0 {
			c.MinGroups = 1
		}
	}
	for _, rs := range s.ResourceSelectors {
		if rs.Kind == "ServiceImport" && rs.APIVersion == "multicluster.x-k8s.io/v1alpha1" {
			s.PropagateDeps = true
		}
	}
	if rs := s.Placement.ReplicaScheduling; rs != nil && rs.ReplicaSchedulingType == schedulingDivided && rs.ReplicaDivisionPreference == "" {
		rs.ReplicaDivisionPreference = divisionWeighted
	}
	if f := s.Failover; f != nil && f.Application != nil && f.Application.GracePeriodSeconds == nil {
		if slices.Contains(gracefulPurgeModes, f.Application.PurgeMode) {
			v := int32(600)
			f.Application.GracePeriodSeconds = &v
		}
	}
}

// validatePropagation mirrors pkg/util/validation.ValidatePropagationSpec
// at v1.16.0; the value of an invalid object is shown as JSON.
func validatePropagation(s *propagationSpec) field.ErrorList {
	spec := field.NewPath("spec")
	pl := spec.Child("placement")
	var errs field.ErrorList
	if s.Placement.ClusterAffinity != nil && s.Placement.ClusterAffinities != nil {
		errs = append(errs, field.Invalid(pl, asJSON(s.Placement), "clusterAffinities cannot co-exist with clusterAffinity"))
	}
	if a := s.Placement.ClusterAffinity; a != nil {
		errs = append(errs, validateAffinity(a, pl.Child("clusterAffinity"))...)
	}
	names := map[string]bool{}
	for i := range s.Placement.ClusterAffinities {
		t := &s.Placement.ClusterAffinities[i]
		tp := pl.Child("clusterAffinities").Index(i)
		for _, msg := range validation.IsQualifiedName(t.AffinityName) {
			errs = append(errs, field.Invalid(tp, t.AffinityName, msg))
		}
		if names[t.AffinityName] {
			errs = append(errs, field.Invalid(pl.Child("clusterAffinities"), asJSON(s.Placement.ClusterAffinities), "each affinity term in a policy must have a unique name"))
		}
		names[t.AffinityName] = true
		errs = append(errs, validateAffinity(t.affinity(), tp)...)
	}
	errs = append(errs, validateSpread(s.Placement.SpreadConstraints, pl.Child("spreadConstraints"))...)
	if f := s.Failover; f != nil && f.Application != nil {
		a := f.Application
		ap := spec.Child("failover", "application")
		if !s.PropagateDeps {
			errs = append(errs, field.Invalid(spec.Child("propagateDeps"), s.PropagateDeps, "application failover is set, propagateDeps must be true"))
		}
		if t := a.DecisionConditions.TolerationSeconds; t != nil && *t < 0 {
			errs = append(errs, field.Invalid(ap.Child("decisionConditions", "tolerationSeconds"), *t, "must be greater than or equal to 0"))
		}
		graceful := slices.Contains(gracefulPurgeModes, a.PurgeMode)
		if !graceful && a.GracePeriodSeconds != nil {
			errs = append(errs, field.Invalid(ap.Child("gracePeriodSeconds"), *a.GracePeriodSeconds, "only takes effect when purgeMode is gracefully"))
		}
		if a.GracePeriodSeconds != nil && *a.GracePeriodSeconds <= 0 {
			errs = append(errs, field.Invalid(ap.Child("gracePeriodSeconds"), *a.GracePeriodSeconds, "must be greater than 0"))
		}
	}
	if s.Preemption == "Always" {
		for i, rs := range s.ResourceSelectors {
			if rs.Name == "" {
				errs = append(errs, field.Invalid(spec.Child("resourceSelectors").Index(i).Child("name"), rs.Name,
					"name cannot be empty if preemption is Always, the empty name may cause unexpected resources preemption"))
			}
		}
	}
	if sp := s.Suspension; sp != nil && sp.Dispatching != nil && *sp.Dispatching && sp.DispatchingOnClusters != nil && len(sp.DispatchingOnClusters.ClusterNames) > 0 {
		errs = append(errs, field.Invalid(spec.Child("suspension", "suspension"), asJSON(sp), "suspension dispatching cannot co-exist with dispatchingOnClusters.clusterNames"))
	}
	return errs
}

// validateSpread is ValidateSpreadConstraint.
func validateSpread(cs []spreadConstraint, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := map[string]bool{}
	reported := map[string]bool{}
	for i, c := range cs {
		ip := p.Index(i)
		if c.SpreadByField != "" && c.SpreadByLabel != "" {
			errs = append(errs, field.Invalid(ip, asJSON(c), "spreadByLabel should not co-exist with spreadByField"))
		}
		if c.MinGroups < 0 {
			errs = append(errs, field.Invalid(ip, asJSON(c), "minGroups lower than 0 is not allowed"))
		}
		if c.MaxGroups < 0 {
			errs = append(errs, field.Invalid(ip, asJSON(c), "maxGroups lower than 0 is not allowed"))
		}
		if c.MaxGroups > 0 && c.MaxGroups < c.MinGroups {
			errs = append(errs, field.Invalid(ip, asJSON(c), "maxGroups lower than minGroups is not allowed"))
		}
		if c.SpreadByField != "" {
			if seen[c.SpreadByField] && !reported[c.SpreadByField] {
				errs = append(errs, field.Invalid(p, asJSON(cs), fmt.Sprintf("multiple %s spread constraints are not allowed", c.SpreadByField)))
				reported[c.SpreadByField] = true
			}
			seen[c.SpreadByField] = true
		}
	}
	if len(seen) > 0 && !seen["cluster"] {
		errs = append(errs, field.Invalid(p, asJSON(cs), "the cluster spread constraint must be enabled in one of the constraints in case of SpreadByField is enabled"))
	}
	return errs
}
