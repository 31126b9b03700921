// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package functions

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"

	"sigs.k8s.io/yaml"
)

func labelMatch(args []any) (any, error) {
	labels, ok := args[0].(map[string]any)
	if !ok {
		return nil, errArgType("label_match", 0, "Object")
	}
	target, ok := args[1].(map[string]any)
	if !ok {
		return nil, errArgType("label_match", 1, "Object")
	}
	for k, v := range labels {
		if got, ok := target[k]; !ok || !reflect.DeepEqual(got, v) {
			return false, nil
		}
	}
	return true, nil
}

// lookup returns null for a missing key or an index out of range.
func lookup(args []any) (any, error) {
	switch in := args[0].(type) {
	case map[string]any:
		key, ok := args[1].(string)
		if !ok {
			return nil, errArgType("lookup", 2, "String")
		}
		return in[key], nil
	case []any:
		f, ok := args[1].(float64)
		if !ok {
			return nil, errArgType("lookup", 2, "Number")
		}
		i, err := intNumber(f)
		if err != nil {
			return nil, fmt.Errorf("JMESPath function 'lookup': argument #2: %s", err.Error())
		}
		if i < 0 || i > len(in)-1 {
			return nil, nil
		}
		return in[i], nil
	}
	return nil, errArgType("lookup", 1, "Object or Array")
}

// items returns []map[string]any (not []any), keys sorted, like upstream.
func items(args []any) (any, error) {
	keyName, ok := args[1].(string)
	if !ok {
		return nil, errArgType("items", 2, "String")
	}
	valName, ok := args[2].(string)
	if !ok {
		return nil, errArgType("items", 3, "String")
	}
	switch in := args[0].(type) {
	case map[string]any:
		keys := make([]string, 0, len(in))
		for k := range in {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make([]map[string]any, 0, len(in))
		for _, k := range keys {
			out = append(out, map[string]any{keyName: k, valName: in[k]})
		}
		return out, nil
	case []any:
		out := make([]map[string]any, 0, len(in))
		for i, v := range in {
			out = append(out, map[string]any{keyName: float64(i), valName: v})
		}
		return out, nil
	}
	return nil, errArgType("items", 1, "Object or Array")
}

func objectFromLists(args []any) (any, error) {
	keys, ok := args[0].([]any)
	if !ok {
		return nil, errArgType("object_from_lists", 1, "Array")
	}
	values, ok := args[1].([]any)
	if !ok {
		return nil, errArgType("object_from_lists", 2, "Array")
	}
	out := map[string]any{}
	for i, k := range keys {
		key, err := toString(k)
		if err != nil {
			return nil, errArgType("object_from_lists", 1, "StringArray")
		}
		if i < len(values) {
			out[key] = values[i]
		} else {
			out[key] = nil
		}
	}
	return out, nil
}

// parseJSON decodes with encoding/json; its errors are returned as they are.
func parseJSON(args []any) (any, error) {
	s, err := argString("parse_json", args, 0)
	if err != nil {
		return nil, err
	}
	var out any
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		return nil, err
	}
	return out, nil
}

func parseYAML(args []any) (any, error) {
	s, err := argString("parse_yaml", args, 0)
	if err != nil {
		return nil, err
	}
	data, err := yaml.YAMLToJSON([]byte(s))
	if err != nil {
		return nil, err
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, err
	}
	return out, nil
}
