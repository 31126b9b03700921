// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package workload reads resources the way a controller that converts them
// to their typed Kubernetes structs does: Object's accessors take a field
// of the wrong type as an error naming the resource and the field, since
// the typed conversion gives up on such an object, and PodRefs visits what
// a pod spec names as the pod visitors Kubernetes' helpers (and the copies
// Karmada and KubeAdmiral lifted) do. It knows no dialect: each dialect
// applies its own rules to what it reads here.
package workload

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
)

// Object is a resource's node read with typed accessors whose errors name
// the resource and the field.
type Object struct {
	// Root is the resource's mapping.
	Root *yaml.Node
	// APIVersion, Kind, Namespace and Name are "" when absent or not
	// strings.
	APIVersion, Kind, Namespace, Name string
	// Reader names the controller whose reading is reproduced, e.g.
	// "Karmada", so that an error says who cannot read the field; ""
	// reads as "the controller".
	Reader string
}

// New wraps n. apiVersion, kind and metadata that are not strings read as
// empty: they only select what to read and name the resource in errors,
// and the reader that produced n has already vetted them.
func New(n *yaml.RNode) (*Object, error) {
	var root *yaml.Node
	if n != nil {
		root = yamlnode.Resolve(n.YNode())
	}
	if root == nil || root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("a resource must be a YAML mapping with apiVersion, kind and metadata: correct the input document, which holds something else")
	}
	text := func(v *yaml.Node) string {
		if yamlpatch.IsString(v) {
			return v.Value
		}
		return ""
	}
	meta := yamlnode.MapGet(root, "metadata")
	return &Object{
		Root:       root,
		APIVersion: text(yamlnode.MapGet(root, "apiVersion")),
		Kind:       text(yamlnode.MapGet(root, "kind")),
		Namespace:  text(yamlnode.MapGet(meta, "namespace")),
		Name:       text(yamlnode.MapGet(meta, "name")),
	}, nil
}

// GVK is apiVersion/kind, e.g. "apps/v1/Deployment": controllers key their
// handling by the exact GroupVersionKind, so this is what they switch on.
func (o *Object) GVK() string { return o.APIVersion + "/" + o.Kind }

// String names the resource for error messages, e.g. "Deployment shop/web".
func (o *Object) String() string {
	name := o.Name
	if o.Namespace != "" {
		name = o.Namespace + "/" + name
	}
	if name == "" {
		return o.Kind
	}
	return o.Kind + " " + name
}

// Invalid reports field p, holding v, as not being want (e.g. "an object").
// A controller converts the resource to its typed Kubernetes struct first
// and gives up on the whole object when that fails, so such a field stops
// the reading too.
func (o *Object) Invalid(p *field.Path, v *yaml.Node, want string) error {
	value := yamlnode.JSONKind(v)
	if v.Kind == yaml.ScalarNode {
		value = v.Value
	}
	kind := o.Kind
	if kind == "" {
		kind = "resource"
	}
	reader := o.Reader
	if reader == "" {
		reader = "the controller"
	}
	return fmt.Errorf("%s: %w", o, field.Invalid(p, value,
		fmt.Sprintf("must be %s: %s cannot read a %s whose field has another type, so correct the field", want, reader, kind)))
}

// object returns n when it is a mapping and nil when it is absent or null.
func (o *Object) object(n *yaml.Node, p *field.Path) (*yaml.Node, error) {
	n = yamlnode.Deref(n)
	if yamlnode.IsNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, o.Invalid(p, n, "an object")
	}
	return n, nil
}

// list returns the items of sequence n, nil when it is absent or null.
func (o *Object) list(n *yaml.Node, p *field.Path) ([]*yaml.Node, error) {
	n = yamlnode.Deref(n)
	if yamlnode.IsNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, o.Invalid(p, n, "an array")
	}
	items := make([]*yaml.Node, 0, len(n.Content))
	for _, c := range n.Content {
		items = append(items, yamlnode.Deref(c))
	}
	return items, nil
}

// str returns string n, "" when it is absent or null.
func (o *Object) str(n *yaml.Node, p *field.Path) (string, error) {
	n = yamlnode.Deref(n)
	if yamlnode.IsNull(n) {
		return "", nil
	}
	if !yamlpatch.IsString(n) {
		return "", o.Invalid(p, n, "a string")
	}
	return n.Value, nil
}

// walk follows keys from m (at p) through nested objects and returns the
// last value with its path; a missing or null step gives nil. m and every
// step but the last must be objects.
func (o *Object) walk(m *yaml.Node, p *field.Path, keys ...string) (*yaml.Node, *field.Path, error) {
	m, err := o.object(m, p)
	if err != nil {
		return nil, p, err
	}
	for i, k := range keys {
		p = p.Child(k)
		v := yamlnode.MapGet(m, k)
		if i == len(keys)-1 {
			return v, p, nil
		}
		var err error
		if m, err = o.object(v, p); err != nil {
			return nil, p, err
		}
	}
	return m, p, nil
}

// ObjectAt follows keys from m (at p) to a value that must be an object,
// and returns it (nil when it or a step to it is absent or null) with its
// path. m and every step on the way must be objects too.
func (o *Object) ObjectAt(m *yaml.Node, p *field.Path, keys ...string) (*yaml.Node, *field.Path, error) {
	v, p, err := o.walk(m, p, keys...)
	if err != nil {
		return nil, p, err
	}
	v, err = o.object(v, p)
	return v, p, err
}

// ListAt is ObjectAt for a value that must be an array: it returns the
// items, aliases followed, and the array's path, for its items.
func (o *Object) ListAt(m *yaml.Node, p *field.Path, keys ...string) ([]*yaml.Node, *field.Path, error) {
	v, p, err := o.walk(m, p, keys...)
	if err != nil {
		return nil, p, err
	}
	items, err := o.list(v, p)
	return items, p, err
}

// StrAt is ObjectAt for a value that must be a string; absent or null
// reads as "".
func (o *Object) StrAt(m *yaml.Node, p *field.Path, keys ...string) (string, error) {
	v, p, err := o.walk(m, p, keys...)
	if err != nil {
		return "", err
	}
	return o.str(v, p)
}

// EachName calls fn with the string at name below each item of the array
// at list below m (at p), in order: the shape of every reference list in a
// pod spec (imagePullSecrets[].name, env[].valueFrom.secretKeyRef.name, …).
// An item whose object holding the name is absent or null (an env entry
// without secretKeyRef) names nothing and is passed over; one holding no
// name names "", as its typed reference would.
func (o *Object) EachName(m *yaml.Node, p *field.Path, list, name []string, fn func(string)) error {
	items, lp, err := o.ListAt(m, p, list...)
	if err != nil {
		return err
	}
	for i, item := range items {
		s, ok, err := o.refName(item, lp.Index(i), name...)
		if err != nil {
			return err
		}
		if ok {
			fn(s)
		}
	}
	return nil
}

// refName reads the name at keys below m (at p), and whether the object
// holding it (keys but the last) is there. The typed visitors look at a
// reference only when its pointer is set, so an absent or null holder
// names nothing, while a holder without the name names "".
func (o *Object) refName(m *yaml.Node, p *field.Path, keys ...string) (string, bool, error) {
	holder, hp, err := o.ObjectAt(m, p, keys[:len(keys)-1]...)
	if err != nil || holder == nil {
		return "", false, err
	}
	s, err := o.StrAt(holder, hp, keys[len(keys)-1])
	return s, err == nil, err
}
