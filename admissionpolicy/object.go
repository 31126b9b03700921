// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package admissionpolicy

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apiserver/pkg/admission"
	"sigs.k8s.io/kustomize/kyaml/openapi"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
	"github.com/apply-overrides/apply-overrides/internal/yamlvalue"
)

// toUnstructured reads a node as the API server decodes a request body:
// JSON with whole numbers as int64, without the annotations kpt and
// kustomize add to the items they pass (config.kubernetes.io/path and
// index, config.k8s.io/id, internal.config.kubernetes.io/*), which never
// reach an API server; hidden holds them, for fromUnstructured.
func toUnstructured(n *yaml.RNode) (obj *unstructured.Unstructured, hidden map[string]any, err error) {
	raw, err := yamlnode.MarshalJSON(n.YNode())
	if err != nil {
		return nil, nil, err
	}
	m := map[string]any{}
	if err := utiljson.Unmarshal(raw, &m); err != nil {
		return nil, nil, fmt.Errorf("read the resource as JSON: %w", err)
	}
	meta, _ := m["metadata"].(map[string]any)
	annos, _ := meta["annotations"].(map[string]any)
	for k, v := range annos {
		if wireAnnotation(k) {
			if hidden == nil {
				hidden = map[string]any{}
			}
			hidden[k] = v
			delete(annos, k)
		}
	}
	if hidden != nil && len(annos) == 0 {
		delete(meta, "annotations")
	}
	return &unstructured.Unstructured{Object: m}, hidden, nil
}

// wireAnnotation reports whether an annotation is one the KRM tools add.
func wireAnnotation(key string) bool {
	return key == "config.kubernetes.io/path" || key == "config.kubernetes.io/index" ||
		key == "config.k8s.io/id" || strings.HasPrefix(key, "internal.config.kubernetes.io/")
}

// fromUnstructured puts a mutated object back onto its node, keeping the
// comments, styles and key order of what the mutation left alone, and the
// hidden wire annotations.
func fromUnstructured(n *yaml.RNode, obj *unstructured.Unstructured, hidden map[string]any) error {
	if len(hidden) > 0 {
		meta, ok := obj.Object["metadata"].(map[string]any)
		if !ok {
			meta = map[string]any{}
			obj.Object["metadata"] = meta
		}
		annos, ok := meta["annotations"].(map[string]any)
		if !ok {
			annos = map[string]any{}
			meta["annotations"] = annos
		}
		for k, v := range hidden {
			annos[k] = v
		}
	}
	raw, err := json.Marshal(obj.Object)
	if err != nil {
		return fmt.Errorf("encode the mutated resource: %w", err)
	}
	next, err := yamlvalue.FromJSON(raw)
	if err != nil {
		return err
	}
	return yamlpatch.Reconcile(n.YNode(), next)
}

// namespaced reports whether a kind is namespaced, per kyaml's built-in
// Kubernetes schema; a kind it does not know (a custom resource) counts as
// namespaced unless it is one of the newer built-in cluster-scoped kinds.
func namespaced(gvk schema.GroupVersionKind) bool {
	ns, found := openapi.IsNamespaceScoped(yaml.TypeMeta{APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind})
	if found {
		return ns
	}
	return !(gvk.Group == Group && strings.HasSuffix(gvk.Kind, "Policy")) &&
		!(gvk.Group == Group && strings.HasSuffix(gvk.Kind, "PolicyBinding"))
}

// interfaces is what the patchers ask of the API server's object
// plumbing: an empty scheme, since every object here is unstructured
// (the API server would hold built-in types as Go structs and default
// them after each mutation; a render writes what is sent, undefaulted).
var interfaces struct {
	once sync.Once
	o    admission.ObjectInterfaces
}

func objectInterfaces() admission.ObjectInterfaces {
	interfaces.once.Do(func() {
		interfaces.o = admission.NewObjectInterfacesFromScheme(runtime.NewScheme())
	})
	return interfaces.o
}
