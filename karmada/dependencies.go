// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

// The objects a template drags along when its policy sets propagateDeps, as
// Karmada v1.16.0's native GetDependencies finds them
// (pkg/resourceinterpreter/default/native/dependencies.go,
// pkg/util/helper/pod.go GetDependenciesFromPodTemplate, and the pod visitors
// Karmada lifted from Kubernetes into pkg/util/lifted/visitpod.go, which
// internal/workload's PodRefs reproduces; Karmada's filtering of the names
// is here).

import (
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	// Aliased, as in interpret.go: workload is this package's own type.
	wl "github.com/apply-overrides/apply-overrides/internal/workload"
)

// dependency is a namespaced object a workload references.
type dependency struct {
	apiVersion, kind, namespace, name string
	// selector is set instead of name for a reference to every object of
	// the kind in the namespace carrying all these labels (matchLabels);
	// only ServiceImport's EndpointSlices are referenced that way. Upstream
	// attaches each such object found in the control plane, so a caller
	// matches it against the input's objects of that apiVersion and kind.
	selector map[string]string
}

// dependencies is the native GetDependencies. For the pod-bearing workloads
// (Deployment, ReplicaSet, StatefulSet, DaemonSet and Job in their apps/v1
// and batch/v1 versions, batch/v1 CronJob through its job template, v1 Pod)
// it lists the ConfigMaps, Secrets, ServiceAccount and PersistentVolumeClaims
// the pod spec names; a StatefulSet leaves out the claims its
// volumeClaimTemplates create. A networking.k8s.io/v1 Ingress depends on its
// TLS Secrets, a multicluster.x-k8s.io/v1alpha1 ServiceImport on the Service
// derived-<name> and the EndpointSlices labelled with that service name.
//
// Each kind's names are deduplicated and sorted; kinds come in the order
// ConfigMap, Secret, ServiceAccount, PersistentVolumeClaim, then the
// ServiceImport's two in upstream's order. Empty names are left out: the pod
// visitors skip them, and upstream fails on an Ingress's empty secretName
// without that stopping the other dependencies, which amounts to the same.
// Other resources have none. A field read here that has the wrong type is an
// error naming it, since upstream's typed conversion fails on it.
func dependencies(n *yaml.RNode) ([]dependency, error) {
	t, err := newTemplate(n)
	if err != nil {
		return nil, err
	}
	var podSpecPath []string
	switch t.GVK() {
	case gvkDeployment, gvkReplicaSet, gvkStatefulSet, gvkDaemonSet, gvkJob:
		podSpecPath = []string{"spec", "template", "spec"}
	case gvkCronJob:
		podSpecPath = []string{"spec", "jobTemplate", "spec", "template", "spec"}
	case gvkPod:
		podSpecPath = []string{"spec"}
	case gvkIngress, gvkServiceImport:
	default:
		return nil, nil
	}
	// The namespace every dependency lives in must itself read as a string.
	if _, err := t.StrAt(t.Root, nil, "metadata", "namespace"); err != nil {
		return nil, err
	}
	var refs wl.Refs
	switch t.GVK() {
	case gvkIngress:
		refs.Secrets, err = t.ingressSecrets()
	case gvkServiceImport:
		return t.serviceImportDependencies()
	default:
		var spec *yaml.Node
		var p *field.Path
		if spec, p, err = t.ObjectAt(t.Root, nil, podSpecPath...); err == nil {
			refs, err = t.PodRefs(spec, p)
		}
		if err == nil && t.GVK() == gvkStatefulSet {
			err = t.dropClaimTemplates(&refs)
		}
	}
	if err != nil {
		return nil, err
	}
	return refList(refs, t.Namespace), nil
}

// refList returns the references in output order, with Karmada's rules:
// empty names are left out, as the lifted visitors skip them, and so is the
// service account "default", which every namespace has.
func refList(r wl.Refs, namespace string) []dependency {
	serviceAccounts := sets.New[string]()
	if r.ServiceAccount != "default" {
		serviceAccounts.Insert(r.ServiceAccount)
	}
	var out []dependency
	for _, kind := range []struct {
		name  string
		names sets.Set[string]
	}{
		{"ConfigMap", r.ConfigMaps}, {"Secret", r.Secrets},
		{"ServiceAccount", serviceAccounts}, {"PersistentVolumeClaim", r.Claims},
	} {
		for _, name := range sets.List(kind.names) {
			if name != "" {
				out = append(out, dependency{apiVersion: "v1", kind: kind.name, namespace: namespace, name: name})
			}
		}
	}
	return out
}

// dropClaimTemplates removes the claims a StatefulSet creates itself from
// its volumeClaimTemplates: the member cluster makes those, so a control
// plane object of that name is at most a placeholder.
func (t *template) dropClaimTemplates(refs *wl.Refs) error {
	return t.EachName(t.Root, nil, []string{"spec", "volumeClaimTemplates"}, []string{"metadata", "name"},
		func(name string) { refs.Claims.Delete(name) })
}

// ingressSecrets returns the Secrets of an Ingress's spec.tls entries.
func (t *template) ingressSecrets() (sets.Set[string], error) {
	secrets := sets.New[string]()
	err := t.EachName(t.Root, nil, []string{"spec", "tls"}, []string{"secretName"},
		func(name string) { secrets.Insert(name) })
	return secrets, err
}

// serviceImportDependencies is the Service Karmada derives for a
// ServiceImport and the EndpointSlices labelled with its name.
func (t *template) serviceImportDependencies() ([]dependency, error) {
	name, err := t.StrAt(t.Root, nil, "metadata", "name")
	if err != nil {
		return nil, err
	}
	derived := "derived-" + name
	return []dependency{
		{apiVersion: "v1", kind: "Service", namespace: t.Namespace, name: derived},
		{apiVersion: "discovery.k8s.io/v1", kind: "EndpointSlice", namespace: t.Namespace,
			selector: map[string]string{"kubernetes.io/service-name": derived}},
	}, nil
}
