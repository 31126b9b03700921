// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package policy

import (
	"sort"

	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/decode"
	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
)

// objectMeta is metav1.ObjectMeta as a manifest writes it. Fields a render
// does not read are kept as nodes, so any value the apiserver would store is
// accepted.
type objectMeta struct {
	Name                       string            `yaml:"name"`
	GenerateName               string            `yaml:"generateName"`
	Namespace                  string            `yaml:"namespace"`
	Labels                     map[string]string `yaml:"labels"`
	Annotations                map[string]string `yaml:"annotations"`
	Finalizers                 []string          `yaml:"finalizers"`
	Generation                 int64             `yaml:"generation"`
	SelfLink                   *yaml.Node        `yaml:"selfLink"`
	UID                        *yaml.Node        `yaml:"uid"`
	ResourceVersion            *yaml.Node        `yaml:"resourceVersion"`
	CreationTimestamp          *yaml.Node        `yaml:"creationTimestamp"`
	DeletionTimestamp          *yaml.Node        `yaml:"deletionTimestamp"`
	DeletionGracePeriodSeconds *yaml.Node        `yaml:"deletionGracePeriodSeconds"`
	OwnerReferences            *yaml.Node        `yaml:"ownerReferences"`
	ManagedFields              *yaml.Node        `yaml:"managedFields"`
}

// ValidateMetadata checks a policy's metadata as the apiserver checks every
// object it stores (apimachinery's ValidateObjectMeta): the name a DNS-1123
// subdomain, the namespace a DNS-1123 label, labels and annotations maps of
// strings with qualified keys (label values valid too, annotations at most
// 256 KiB), finalizers qualified names. Values of the wrong type are named
// with the type expected, e.g. `metadata.labels: Invalid value: "string":
// must be of type object`; unknown metadata fields are errors, as kubectl's
// strict field validation makes them.
//
// A cluster-scoped policy's namespace is ignored (the apiserver clears it).
// Whether a name or a namespace must be present is left to the dialect,
// which knows what a render needs: a missing one is not reported here.
func ValidateMetadata(obj *yaml.RNode, namespaced bool) field.ErrorList {
	p := field.NewPath("metadata")
	n := obj.Field(yaml.MetadataField)
	if n == nil || yamlnode.IsNull(n.Value.YNode()) {
		return nil // the dialect reports the missing name
	}
	var m objectMeta
	errs := decode.Decode(n.Value.YNode(), p, &m)
	if len(errs) > 0 {
		return errs
	}
	meta := metav1.ObjectMeta{
		Name: m.Name, GenerateName: m.GenerateName, Namespace: m.Namespace,
		Labels: m.Labels, Annotations: m.Annotations, Finalizers: m.Finalizers, Generation: m.Generation,
	}
	if !namespaced {
		meta.Namespace = ""
	}
	for _, e := range apivalidation.ValidateObjectMeta(&meta, namespaced, apivalidation.NameIsDNSSubdomain, p) {
		if e.Type == field.ErrorTypeRequired && (e.Field == "metadata.name" || e.Field == "metadata.namespace") {
			continue
		}
		errs = append(errs, e)
	}
	// The validators range over Go maps.
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
	return errs
}
