// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
	"github.com/apply-overrides/apply-overrides/internal/yamlvalue"
)

// CommandArgs is Karmada's commandOverrider or argsOverrider
// (karmada pkg/util/overridemanager/commandargsoverride.go @f8fdd02).
type CommandArgs struct {
	// Field is "command" or "args".
	Field string
	// ContainerName selects the containers (all of them, if the name
	// repeats) under spec.containers; initContainers are never searched.
	ContainerName string
	// Operator is add (append Value) or remove (drop every item equal to
	// an entry of Value). Anything else keeps the current list.
	Operator string
	// Value is e.g. ["--v=4"].
	Value []string
}

var _ yaml.Filter = CommandArgs{}

// Filter edits the command or args of the named containers in place.
func (o CommandArgs) Filter(rn *yaml.RNode) (*yaml.RNode, error) {
	return editDoc(rn, o.apply)
}

// containersPath is buildCommandArgsPatches' kind switch.
func containersPath(kind string) string {
	switch kind {
	case "Pod":
		return "spec/containers"
	case "ReplicaSet", "Deployment", "DaemonSet", "Job", "StatefulSet":
		return "spec/template/spec/containers"
	}
	return ""
}

func (o CommandArgs) apply(doc *yaml.Node) error {
	cpath := containersPath(kindOf(doc))
	if cpath == "" {
		return nil
	}
	containers, err := nestedSlice(doc, strings.Split(cpath, "/"))
	if err != nil {
		return fmt.Errorf("failed to retrieves path(%s) from rawObj, error: %w", cpath, err)
	}
	if containers == nil {
		return nil
	}
	// Upstream asserts every container is an object (and panics otherwise)
	// before it looks at names, and builds all patches before applying any.
	type target struct {
		path      string
		container *yaml.Node
		list      *yaml.Node // nil: absent or null
	}
	var targets []target
	for i, c := range containers.Content {
		c = yamlnode.Deref(c)
		p := fmt.Sprintf("/%s/%d", cpath, i)
		if c.Kind != yaml.MappingNode {
			return prefixed(p, fmt.Errorf("%s, expected map[string]interface{}", describe(c)))
		}
		name := yamlnode.MapGet(c, "name")
		if name == nil || !yamlpatch.IsString(name) || name.Value != o.ContainerName {
			continue
		}
		t := target{path: p + "/" + o.Field, container: c, list: yamlnode.MapGet(c, o.Field)}
		if t.list != nil && !yamlnode.IsNullScalar(t.list) && t.list.Kind != yaml.SequenceNode {
			return prefixed(t.path, fmt.Errorf("%s, expected []interface{}", describe(t.list)))
		}
		targets = append(targets, t)
	}
	for _, t := range targets {
		if err := o.edit(doc, t.path, t.list); err != nil {
			return err
		}
		settleLineComment(t.container, o.Field)
	}
	return nil
}

// edit applies the operator to one container's list. An absent or null
// field becomes the add of overrideCommandArgs([]), which is Value for add
// and [] otherwise; a present list is rewritten item by item so comments
// on kept items survive.
func (o CommandArgs) edit(doc *yaml.Node, path string, list *yaml.Node) error {
	if list == nil || yamlnode.IsNullScalar(list) {
		var items []string
		if o.Operator == OpAdd {
			items = o.Value
		}
		if list != nil { // null: turn the node into the list, keeping its comments
			list.Kind, list.Tag, list.Value, list.Style = yaml.SequenceNode, yaml.NodeTagSeq, "", 0
			list.Content = yamlvalue.StringNodes(items)
			return nil
		}
		seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: yaml.NodeTagSeq, Content: yamlvalue.StringNodes(items)}
		if err := (yamlpatch.Patch{{Op: OpAdd, Path: path, Value: seq}}).Apply(doc); err != nil {
			return prefixed(path, err)
		}
		return nil
	}
	// Upstream reads each item with fmt.Sprintf("%s"), so a non-string item
	// is rewritten as that string (e.g. "%!s(int64=8080)").
	for i, item := range list.Content {
		if it := yamlnode.Deref(item); !yamlpatch.IsString(it) {
			list.Content[i] = asString(item, fmt.Sprintf("%s", yamlvalue.ToUnstructured(it)))
		}
	}
	switch o.Operator {
	case OpAdd:
		if len(list.Content) == 0 && len(o.Value) > 0 {
			list.Style &^= yaml.FlowStyle // `[]` grows into a block list
		}
		list.Content = append(list.Content, yamlvalue.StringNodes(o.Value)...)
	case OpRemove:
		drop := make(map[string]bool, len(o.Value))
		for _, v := range o.Value {
			drop[v] = true
		}
		kept := list.Content[:0]
		for _, item := range list.Content {
			if !drop[yamlnode.Deref(item).Value] {
				kept = append(kept, item)
			}
		}
		list.Content = kept
	}
	return nil
}

// asString turns item into the string s: a scalar is set in place, any
// other node is swapped for a new scalar that inherits its comments.
func asString(item *yaml.Node, s string) *yaml.Node {
	if item.Kind == yaml.ScalarNode {
		yamlpatch.SetString(item, s)
		return item
	}
	n := yamlvalue.NewString(s)
	n.HeadComment, n.LineComment, n.FootComment = item.HeadComment, item.LineComment, item.FootComment
	return n
}

// nestedSlice is unstructured.NestedSlice: nil without error when a level
// is missing or null, an accessor error when a level is not an object or
// the value is not a list. An empty list also yields nil.
func nestedSlice(doc *yaml.Node, fields []string) (*yaml.Node, error) {
	cur := doc
	for i, f := range fields {
		if yamlnode.IsNullScalar(cur) {
			return nil, nil
		}
		if cur.Kind != yaml.MappingNode {
			return nil, fmt.Errorf(".%s accessor error: %s, expected map[string]interface{}", strings.Join(fields[:i+1], "."), describe(cur))
		}
		if cur = yamlnode.MapGet(cur, f); cur == nil {
			return nil, nil
		}
	}
	if cur.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf(".%s accessor error: %s, expected []interface{}", strings.Join(fields, "."), describe(cur))
	}
	if len(cur.Content) == 0 {
		return nil, nil
	}
	return cur, nil
}
