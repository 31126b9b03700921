// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
)

// Rule is one rule's overriders (kubeadmiral
// pkg/apis/core/v1alpha1 Overriders @19de01c). Its Patches is upstream's
// parsePatchesFromOverriders: every list is computed against the same obj
// and the patches are concatenated in the fixed order image, command,
// args, envs, annotations, labels, jsonpatch, whatever the order of the
// fields in the policy. The caller then applies the rule's patch (minus
// operations under /metadata/finalizers) before computing the next rule's.
type Rule struct {
	Image       Images
	Command     []Entrypoint
	Args        []Entrypoint
	Envs        Envs
	Annotations []StringMap
	Labels      []StringMap
	JSONPatch   JSONPatches
}

var _ Patcher = Rule{}

// Patchers lists the rule's patch builders in upstream's order.
func (o Rule) Patchers() []Patcher {
	return []Patcher{
		o.Image,
		entrypoints{Field: "command", Overriders: o.Command},
		entrypoints{Field: "args", Overriders: o.Args},
		o.Envs,
		stringMaps{Field: "annotations", Overriders: o.Annotations},
		stringMaps{Field: "labels", Overriders: o.Labels},
		o.JSONPatch,
	}
}

// Patches computes the rule's whole patch for obj; the first error stops it.
func (o Rule) Patches(obj *yaml.Node) (yamlpatch.Patch, error) {
	return o.patchesAs(obj, GVK(objectNode(obj)))
}

func (o Rule) patchesAs(obj *yaml.Node, gvk schema.GroupVersionKind) (yamlpatch.Patch, error) {
	var patch yamlpatch.Patch
	for _, p := range o.Patchers() {
		ops, err := WithGVK{GVK: gvk, Patcher: p}.Patches(obj)
		if err != nil {
			return nil, err
		}
		patch = append(patch, ops...)
	}
	return patch, nil
}

// WithoutFinalizers is upstream's ignoreFinalizerPatches: the
// operations whose path does not start with "/metadata/finalizers". A
// rule's patch minus those is what upstream applies to the object before
// the next rule is computed; the finalizer operations only take effect on
// the member object (whose finalizers start as []).
func WithoutFinalizers(p yamlpatch.Patch) yamlpatch.Patch {
	out := make(yamlpatch.Patch, 0, len(p))
	for _, op := range p {
		if !strings.HasPrefix(op.Path, "/metadata/finalizers") {
			out = append(out, op)
		}
	}
	return out
}
