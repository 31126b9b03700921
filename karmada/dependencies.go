// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

// The objects a template drags along when its policy sets propagateDeps, as
// Karmada v1.16.0's native GetDependencies finds them
// (pkg/resourceinterpreter/default/native/dependencies.go,
// pkg/util/helper/pod.go GetDependenciesFromPodTemplate, and the pod visitors
// Karmada lifted from Kubernetes into pkg/util/lifted/visitpod.go).

import (
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/kustomize/kyaml/yaml"
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
	switch t.gvk() {
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
	if _, err := t.strAt(t.root, nil, "metadata", "namespace"); err != nil {
		return nil, err
	}
	refs := podRefs{
		configMaps: sets.New[string](), secrets: sets.New[string](),
		serviceAccounts: sets.New[string](), claims: sets.New[string](),
	}
	switch t.gvk() {
	case gvkIngress:
		err = t.ingressSecrets(&refs)
	case gvkServiceImport:
		return t.serviceImportDependencies()
	default:
		var spec *yaml.Node
		var p *field.Path
		if spec, p, err = t.objectAt(t.root, nil, podSpecPath...); err == nil {
			err = t.podReferences(spec, p, &refs)
		}
		if err == nil && t.gvk() == gvkStatefulSet {
			err = t.dropClaimTemplates(&refs)
		}
	}
	if err != nil {
		return nil, err
	}
	return refs.list(t.namespace), nil
}

// podRefs holds the names a pod spec refers to, by kind.
type podRefs struct {
	configMaps, secrets, serviceAccounts, claims sets.Set[string]
}

// list returns the references in output order.
func (r *podRefs) list(namespace string) []dependency {
	var out []dependency
	for _, kind := range []struct {
		name  string
		names sets.Set[string]
	}{
		{"ConfigMap", r.configMaps}, {"Secret", r.secrets},
		{"ServiceAccount", r.serviceAccounts}, {"PersistentVolumeClaim", r.claims},
	} {
		for _, name := range sets.List(kind.names) {
			if name != "" {
				out = append(out, dependency{apiVersion: "v1", kind: kind.name, namespace: namespace, name: name})
			}
		}
	}
	return out
}

// volumeSource is a volume source that can name an object, and the keys
// below it that hold the name.
type volumeSource struct {
	source string
	ref    []string
}

// volumeSecrets lists the volume sources that can name a Secret, in the order
// upstream's visitor tests them: only the first source a volume sets is
// looked at (a valid volume sets exactly one). A nil ref marks projected,
// whose sources each may name one.
var volumeSecrets = []volumeSource{
	{"azureFile", []string{"secretName"}},
	{"cephfs", []string{"secretRef", "name"}},
	{"cinder", []string{"secretRef", "name"}},
	{"flexVolume", []string{"secretRef", "name"}},
	{"projected", nil},
	{"rbd", []string{"secretRef", "name"}},
	{"secret", []string{"secretName"}},
	{"scaleIO", []string{"secretRef", "name"}},
	{"iscsi", []string{"secretRef", "name"}},
	{"storageos", []string{"secretRef", "name"}},
	{"csi", []string{"nodePublishSecretRef", "name"}},
}

// volumeConfigMaps is volumeSecrets for ConfigMaps.
var volumeConfigMaps = []volumeSource{
	{"projected", nil},
	{"configMap", []string{"name"}},
}

// podReferences collects what pod spec (at p) names: image pull secrets;
// env and envFrom references of init, regular and ephemeral containers;
// volume sources; the service account unless it is "default".
func (t *template) podReferences(spec *yaml.Node, p *field.Path, refs *podRefs) error {
	if err := t.eachName(spec, p, []string{"imagePullSecrets"}, []string{"name"}, adder(refs.secrets)); err != nil {
		return err
	}
	for _, group := range []string{"initContainers", "containers", "ephemeralContainers"} {
		containers, cp, err := t.listAt(spec, p, group)
		if err != nil {
			return err
		}
		for i, c := range containers {
			if err := t.containerReferences(c, cp.Index(i), refs); err != nil {
				return err
			}
		}
	}
	volumes, vsp, err := t.listAt(spec, p, "volumes")
	if err != nil {
		return err
	}
	for i, v := range volumes {
		vp := vsp.Index(i)
		claim, err := t.strAt(v, vp, "persistentVolumeClaim", "claimName")
		if err != nil {
			return err
		}
		refs.claims.Insert(claim)
		if err := t.volumeReference(refs.secrets, v, vp, volumeSecrets, "secret"); err != nil {
			return err
		}
		if err := t.volumeReference(refs.configMaps, v, vp, volumeConfigMaps, "configMap"); err != nil {
			return err
		}
	}
	sa, err := t.strAt(spec, p, "serviceAccountName")
	if err == nil && sa != "default" {
		refs.serviceAccounts.Insert(sa)
	}
	return err
}

// containerReferences collects the ConfigMaps and Secrets one container's
// envFrom and env[].valueFrom name.
func (t *template) containerReferences(c *yaml.Node, p *field.Path, refs *podRefs) error {
	for _, ref := range []struct {
		list string
		name []string
		into sets.Set[string]
	}{
		{"envFrom", []string{"configMapRef", "name"}, refs.configMaps},
		{"envFrom", []string{"secretRef", "name"}, refs.secrets},
		{"env", []string{"valueFrom", "configMapKeyRef", "name"}, refs.configMaps},
		{"env", []string{"valueFrom", "secretKeyRef", "name"}, refs.secrets},
	} {
		if err := t.eachName(c, p, []string{ref.list}, ref.name, adder(ref.into)); err != nil {
			return err
		}
	}
	return nil
}

// volumeReference collects the name volume v's first set source in sources
// refers to; item is the key a projected source uses for that kind.
func (t *template) volumeReference(into sets.Set[string], v *yaml.Node, p *field.Path, sources []volumeSource, item string) error {
	for _, s := range sources {
		src, sp, err := t.objectAt(v, p, s.source)
		if err != nil {
			return err
		}
		if src == nil {
			continue
		}
		if s.ref == nil {
			return t.eachName(src, sp, []string{"sources"}, []string{item, "name"}, adder(into))
		}
		name, err := t.strAt(src, sp, s.ref...)
		if err == nil {
			into.Insert(name)
		}
		return err
	}
	return nil
}

// eachName calls fn with the string at name below each item of the array at
// list below m (at p).
func (t *template) eachName(m *yaml.Node, p *field.Path, list, name []string, fn func(string)) error {
	items, lp, err := t.listAt(m, p, list...)
	if err != nil {
		return err
	}
	for i, item := range items {
		s, err := t.strAt(item, lp.Index(i), name...)
		if err != nil {
			return err
		}
		fn(s)
	}
	return nil
}

// adder returns a function that adds a name to set.
func adder(set sets.Set[string]) func(string) {
	return func(name string) { set.Insert(name) }
}

// dropClaimTemplates removes the claims a StatefulSet creates itself from
// its volumeClaimTemplates: the member cluster makes those, so a control
// plane object of that name is at most a placeholder.
func (t *template) dropClaimTemplates(refs *podRefs) error {
	return t.eachName(t.root, nil, []string{"spec", "volumeClaimTemplates"}, []string{"metadata", "name"},
		func(name string) { refs.claims.Delete(name) })
}

// ingressSecrets collects the Secrets of an Ingress's spec.tls entries.
func (t *template) ingressSecrets(refs *podRefs) error {
	return t.eachName(t.root, nil, []string{"spec", "tls"}, []string{"secretName"}, adder(refs.secrets))
}

// serviceImportDependencies is the Service Karmada derives for a
// ServiceImport and the EndpointSlices labelled with its name.
func (t *template) serviceImportDependencies() ([]dependency, error) {
	name, err := t.strAt(t.root, nil, "metadata", "name")
	if err != nil {
		return nil, err
	}
	derived := "derived-" + name
	return []dependency{
		{apiVersion: "v1", kind: "Service", namespace: t.namespace, name: derived},
		{apiVersion: "discovery.k8s.io/v1", kind: "EndpointSlice", namespace: t.namespace,
			selector: map[string]string{"kubernetes.io/service-name": derived}},
	}, nil
}
