// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubefleet

import (
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/decode"
	"github.com/apply-overrides/apply-overrides/policy"
)

// Override types and JSON patch operators of the CRD schema.
const (
	typeJSONPatch = "JSONPatch"
	typeDelete    = "Delete"
)

var (
	overrideTypes   = []string{typeJSONPatch, typeDelete}
	patchOps        = []string{"add", "remove", "replace"}
	placementScopes = []string{"Cluster", "Namespaced"}
	selectionScopes = []string{"NamespaceOnly", "NamespaceWithResources", "NamespaceWithResourceSelectors"}
)

// maxOverrides is the webhooks' limit on ClusterResourceOverrides in the
// fleet and on ResourceOverrides in one namespace.
const maxOverrides = 100

// override is a valid ClusterResourceOverride or ResourceOverride.
type override struct {
	ref       policy.Ref
	placement *placementRef
	selectors []resourceSelector
	rules     []overrideRule
}

// key is the placement the reference names: a ClusterResourcePlacement by
// name, a ResourcePlacement (scope Namespaced) by the override's
// namespace and name.
func (p *placementRef) key(namespace string) string {
	if p.Scope == "Namespaced" {
		return namespace + "/" + p.Name
	}
	return p.Name
}

func (p *placementRef) kind() string {
	if p.Scope == "Namespaced" {
		return KindResourcePlacement
	}
	return KindClusterResourcePlacement
}

// decodeOverride decodes and validates an override as the apiserver (CRD
// schema and CEL rules) and KubeFleet's validating webhook do
// (pkg/utils/validator clusterresourceoverride.go, resourceoverride.go
// @78e6ca7). The webhook's messages are kept, prefixed by the field.
func decodeOverride(obj *yaml.RNode, ref policy.Ref) (*override, []error) {
	var o overrideObject
	namespaced := ref.Kind == KindResourceOverride
	if errs := decodeObject(obj, ref, namespaced, &o, "a ResourceOverride selects resources of its own namespace"); len(errs) > 0 {
		return nil, policy.FieldErrors(errs)
	}
	var errs field.ErrorList
	spec := field.NewPath("spec")
	selectors, sp := o.Spec.ClusterResourceSelectors, spec.Child("clusterResourceSelectors")
	other := spec.Child("resourceSelectors")
	if namespaced {
		selectors, sp, other = o.Spec.ResourceSelectors, other, sp
	}
	if namespaced && o.Spec.ClusterResourceSelectors != nil || !namespaced && o.Spec.ResourceSelectors != nil {
		errs = append(errs, field.Forbidden(other, "field not declared in the schema of "+ref.Kind))
	}
	errs = append(errs, items(sp, len(selectors), 1, 20)...)
	if pr := o.Spec.Placement; pr != nil {
		errs = append(errs, policy.Enum(spec.Child("placement", "scope"), pr.Scope, placementScopes)...)
		if !namespaced && pr.Scope == "Namespaced" {
			errs = append(errs, field.Invalid(spec.Child("placement", "scope"), pr.Scope, "clusterResourceOverride placement reference cannot be Namespaced scope"))
		}
	}
	errs = append(errs, validateSelectors(selectors, sp, namespaced)...)
	if len(errs) > 0 {
		return nil, policy.FieldErrors(errs) // the webhook stops at selector errors
	}
	errs = append(errs, validateOverridePolicy(o.Spec.Policy, spec.Child("policy"))...)
	if len(errs) > 0 {
		return nil, policy.FieldErrors(errs)
	}
	return &override{ref: ref, placement: o.Spec.Placement, selectors: selectors, rules: o.Spec.Policy.OverrideRules}, nil
}

// decodeObject decodes obj into out as the apiserver reads a CRD object,
// and checks its metadata: a name, and for a namespaced kind a namespace
// (nsWhy says why it is needed).
func decodeObject(obj *yaml.RNode, ref policy.Ref, namespaced bool, out any, nsWhy string) field.ErrorList {
	errs := decode.Options{CRD: true}.Decode(obj.YNode(), nil, out)
	errs = append(errs, policy.ValidateMetadata(obj, namespaced)...)
	if ref.Name == "" {
		errs = append(errs, field.Required(field.NewPath("metadata", "name"), ""))
	}
	if namespaced && ref.Namespace == "" {
		errs = append(errs, field.Required(field.NewPath("metadata", "namespace"), nsWhy))
	}
	return errs
}

// items checks minItems and maxItems.
func items(p *field.Path, n, min, max int) field.ErrorList {
	switch {
	case n < min:
		return field.ErrorList{field.Required(p, fmt.Sprintf("at least %d item(s) required", min))}
	case n > max:
		return field.ErrorList{field.TooMany(p, n, max)}
	}
	return nil
}

// selectorKey is a selector as the webhook compares them (the whole
// struct, selectionScope defaulted).
func selectorKey(s resourceSelector) string {
	scope := s.SelectionScope
	if scope == "" {
		scope = "NamespaceWithResources"
	}
	return strings.Join([]string{s.Group, s.Version, s.Kind, s.Name, scope}, "/")
}

func validateSelectors(selectors []resourceSelector, p *field.Path, namespaced bool) field.ErrorList {
	var errs field.ErrorList
	seen := map[string]bool{}
	for i, s := range selectors {
		sp := p.Index(i)
		if namespaced && (s.LabelSelector != nil || s.SelectionScope != "") {
			errs = append(errs, field.Forbidden(sp, "a ResourceOverride selects by group, version, kind and name only"))
			continue
		}
		if namespaced && s.Name == "" {
			errs = append(errs, field.Required(sp.Child("name"), ""))
			continue
		}
		errs = append(errs, policy.Enum(sp.Child("selectionScope"), s.SelectionScope, selectionScopes)...)
		if s.LabelSelector != nil {
			errs = append(errs, field.Invalid(sp.Child("labelSelector"), "", "label selector is not supported for resource selection: select the resource by name"))
			continue
		}
		if s.Name == "" {
			errs = append(errs, field.Required(sp.Child("name"), "resource name is required for resource selection"))
			continue
		}
		k := selectorKey(s)
		if seen[k] {
			errs = append(errs, field.Duplicate(sp, fmt.Sprintf("resource selector %s already exists, and must be unique", describeSelector(s))))
		}
		seen[k] = true
	}
	return errs
}

func describeSelector(s resourceSelector) string {
	gv := s.Version
	if s.Group != "" {
		gv = s.Group + "/" + s.Version
	}
	return fmt.Sprintf("%s %s %s", gv, s.Kind, s.Name)
}

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

func validLabelSelector(ls *labelSelector, p *field.Path) field.ErrorList {
	if _, err := metav1.LabelSelectorAsSelector(ls.metav1()); err != nil {
		return field.ErrorList{field.Invalid(p, "", "the labelSelector is invalid: "+err.Error())}
	}
	return nil
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
