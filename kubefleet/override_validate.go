// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubefleet

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/apply-overrides/apply-overrides/policy"
)

func validateOverridePolicy(pol *overridePolicy, p *field.Path) field.ErrorList {
	rp := p.Child("overrideRules")
	errs := items(rp, len(pol.OverrideRules), 1, 20)
	for i, r := range pol.OverrideRules {
		ip := rp.Index(i)
		errs = append(errs, policy.Enum(ip.Child("overrideType"), r.OverrideType, overrideTypes)...)
		if cs := r.ClusterSelector; cs != nil {
			tp := ip.Child("clusterSelector", "clusterSelectorTerms")
			if len(cs.ClusterSelectorTerms) > 10 {
				errs = append(errs, field.TooMany(tp, len(cs.ClusterSelectorTerms), 10))
			}
			for j, t := range cs.ClusterSelectorTerms {
				jp := tp.Index(j)
				switch {
				case t.PropertySelector != nil || t.PropertySorter != nil:
					errs = append(errs, field.Forbidden(jp, "invalid clusterSelector: only labelSelector is supported"))
				case t.LabelSelector == nil:
					errs = append(errs, field.Required(jp.Child("labelSelector"), "invalid clusterSelector: labelSelector is required"))
				default:
					errs = append(errs, validLabelSelector(t.LabelSelector, jp.Child("labelSelector"))...)
				}
			}
		}
		pp := ip.Child("jsonPatchOverrides")
		if r.OverrideType == typeDelete {
			if len(r.JSONPatchOverrides) != 0 {
				// The webhook returns this error alone.
				return field.ErrorList{field.Forbidden(pp, "invalid JSONPatchOverrides: JSONPatchOverrides cannot be set when the override type is Delete")}
			}
			continue
		}
		if len(r.JSONPatchOverrides) == 0 {
			errs = append(errs, field.Required(pp, "invalid JSONPatchOverrides: JSONPatchOverrides cannot be empty"))
			continue
		}
		if len(r.JSONPatchOverrides) > 20 {
			errs = append(errs, field.TooMany(pp, len(r.JSONPatchOverrides), 20))
		}
		for k, jp := range r.JSONPatchOverrides {
			kp := pp.Index(k)
			errs = append(errs, policy.Enum(kp.Child("op"), jp.Op, patchOps)...)
			if msg := patchPathError(jp.Path); msg != "" {
				errs = append(errs, field.Invalid(kp.Child("path"), jp.Path, "invalid JSONPatchOverride: "+msg))
			}
			if jp.Op == "remove" && jp.Value != nil {
				errs = append(errs, field.Forbidden(kp.Child("value"), "invalid JSONPatchOverride: remove operation cannot have value"))
			}
		}
	}
	return errs
}

// patchPathError is the webhook's path check (validateJSONPatchOverridePath).
func patchPathError(path string) string {
	if path == "" {
		return "path cannot be empty"
	}
	if !strings.HasPrefix(path, "/") {
		return "path must start with /"
	}
	parts := strings.Split(path, "/")[1:]
	switch parts[0] {
	case "kind", "apiVersion":
		return "cannot override typeMeta fields"
	case "metadata":
		if len(parts) == 1 {
			return "cannot override field metadata"
		} else if parts[1] != "annotations" && parts[1] != "labels" {
			return "cannot override metadata fields except annotations and labels"
		}
	case "status":
		return "cannot override status fields"
	}
	for _, part := range parts {
		if strings.TrimSpace(part) == "" {
			return "path cannot contain empty string"
		}
	}
	return ""
}

// checkSelectorLimit is the webhooks' rule that a resource is selected by
// at most one ClusterResourceOverride (and, per namespace, one
// ResourceOverride), and their limit of 100 overrides.
func checkSelectorLimit(ix *policy.Index[*override]) []error {
	var errs []error
	owner := map[string]policy.Ref{}
	count := map[string]int{}
	for _, d := range ix.List {
		scope := d.Ref.Kind
		if d.Ref.Kind == KindResourceOverride {
			scope += "/" + d.Ref.Namespace
		}
		if count[scope]++; count[scope] == maxOverrides+1 {
			errs = append(errs, onField(d.Ref, "metadata.name", fmt.Errorf(
				"%s limit has been reached: at most %d can be created (in a namespace, for ResourceOverrides)", d.Ref.Kind, maxOverrides)))
		}
		field := "spec.clusterResourceSelectors"
		if d.Ref.Kind == KindResourceOverride {
			field = "spec.resourceSelectors"
		}
		for i, s := range d.Policy.selectors {
			k := scope + "/" + selectorKey(s)
			first, ok := owner[k]
			if !ok {
				owner[k] = d.Ref
				continue
			}
			errs = append(errs, onField(d.Ref, fmt.Sprintf("%s[%d]", field, i), fmt.Errorf(
				"invalid resource selector %s: the resource has been selected by both %s and %s, which is not supported: merge their rules into one override",
				describeSelector(s), d.Ref.Name, first.Name)))
		}
	}
	return errs
}
