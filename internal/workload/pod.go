// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package workload

// What a pod spec names, as the pod visitors of Kubernetes'
// pkg/api/v1/pod/util.go (VisitPodSecretNames, VisitPodConfigmapNames) find
// it; Karmada (pkg/util/lifted/visitpod.go) and KubeAdmiral's follower
// controller lifted them unchanged and filter the names differently, so the
// names are handed out raw.

import (
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Refs is what a pod spec names, raw: every name as written, empty ones
// included, since which names count is each caller's rule (the lifted
// visitors skip empty Secret and ConfigMap names; KubeAdmiral keeps an
// empty claim name). A name is there only when the reference holding it
// is: an env entry without secretKeyRef or a volume without
// persistentVolumeClaim names nothing, as the typed visitors see a nil
// pointer there.
type Refs struct {
	// ConfigMaps, Secrets and Claims (persistentVolumeClaim.claimName) are
	// never nil.
	ConfigMaps, Secrets, Claims sets.Set[string]
	// ServiceAccount is spec.serviceAccountName as written, "" when absent.
	ServiceAccount string
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

// PodRefs visits the pod spec at spec (path p; nil when absent): image pull
// secrets; env and envFrom references of init, regular and ephemeral
// containers; the volume sources (only the first a volume sets, in
// upstream's order, each projected source); persistentVolumeClaim
// claimName, which the visitors leave to their callers but every caller
// reads; serviceAccountName. A field of the wrong type on the way is an
// error naming it.
func (o *Object) PodRefs(spec *yaml.Node, p *field.Path) (Refs, error) {
	refs := Refs{ConfigMaps: sets.New[string](), Secrets: sets.New[string](), Claims: sets.New[string]()}
	if err := o.EachName(spec, p, []string{"imagePullSecrets"}, []string{"name"}, adder(refs.Secrets)); err != nil {
		return Refs{}, err
	}
	for _, group := range []string{"initContainers", "containers", "ephemeralContainers"} {
		containers, cp, err := o.ListAt(spec, p, group)
		if err != nil {
			return Refs{}, err
		}
		for i, c := range containers {
			if err := o.containerRefs(c, cp.Index(i), &refs); err != nil {
				return Refs{}, err
			}
		}
	}
	volumes, vsp, err := o.ListAt(spec, p, "volumes")
	if err != nil {
		return Refs{}, err
	}
	for i, v := range volumes {
		vp := vsp.Index(i)
		claim, ok, err := o.refName(v, vp, "persistentVolumeClaim", "claimName")
		if err != nil {
			return Refs{}, err
		}
		if ok {
			refs.Claims.Insert(claim)
		}
		if err := o.volumeRef(refs.Secrets, v, vp, volumeSecrets, "secret"); err != nil {
			return Refs{}, err
		}
		if err := o.volumeRef(refs.ConfigMaps, v, vp, volumeConfigMaps, "configMap"); err != nil {
			return Refs{}, err
		}
	}
	if refs.ServiceAccount, err = o.StrAt(spec, p, "serviceAccountName"); err != nil {
		return Refs{}, err
	}
	return refs, nil
}

// containerRefs collects the ConfigMaps and Secrets one container's envFrom
// and env[].valueFrom name.
func (o *Object) containerRefs(c *yaml.Node, p *field.Path, refs *Refs) error {
	for _, ref := range []struct {
		list string
		name []string
		into sets.Set[string]
	}{
		{"envFrom", []string{"configMapRef", "name"}, refs.ConfigMaps},
		{"envFrom", []string{"secretRef", "name"}, refs.Secrets},
		{"env", []string{"valueFrom", "configMapKeyRef", "name"}, refs.ConfigMaps},
		{"env", []string{"valueFrom", "secretKeyRef", "name"}, refs.Secrets},
	} {
		if err := o.EachName(c, p, []string{ref.list}, ref.name, adder(ref.into)); err != nil {
			return err
		}
	}
	return nil
}

// volumeRef collects the name volume v's first set source in sources
// refers to; item is the key a projected source uses for that kind.
func (o *Object) volumeRef(into sets.Set[string], v *yaml.Node, p *field.Path, sources []volumeSource, item string) error {
	for _, s := range sources {
		src, sp, err := o.ObjectAt(v, p, s.source)
		if err != nil {
			return err
		}
		if src == nil {
			continue
		}
		if s.ref == nil {
			return o.EachName(src, sp, []string{"sources"}, []string{item, "name"}, adder(into))
		}
		name, ok, err := o.refName(src, sp, s.ref...)
		if ok {
			into.Insert(name)
		}
		return err
	}
	return nil
}

// adder returns a function that adds a name to set.
func adder(set sets.Set[string]) func(string) {
	return func(name string) { set.Insert(name) }
}
