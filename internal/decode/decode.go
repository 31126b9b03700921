// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package decode turns YAML nodes into Go API structs strictly, the way an
// apiserver with strict field validation would accept or reject a manifest:
// unknown fields, missing required fields and values of the wrong type are
// reported as field errors that carry the full field path, e.g.
// "spec.overrideRules[0].overriders.imageOverrider[0].component: Required value".
//
// Struct fields are named by their `yaml` tag; a `required:"true"` tag makes
// the key mandatory. Supported field types are string, bool, int, structs,
// pointers to structs (nil when absent or null), slices (nil when absent,
// empty when `[]`), map[string]string, and *yaml.Node, which keeps the raw
// node (for free-form JSON values), and any, which gets the node's JSON value
// as encoding/json decodes it (map[string]any, []any, float64, string, bool).
//
// Options.CRD decodes as the apiserver reads a custom resource whose CRD has
// no nullable field (Karmada's and KubeAdmiral's): an explicit null is pruned
// before validation, so a null required field is reported as missing.
package decode

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
)

var nodeType = reflect.TypeOf((*yaml.Node)(nil))

// Options changes how a manifest is read.
type Options struct {
	// CRD reads a null the way the apiserver does for a CRD field that is
	// not nullable and has no default (apiextensions-apiserver
	// structuraldefaulting.PruneNonNullableNullsWithoutDefaults): a null
	// field of an object, or a null value of a map, is dropped, so that a
	// required field given as null (`overriders:` followed by nothing but a
	// comment) is a missing one; a null list item is a value of the wrong
	// type. Without CRD, a null field is the field's zero value.
	CRD bool
}

// Decode decodes node into out, a pointer to a value of a supported type
// (usually a struct), with the default Options.
func Decode(node *yaml.Node, path *field.Path, out any) field.ErrorList {
	return Options{}.Decode(node, path, out)
}

// Decode decodes node into out, a pointer to a value of a supported type
// (usually a struct).
func (o Options) Decode(node *yaml.Node, path *field.Path, out any) field.ErrorList {
	v := reflect.ValueOf(out)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return field.ErrorList{field.InternalError(path, fmt.Errorf("decode target must be a non-nil pointer, got %T", out))}
	}
	return o.decodeValue(yamlnode.Resolve(node), path, v.Elem())
}

func (o Options) decodeValue(n *yaml.Node, path *field.Path, v reflect.Value) field.ErrorList {
	if v.Type() == nodeType {
		if n != nil {
			v.Set(reflect.ValueOf(n))
		}
		return nil
	}
	if yamlnode.IsNull(n) {
		return nil // absent and null leave the zero value
	}
	switch v.Kind() {
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		errs := o.decodeValue(n, path, p.Elem())
		v.Set(p)
		return errs
	case reflect.Struct:
		return o.decodeStruct(n, path, v)
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			return field.ErrorList{typeError(path, n, "array")}
		}
		s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
		var errs field.ErrorList
		for i, item := range n.Content {
			item = yamlnode.Resolve(item)
			if o.CRD && yamlnode.IsNull(item) && s.Index(i).Type() != nodeType {
				// Not pruned: the apiserver keeps list items as they are,
				// and its schema check then rejects the null.
				errs = append(errs, typeError(path.Index(i), item, schemaType(s.Index(i).Type())))
				continue
			}
			errs = append(errs, o.decodeValue(item, path.Index(i), s.Index(i))...)
		}
		v.Set(s)
		return errs
	case reflect.Map:
		if n.Kind != yaml.MappingNode || v.Type().Key().Kind() != reflect.String {
			return field.ErrorList{typeError(path, n, "object")}
		}
		m := reflect.MakeMapWithSize(v.Type(), len(n.Content)/2)
		var errs field.ErrorList
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := n.Content[i].Value
			if o.CRD && yamlnode.IsNull(n.Content[i+1]) {
				continue // pruned
			}
			ev := reflect.New(v.Type().Elem()).Elem()
			errs = append(errs, o.decodeValue(yamlnode.Resolve(n.Content[i+1]), path.Key(key), ev)...)
			m.SetMapIndex(reflect.ValueOf(key).Convert(v.Type().Key()), ev)
		}
		v.Set(m)
		return errs
	case reflect.String:
		if n.Kind != yaml.ScalarNode || n.ShortTag() != yaml.NodeTagString {
			return field.ErrorList{typeError(path, n, "string")}
		}
		v.SetString(n.Value)
	case reflect.Bool:
		b, err := strconv.ParseBool(n.Value)
		if n.Kind != yaml.ScalarNode || n.ShortTag() != yaml.NodeTagBool || err != nil {
			return field.ErrorList{typeError(path, n, "boolean")}
		}
		v.SetBool(b)
	case reflect.Interface:
		if v.NumMethod() != 0 {
			return field.ErrorList{field.InternalError(path, fmt.Errorf("unsupported field type %s", v.Type()))}
		}
		var x any
		if err := n.Decode(&x); err != nil {
			return field.ErrorList{field.Invalid(path, jsonType(n), err.Error())}
		}
		j, err := json.Marshal(x)
		if err == nil {
			err = json.Unmarshal(j, &x)
		}
		if err != nil {
			return field.ErrorList{field.Invalid(path, jsonType(n), err.Error())}
		}
		v.Set(reflect.ValueOf(&x).Elem())
	case reflect.Int, reflect.Int32, reflect.Int64:
		i, err := strconv.ParseInt(n.Value, 0, 64)
		if n.Kind != yaml.ScalarNode || n.ShortTag() != yaml.NodeTagInt || err != nil {
			return field.ErrorList{typeError(path, n, "integer")}
		}
		if v.OverflowInt(i) {
			return field.ErrorList{field.Invalid(path, i, fmt.Sprintf("must fit in a %d-bit integer", v.Type().Bits()))}
		}
		v.SetInt(i)
	default:
		return field.ErrorList{field.InternalError(path, fmt.Errorf("unsupported field type %s", v.Type()))}
	}
	return nil
}

func (o Options) decodeStruct(n *yaml.Node, path *field.Path, v reflect.Value) field.ErrorList {
	if n.Kind != yaml.MappingNode {
		return field.ErrorList{typeError(path, n, "object")}
	}
	t := v.Type()
	byName := make(map[string]int, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		if name := fieldName(t.Field(i)); name != "" {
			byName[name] = i
		}
	}
	var errs field.ErrorList
	seen := make(map[string]bool, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		key := n.Content[i].Value
		idx, ok := byName[key]
		if !ok {
			errs = append(errs, field.Forbidden(path.Child(key), "unknown field"))
			continue
		}
		if seen[key] {
			errs = append(errs, field.Duplicate(path.Child(key), key))
			continue
		}
		if o.CRD && yamlnode.IsNull(n.Content[i+1]) {
			continue // pruned: absent, and missing when required
		}
		seen[key] = true
		errs = append(errs, o.decodeValue(yamlnode.Resolve(n.Content[i+1]), path.Child(key), v.Field(idx))...)
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if name := fieldName(f); name != "" && f.Tag.Get("required") == "true" && !seen[name] {
			errs = append(errs, field.Required(path.Child(name), ""))
		}
	}
	return errs
}

func fieldName(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	if name == "-" {
		return ""
	}
	return name
}

// typeError mirrors the apiserver's schema message for a value of the wrong type.
func typeError(path *field.Path, n *yaml.Node, want string) *field.Error {
	return field.Invalid(path, jsonType(n), fmt.Sprintf("must be of type %s", want))
}

// schemaType names the JSON type a Go field decodes from.
func schemaType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return schemaType(t.Elem())
	case reflect.Struct, reflect.Map:
		return "object"
	case reflect.Slice:
		return "array"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int32, reflect.Int64:
		return "integer"
	case reflect.String:
		return "string"
	}
	return "object"
}

func jsonType(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "object"
	case yaml.SequenceNode:
		return "array"
	}
	switch n.ShortTag() {
	case yaml.NodeTagString:
		return "string"
	case yaml.NodeTagBool:
		return "boolean"
	case yaml.NodeTagInt:
		return "integer"
	case yaml.NodeTagFloat:
		return "number"
	case yaml.NodeTagNull:
		return "null"
	}
	return n.ShortTag()
}
