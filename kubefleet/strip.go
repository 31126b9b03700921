// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubefleet

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
)

// stripFilter removes what the hub strips from a selected resource before
// it snapshots it (generateRawContent,
// pkg/utils/controller/resource_selector_resolver.go @78e6ca7): server-set
// metadata, owner references, the kubectl last-applied and deployment
// revision annotations, status; a Service's allocated cluster IPs (unless
// headless), health check node port and node ports; and a Job's generated
// selector labels unless it sets manualSelector.
type stripFilter struct{}

var _ yaml.Filter = stripFilter{}

// strips lists the paths removed from every resource.
var strips = [][]string{
	{"metadata", "resourceVersion"}, {"metadata", "generation"}, {"metadata", "uid"},
	{"metadata", "selfLink"}, {"metadata", "deletionTimestamp"}, {"metadata", "managedFields"},
	{"metadata", "ownerReferences"}, {"metadata", "creationTimestamp"},
	{"metadata", "annotations", "kubectl.kubernetes.io/last-applied-configuration"},
	{"metadata", "annotations", "deployment.kubernetes.io/revision"},
	{"status"},
}

var jobStrips = [][]string{
	{"spec", "selector", "matchLabels", "controller-uid"},
	{"spec", "selector", "matchLabels", "batch.kubernetes.io/controller-uid"},
	{"spec", "template", "metadata", "creationTimestamp"},
	{"spec", "template", "metadata", "labels", "controller-uid"},
	{"spec", "template", "metadata", "labels", "batch.kubernetes.io/controller-uid"},
}

// paths is what strip removes from n.
func paths(n *yaml.RNode) [][]string {
	out := append([][]string{}, strips...)
	switch {
	case n.GetApiVersion() == "v1" && n.GetKind() == "Service":
		if ip := lookup(n.YNode(), "spec", "clusterIP"); ip != nil && !(ip.Kind == yaml.ScalarNode && ip.Value == "None") {
			out = append(out, []string{"spec", "clusterIP"}, []string{"spec", "clusterIPs"})
		}
		out = append(out, []string{"spec", "healthCheckNodePort"})
	case n.GetApiVersion() == "batch/v1" && n.GetKind() == "Job":
		if ms := lookup(n.YNode(), "spec", "manualSelector"); ms == nil || ms.Value != "true" {
			out = append(out, jobStrips...)
		}
	}
	return out
}

// strip removes the paths (with apply false, only reports whether any is
// present).
func strip(n *yaml.RNode, apply bool) bool {
	found := false
	for _, p := range paths(n) {
		found = remove(n.YNode(), p, apply) || found
	}
	if n.GetApiVersion() == "v1" && n.GetKind() == "Service" {
		if ports := lookup(n.YNode(), "spec", "ports"); ports != nil && ports.Kind == yaml.SequenceNode {
			for _, port := range ports.Content {
				found = remove(port, []string{"nodePort"}, apply) || found
			}
		}
	}
	// An annotations map left empty is dropped (SetAnnotations(nil)).
	if a := lookup(n.YNode(), "metadata", "annotations"); a != nil && a.Kind == yaml.MappingNode && len(a.Content) == 0 {
		found = remove(n.YNode(), []string{"metadata", "annotations"}, apply) || found
	}
	return found
}

// remove deletes the key at path, reporting whether it was there.
func remove(n *yaml.Node, path []string, apply bool) bool {
	parent := lookup(n, path[:len(path)-1]...)
	parent = yamlnode.Deref(parent)
	if parent == nil || parent.Kind != yaml.MappingNode {
		return false
	}
	key := path[len(path)-1]
	for i := 0; i+1 < len(parent.Content); i += 2 {
		if parent.Content[i].Value == key {
			if apply {
				parent.Content = append(parent.Content[:i], parent.Content[i+2:]...)
			}
			return true
		}
	}
	return false
}

// needsStrip reports whether the hub would strip anything from n.
func needsStrip(n *yaml.RNode) bool { return strip(n, false) }

func (stripFilter) Filter(n *yaml.RNode) (*yaml.RNode, error) {
	strip(n, true)
	return n, nil
}

// lookup is the node at path through mappings, or nil.
func lookup(n *yaml.Node, path ...string) *yaml.Node {
	for _, p := range path {
		n = yamlnode.Deref(n)
		if n == nil || n.Kind != yaml.MappingNode {
			return nil
		}
		n = yamlnode.MapGet(n, p)
	}
	return n
}
