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

func validLabelSelector(ls *labelSelector, p *field.Path) field.ErrorList {
	if _, err := metav1.LabelSelectorAsSelector(ls.metav1()); err != nil {
		return field.ErrorList{field.Invalid(p, "", "the labelSelector is invalid: "+err.Error())}
	}
	return nil
}
