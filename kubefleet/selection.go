// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubefleet

import (
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

// inputResource is a resource of the input as placement selection reads it.
type inputResource struct {
	res *policy.Resource
	// deleting: metadata.deletionTimestamp is set; owned: ownerReferences
	// is not empty.
	deleting, owned bool
	secretType      string
}

// resourceKey identifies a resource: apiVersion, kind, namespace, name.
func resourceKey(r *policy.Resource) string {
	return r.APIVersion + "|" + r.Kind + "|" + r.Namespace + "|" + r.Name
}

// inputOf reads the resources placement selects among. A kind is
// namespaced when an object of its group and kind in the input has a
// namespace (the hub asks discovery; offline the objects say it).
type input struct {
	list       []*inputResource
	namespaced map[string]bool // group/kind
	namespaces map[string]*inputResource
}

func readInput(nodes []*yaml.RNode) *input {
	in := &input{namespaced: map[string]bool{}, namespaces: map[string]*inputResource{}}
	for _, n := range nodes {
		r := policy.NewResource(n)
		ir := &inputResource{res: r}
		meta := n.Field(yaml.MetadataField)
		if meta != nil {
			if f := meta.Value.Field("deletionTimestamp"); f != nil && f.Value.YNode().Tag != yaml.NodeTagNull {
				ir.deleting = true
			}
			if f := meta.Value.Field("ownerReferences"); f != nil && len(f.Value.YNode().Content) > 0 {
				ir.owned = true
			}
		}
		if f := n.Field("type"); f != nil {
			ir.secretType = f.Value.YNode().Value
		}
		group, _ := splitAPIVersion(r.APIVersion)
		if r.Namespace != "" {
			in.namespaced[group+"/"+r.Kind] = true
		}
		if r.APIVersion == "v1" && r.Kind == "Namespace" {
			in.namespaces[r.Name] = ir
		}
		in.list = append(in.list, ir)
	}
	return in
}

// isReservedNamespace is pkg/utils IsReservedNamespace @78e6ca7.
func isReservedNamespace(ns string) bool {
	return strings.HasPrefix(ns, "fleet-") || strings.HasPrefix(ns, "kube-")
}

// shouldPropagate is ShouldPropagateObj @78e6ca7 (the hub runs no
// workloads): objects being deleted, and objects the member cluster's own
// controllers create, are never placed.
func (in *input) shouldPropagate(ir *inputResource) bool {
	r := ir.res
	switch {
	case ir.deleting:
		return false
	case r.APIVersion == "apps/v1" && (r.Kind == "ReplicaSet" || r.Kind == "ControllerRevision"):
		return !ir.owned
	case r.APIVersion == "v1" && r.Kind == "ConfigMap":
		return r.Name != "kube-root-ca.crt"
	case r.APIVersion == "v1" && r.Kind == "ServiceAccount":
		return r.Name != "default"
	case r.APIVersion == "v1" && r.Kind == "Secret":
		return ir.secretType != "kubernetes.io/service-account-token"
	case r.APIVersion == "v1" && r.Kind == "Endpoints":
		for _, o := range in.list {
			if o.res.APIVersion == "v1" && o.res.Kind == "Service" && o.res.Namespace == r.Namespace && o.res.Name == r.Name {
				return false
			}
		}
	case r.APIVersion == "discovery.k8s.io/v1" && r.Kind == "EndpointSlice":
		_, managed := r.Labels["endpointslice.kubernetes.io/managed-by"]
		return !managed
	}
	return true
}

// selectResources is the resource selector resolver's
// gatherSelectedResource (pkg/utils/controller/resource_selector_resolver.go
// @78e6ca7) over the input: the keys of the resources the placement
// selects, or an error naming the selector.
func (in *input) selectResources(p *placement) (map[string]bool, error) {
	namespace := p.ref.Namespace // "" for a ClusterResourcePlacement
	selected := map[string]bool{}
	sp := "spec.resourceSelectors"
	fail := func(i int, format string, args ...any) error {
		return onField(p.ref, fmt.Sprintf("%s[%d]", sp, i), fmt.Errorf(format, args...))
	}
	add := func(i int, ir *inputResource) error {
		k := resourceKey(ir.res)
		if selected[k] {
			return fail(i, "found duplicate resource %s: two selectors select it; remove one", ir.res.GVKString())
		}
		selected[k] = true
		return nil
	}
	// The namespace of a NamespaceWithResourceSelectors selector.
	selectedNS := ""
	for _, s := range p.spec.ResourceSelectors {
		if isNamespaceSelector(s) && namespace == "" && s.SelectionScope == "NamespaceWithResourceSelectors" {
			ns, ok := in.namespaces[s.Name]
			why := ""
			switch {
			case !ok:
				why = fmt.Sprintf("the input holds no Namespace %q", s.Name)
			case ns.deleting:
				why = fmt.Sprintf("Namespace %q is being deleted (metadata.deletionTimestamp)", s.Name)
			case isReservedNamespace(s.Name):
				why = fmt.Sprintf("namespace %s is not allowed to propagate (the fleet-* and kube-* namespaces are reserved)", s.Name)
			}
			if why != "" {
				return nil, onField(p.ref, sp, fmt.Errorf(
					"NamespaceWithResourceSelectors mode requires exactly one namespace, but no namespaces were selected: %s", why))
			}
			selectedNS = s.Name
			break
		}
	}
	for i, s := range p.spec.ResourceSelectors {
		var objs []*inputResource
		var err error
		switch {
		case isNamespaceSelector(s) && namespace != "":
			return nil, fail(i, "cannot select cluster-scoped resource Namespace in a resourcePlacement")
		case isNamespaceSelector(s) && (s.SelectionScope == "NamespaceOnly" || s.SelectionScope == "NamespaceWithResourceSelectors"):
			objs, err = in.fetch(s, "", false)
		case isNamespaceSelector(s):
			objs, err = in.fetchNamespaces(s)
		default:
			nsd := in.namespaced[s.Group+"/"+s.Kind]
			switch {
			case nsd && namespace == "" && selectedNS == "":
				return nil, fail(i, "cannot select namespace-scoped resource %s in a clusterResourcePlacement: select its Namespace, or use a ResourcePlacement", s.Kind)
			case !nsd && namespace != "":
				return nil, fail(i, "cannot select cluster-scoped resource %s in a resourcePlacement", s.Kind)
			case nsd && namespace == "":
				objs, err = in.fetch(s, selectedNS, true)
			default:
				objs, err = in.fetch(s, namespace, nsd)
			}
		}
		if err != nil {
			return nil, fail(i, "%w", err)
		}
		for _, ir := range objs {
			if err := add(i, ir); err != nil {
				return nil, err
			}
		}
	}
	return selected, nil
}

func isNamespaceSelector(s resourceSelector) bool {
	return s.Group == "" && s.Version == "v1" && s.Kind == "Namespace"
}

// fetch is fetchResources: the objects of the selector's kind (in
// namespace, for a namespaced kind) by name or label selector.
func (in *input) fetch(s resourceSelector, namespace string, namespaced bool) ([]*inputResource, error) {
	sel := labels.Everything()
	if s.LabelSelector != nil {
		var err error
		if sel, err = metav1.LabelSelectorAsSelector(s.LabelSelector.metav1()); err != nil {
			return nil, err
		}
	}
	apiVersion := s.Version
	if s.Group != "" {
		apiVersion = s.Group + "/" + s.Version
	}
	var out []*inputResource
	for _, ir := range in.list {
		r := ir.res
		if r.APIVersion != apiVersion || r.Kind != s.Kind || namespaced && r.Namespace != namespace {
			continue
		}
		if s.Name != "" && r.Name != s.Name || s.Name == "" && !sel.Matches(labels.Set(r.Labels)) {
			continue
		}
		if in.shouldPropagate(ir) {
			out = append(out, ir)
		}
	}
	return out, nil
}

// fetchNamespaces is fetchNamespaceResources: each selected Namespace
// with every resource in it.
func (in *input) fetchNamespaces(s resourceSelector) ([]*inputResource, error) {
	var names []string
	if s.Name != "" {
		names = []string{s.Name}
	} else {
		nss, err := in.fetch(s, "", false)
		if err != nil {
			return nil, err
		}
		for _, ns := range nss {
			names = append(names, ns.res.Name)
		}
	}
	var out []*inputResource
	for _, name := range names {
		if isReservedNamespace(name) {
			return nil, fmt.Errorf("namespace %s is not allowed to propagate (the fleet-* and kube-* namespaces are reserved)", name)
		}
		ns, ok := in.namespaces[name]
		if !ok || ns.deleting {
			continue // not found, or being deleted: nothing is selected
		}
		out = append(out, ns)
		for _, ir := range in.list {
			if ir.res.Namespace == name && in.shouldPropagate(ir) {
				out = append(out, ir)
			}
		}
	}
	return out, nil
}
