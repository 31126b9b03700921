// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
)

// KubeAdmiralOverriders is one rule's overriders (kubeadmiral
// pkg/apis/core/v1alpha1 Overriders @19de01c). Its Patches is upstream's
// parsePatchesFromOverriders: every list is computed against the same obj
// and the patches are concatenated in the fixed order image, command,
// args, envs, annotations, labels, jsonpatch, whatever the order of the
// fields in the policy. The caller then applies the rule's patch (minus
// operations under /metadata/finalizers) before computing the next rule's.
type KubeAdmiralOverriders struct {
	Image       KubeAdmiralImages
	Command     []KubeAdmiralEntrypointOverrider
	Args        []KubeAdmiralEntrypointOverrider
	Envs        KubeAdmiralEnvs
	Annotations []KubeAdmiralStringMapOverrider
	Labels      []KubeAdmiralStringMapOverrider
	JSONPatch   KubeAdmiralJSONPatches
}

var _ KubeAdmiralPatcher = KubeAdmiralOverriders{}

// Patchers lists the rule's patch builders in upstream's order.
func (o KubeAdmiralOverriders) Patchers() []KubeAdmiralPatcher {
	return []KubeAdmiralPatcher{
		o.Image,
		KubeAdmiralEntrypoints{Field: "command", Overriders: o.Command},
		KubeAdmiralEntrypoints{Field: "args", Overriders: o.Args},
		o.Envs,
		KubeAdmiralStringMaps{Field: "annotations", Overriders: o.Annotations},
		KubeAdmiralStringMaps{Field: "labels", Overriders: o.Labels},
		o.JSONPatch,
	}
}

// Patches computes the rule's whole patch for obj; the first error stops it.
func (o KubeAdmiralOverriders) Patches(obj *yaml.Node) (yamlpatch.Patch, error) {
	return o.patchesAs(obj, KubeAdmiralGVK(kaObject(obj)))
}

func (o KubeAdmiralOverriders) patchesAs(obj *yaml.Node, gvk schema.GroupVersionKind) (yamlpatch.Patch, error) {
	var patch yamlpatch.Patch
	for _, p := range o.Patchers() {
		ops, err := KubeAdmiralWithGVK{GVK: gvk, Patcher: p}.Patches(obj)
		if err != nil {
			return nil, err
		}
		patch = append(patch, ops...)
	}
	return patch, nil
}

// KubeAdmiralWithoutFinalizers is upstream's ignoreFinalizerPatches: the
// operations whose path does not start with "/metadata/finalizers". A
// rule's patch minus those is what upstream applies to the object before
// the next rule is computed; the finalizer operations only take effect on
// the member object (whose finalizers start as []).
func KubeAdmiralWithoutFinalizers(p yamlpatch.Patch) yamlpatch.Patch {
	out := make(yamlpatch.Patch, 0, len(p))
	for _, op := range p {
		if !strings.HasPrefix(op.Path, "/metadata/finalizers") {
			out = append(out, op)
		}
	}
	return out
}
