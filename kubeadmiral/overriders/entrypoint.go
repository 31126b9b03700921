// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
	"github.com/apply-overrides/apply-overrides/internal/yamlvalue"
)

// Entrypoint is one entry of overriders.command or
// overriders.args (kubeadmiral pkg/apis/core/v1alpha1 EntrypointOverrider
// @19de01c).
type Entrypoint struct {
	// ContainerName selects the first container of that name,
	// initContainers first. No match: the overrider is skipped.
	ContainerName string
	// Operator is append, overwrite or delete, used verbatim: unlike what
	// the API comment says, there is no default, and "" is an error.
	Operator string
	// Value is e.g. ["--v=4"]. For overwrite, nil (value omitted or null)
	// writes null and an empty non-nil slice writes [].
	Value []string
}

// entrypoints is a rule's overriders.command or overriders.args
// list (kubeadmiral pkg/controllers/override/commandargspatch.go
// parseEntrypointOverriders). The overriders run in order; those that hit
// the same container see each other's result. Patches returns one replace
// of the whole list per touched container, sorted by path, even where the
// list is unchanged; a list that ends up nil is written as null.
type entrypoints struct {
	// Field is "command" or "args".
	Field      string
	Overriders []Entrypoint
}

var _ Patcher = entrypoints{}

// Patches computes the command or args patches for obj.
func (o entrypoints) Patches(obj *yaml.Node) (yamlpatch.Patch, error) {
	return o.patchesAs(obj, GVK(objectNode(obj)))
}

func (o entrypoints) patchesAs(obj *yaml.Node, gvk schema.GroupVersionKind) (yamlpatch.Patch, error) {
	if o.Field != "command" && o.Field != "args" {
		return nil, fmt.Errorf("entrypoint field must be command or args, not %q", o.Field)
	}
	if len(o.Overriders) == 0 {
		return nil, nil
	}
	patch, err := o.build(objectNode(obj), gvk)
	if err != nil {
		return nil, fmt.Errorf("failed to parse %s overriders: %w", o.Field, err)
	}
	return patch, nil
}

func (o entrypoints) build(obj *yaml.Node, gvk schema.GroupVersionKind) (yamlpatch.Patch, error) {
	containers, err := podContainers(obj, gvk)
	if err != nil {
		return nil, err
	}
	lists := map[string][]string{}
	for i := range o.Overriders {
		ov := &o.Overriders[i]
		c := firstContainer(containers, ov.ContainerName)
		if c == nil {
			continue
		}
		path := c.path + "/" + o.Field
		cur, ok := lists[path]
		if !ok {
			cur = c.Command
			if o.Field == "args" {
				cur = c.Args
			}
		}
		if lists[path], err = ov.apply(cur); err != nil {
			return nil, fmt.Errorf("failed to apply %s override: %w", o.Field, err)
		}
	}
	return replaceSorted(lists, func(l []string) (*yaml.Node, error) { return stringList(l), nil })
}

// apply is applyEntrypointOverrider.
func (ov *Entrypoint) apply(old []string) ([]string, error) {
	switch ov.Operator {
	case opAppend:
		if len(ov.Value) == 0 {
			return nil, fmt.Errorf("%s operation needs non-empty list", opAppend)
		}
		return append(append([]string(nil), old...), ov.Value...), nil
	case opOverwrite:
		return ov.Value, nil
	case opDelete:
		drop := make(map[string]bool, len(ov.Value))
		for _, v := range ov.Value {
			drop[v] = true
		}
		var kept []string
		for _, v := range old {
			if !drop[v] {
				kept = append(kept, v)
			}
		}
		return kept, nil
	}
	return nil, fmt.Errorf("unsupported operator:%s", ov.Operator)
}

// stringList is the JSON of a []string: null when nil.
func stringList(values []string) *yaml.Node {
	if values == nil {
		return nullNode()
	}
	return &yaml.Node{Kind: yaml.SequenceNode, Tag: yaml.NodeTagSeq, Content: yamlvalue.StringNodes(values)}
}
