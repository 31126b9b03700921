// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
)

// Patcher computes the JSON patch KubeAdmiral emits for one
// overrider list of a rule, reading obj (the resource's mapping node)
// without changing it.
type Patcher interface {
	Patches(obj *yaml.Node) (yamlpatch.Patch, error)
}

// errUnknownPodSpec is upstream's podutil.ErrUnknownTypeToGetPodSpec:
// the resource's group and kind have no known pod spec.
var errUnknownPodSpec = errors.New("unknown type to get pod spec")

// podSpecPaths is upstream's podutil.PodSpecPaths: matched by group and
// kind, any version.
var podSpecPaths = map[schema.GroupKind]string{
	{Group: "apps", Kind: "Deployment"}:  "spec.template.spec",
	{Group: "apps", Kind: "StatefulSet"}: "spec.template.spec",
	{Group: "apps", Kind: "DaemonSet"}:   "spec.template.spec",
	{Group: "batch", Kind: "Job"}:        "spec.template.spec",
	{Group: "batch", Kind: "CronJob"}:    "spec.jobTemplate.spec.template.spec",
	{Group: "", Kind: "Pod"}:             "spec",
}

// GVK is the group, version and kind upstream reads from obj
// (unstructured's GroupVersionKind): apiVersion and kind count only when
// they are strings, and an apiVersion with more than one "/" yields the
// empty GVK (kind included).
func GVK(obj *yaml.Node) schema.GroupVersionKind {
	obj = objectNode(obj)
	str := func(key string) string {
		if v := yamlnode.MapGet(obj, key); v != nil && yamlpatch.IsString(v) {
			return v.Value
		}
		return ""
	}
	gv, err := schema.ParseGroupVersion(str("apiVersion"))
	if err != nil {
		return schema.GroupVersionKind{}
	}
	return gv.WithKind(str("kind"))
}

// podSpecPath finds obj's pod spec by the group and kind of its
// apiVersion and kind (see GVK). prefix is the JSON pointer of
// the pod spec, e.g. "/spec/template/spec" for an apps Deployment,
// "/spec/jobTemplate/spec/template/spec" for a batch CronJob and "/spec" for
// a core Pod. The errors are upstream's, without the "failed to get podSpec
// from sourceObj: " its callers add: "unknown type to get pod spec: <gvk>"
// (wrapping errUnknownPodSpec), `pod spec does not exist at path
// "<path>"` and unstructured's accessor errors for a pod spec (or a parent)
// that is not an object.
func podSpecPath(obj *yaml.Node) (prefix string, podSpec *yaml.Node, err error) {
	obj = objectNode(obj)
	return podSpecNode(obj, GVK(obj))
}

func podSpecNode(obj *yaml.Node, gvk schema.GroupVersionKind) (string, *yaml.Node, error) {
	path, ok := podSpecPaths[gvk.GroupKind()]
	if !ok {
		return "", nil, fmt.Errorf("%w: %s", errUnknownPodSpec, gvk.String())
	}
	fields := strings.Split(path, ".")
	// unstructured.NestedMap: a missing or null parent means "not found",
	// a parent or a pod spec that is not an object is an accessor error.
	cur := yamlnode.Deref(obj)
	for i, f := range fields {
		if cur == nil || yamlnode.IsNullScalar(cur) {
			return "", nil, fmt.Errorf("pod spec does not exist at path %q", path)
		}
		if cur.Kind != yaml.MappingNode {
			return "", nil, accessorError(fields[:i+1], cur)
		}
		if cur = yamlnode.MapGet(cur, f); cur == nil {
			return "", nil, fmt.Errorf("pod spec does not exist at path %q", path)
		}
	}
	if cur.Kind != yaml.MappingNode {
		return "", nil, accessorError(fields, cur)
	}
	return "/" + strings.Join(fields, "/"), cur, nil
}

// accessorError is unstructured's "<.path> accessor error: <v> is of the
// type <T>, expected map[string]interface{}".
func accessorError(fields []string, n *yaml.Node) error {
	v, err := safeUnstructuredLimit(n, messageNodes)
	if err != nil {
		return fmt.Errorf(".%s accessor error: %w", strings.Join(fields, "."), err)
	}
	return fmt.Errorf(".%s accessor error: %v is of the type %T, expected map[string]interface{}", strings.Join(fields, "."), v, v)
}

// containerRef is one container of the pod spec with the JSON pointer of
// its entry, e.g. "/spec/containers/1".
type containerRef struct {
	path string
	containerSpec
}

// podContainers resolves and decodes obj's pod spec (upstream's
// GetResourcePodSpecFromUnstructuredObj) and lists initContainers, then
// containers. Errors carry upstream's "failed to get podSpec from
// sourceObj: " prefix.
func podContainers(obj *yaml.Node, gvk schema.GroupVersionKind) ([]containerRef, error) {
	prefix, node, err := podSpecNode(obj, gvk)
	if err == nil {
		var spec podSpecFields
		if err = decodeTyped(node, &spec); err == nil {
			var refs []containerRef
			for _, list := range []struct {
				kind       string
				containers []containerSpec
			}{{"initContainers", spec.InitContainers}, {"containers", spec.Containers}} {
				for i, c := range list.containers {
					refs = append(refs, containerRef{path: fmt.Sprintf("%s/%s/%d", prefix, list.kind, i), containerSpec: c})
				}
			}
			return refs, nil
		}
	}
	return nil, fmt.Errorf("failed to get podSpec from sourceObj: %w", err)
}

// firstContainer is lookForMatchedContainer: the first container named
// name, initContainers first; nil if none.
func firstContainer(refs []containerRef, name string) *containerRef {
	for i := range refs {
		if refs[i].Name == name {
			return &refs[i]
		}
	}
	return nil
}

// WithGVK makes Patcher resolve pod specs by GVK instead of by
// the apiVersion and kind obj has now. Upstream fixes the GVK from the
// original template for all rules, so a jsonpatch of an earlier rule that
// changes apiVersion or kind does not change where later rules look for
// containers; wrap the patchers of every rule with the template's GVK to
// reproduce that. Patchers that do not read a pod spec are called as is.
type WithGVK struct {
	// GVK is e.g. GVK(template).
	GVK     schema.GroupVersionKind
	Patcher Patcher
}

var _ Patcher = WithGVK{}

// gVKPatcher is implemented by the patchers that read a pod spec.
type gVKPatcher interface {
	patchesAs(obj *yaml.Node, gvk schema.GroupVersionKind) (yamlpatch.Patch, error)
}

// Patches returns w.Patcher's patches for obj, computed as if obj had w.GVK.
func (w WithGVK) Patches(obj *yaml.Node) (yamlpatch.Patch, error) {
	switch p := w.Patcher.(type) {
	case nil:
		return nil, nil
	case gVKPatcher:
		return p.patchesAs(obj, w.GVK)
	default:
		return p.Patches(obj)
	}
}
