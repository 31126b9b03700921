// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
)

// Env is one entry of overriders.envs
// (kubeadmiral pkg/apis/core/v1alpha1 EnvOverrider @19de01c).
type Env struct {
	// ContainerName selects the first container of that name,
	// initContainers first. No match: the overrider is skipped.
	ContainerName string
	// Operator is addIfAbsent, overwrite (also when empty) or delete.
	Operator string
	// Value holds the policy's EnvVar mapping nodes, e.g.
	// {name: LOG_LEVEL, value: debug}. They are read as corev1.EnvVar:
	// unknown fields are dropped, an empty value is omitted.
	Value []*yaml.Node
}

// Envs is a rule's overriders.envs list
// (kubeadmiral pkg/controllers/override/envspatch.go parseEnvOverriders).
// Per value item, addIfAbsent appends (and fails if the name exists),
// overwrite replaces every entry of that name with the whole item (and
// never adds), delete removes every entry of that name. Patches returns one
// replace of the whole env list per touched container, sorted by path and
// re-serialised as typed corev1.EnvVar; a list that ends up nil is null.
type Envs []Env

var _ Patcher = Envs{}

// Patches computes the env patches for obj.
func (o Envs) Patches(obj *yaml.Node) (yamlpatch.Patch, error) {
	return o.patchesAs(obj, GVK(objectNode(obj)))
}

func (o Envs) patchesAs(obj *yaml.Node, gvk schema.GroupVersionKind) (yamlpatch.Patch, error) {
	if len(o) == 0 {
		return nil, nil
	}
	patch, err := o.build(objectNode(obj), gvk)
	if err != nil {
		return nil, fmt.Errorf("failed to parse env overriders: %w", err)
	}
	return patch, nil
}

func (o Envs) build(obj *yaml.Node, gvk schema.GroupVersionKind) (yamlpatch.Patch, error) {
	containers, err := podContainers(obj, gvk)
	if err != nil {
		return nil, err
	}
	lists := map[string][]envVar{}
	for i := range o {
		ov := &o[i]
		c := firstContainer(containers, ov.ContainerName)
		if c == nil {
			continue
		}
		path := c.path + "/env"
		cur, ok := lists[path]
		if !ok {
			cur = c.Env
		}
		values, err := ov.values()
		if err != nil {
			return nil, err
		}
		if lists[path], err = ov.apply(cur, values); err != nil {
			return nil, fmt.Errorf("failed to apply env override: %w", err)
		}
	}
	return replaceSorted(lists, func(l []envVar) (*yaml.Node, error) {
		data, err := json.Marshal(l)
		if err != nil {
			return nil, fmt.Errorf("failed to marshal env value(%v): %w", l, err)
		}
		return jSONNode(data)
	})
}

// values decodes the policy's EnvVars. Upstream's CRD schema guarantees
// their shape; a value of the wrong type is reported here.
func (ov *Env) values() ([]envVar, error) {
	values := make([]envVar, len(ov.Value))
	for i, n := range ov.Value {
		if n == nil || yamlnode.IsNullScalar(yamlnode.Deref(n)) {
			continue
		}
		if err := decodeTyped(n, &values[i]); err != nil {
			return nil, fmt.Errorf("value[%d] of the env overrider for container %q: %w", i, ov.ContainerName, err)
		}
	}
	return values, nil
}

// apply is applyEnvOverrider. old is never modified.
func (ov *Env) apply(old, values []envVar) ([]envVar, error) {
	operator := ov.Operator
	if operator == "" {
		operator = opOverwrite
	}
	if operator == opAddIfAbsent && len(values) == 0 {
		return nil, fmt.Errorf("%s operation needs value", opAddIfAbsent)
	}
	value := old
	if value != nil {
		value = append(make([]envVar, 0, len(old)), old...)
	}
	has := func(name string) bool {
		for _, e := range value {
			if e.Name == name {
				return true
			}
		}
		return false
	}
	for _, env := range values {
		switch operator {
		case opAddIfAbsent:
			if has(env.Name) {
				return nil, fmt.Errorf("%s is not allowed to operate on exist key:%s", opAddIfAbsent, env.Name)
			}
			value = append(value, env)
		case opOverwrite:
			for i := range value {
				if value[i].Name == env.Name {
					value[i] = env
				}
			}
		case opDelete:
			if !has(env.Name) {
				continue
			}
			var kept []envVar // nil when nothing is left: written as null
			for _, e := range value {
				if e.Name != env.Name {
					kept = append(kept, e)
				}
			}
			value = kept
		default:
			return nil, fmt.Errorf("unsupported operator:%s", operator)
		}
	}
	return value, nil
}
