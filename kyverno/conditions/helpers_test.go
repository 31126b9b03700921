// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package conditions

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// fromYAML parses YAML into a JSON value.
func fromYAML(t *testing.T, s string) any {
	t.Helper()
	var v any
	require.NoError(t, yaml.Unmarshal([]byte(s), &v))
	return v
}

var (
	wholeVar    = regexp.MustCompile(`^\{\{\s*(.*?)\s*\}\}$`)
	embeddedVar = regexp.MustCompile(`\{\{\s*(.*?)\s*\}\}`)
	pathSegment = regexp.MustCompile(`^(?:"([^"]*)"|([A-Za-z_][A-Za-z0-9_-]*))((?:\[\d+\])*)`)
)

// fixture is a trivial substituter: `{{ request.object.<path> }}` reads the
// resource (dotted keys, "quoted" keys and [n] indexes), other variables come
// from vars. A string that is exactly one variable takes the value's type;
// otherwise values are spliced in as text. A missing key is an error shaped
// like upstream's.
type fixture struct {
	resource any
	vars     map[string]any
}

func (f fixture) subst(v any) (any, error) {
	switch t := v.(type) {
	case string:
		if m := wholeVar.FindStringSubmatch(t); m != nil {
			return f.resolve(m[1])
		}
		var err error
		out := embeddedVar.ReplaceAllStringFunc(t, func(s string) string {
			r, rerr := f.resolve(embeddedVar.FindStringSubmatch(s)[1])
			if rerr != nil {
				err = rerr
				return ""
			}
			if str, ok := r.(string); ok {
				return str
			}
			b, merr := json.Marshal(r)
			if merr != nil {
				err = merr
			}
			return string(b)
		})
		return out, err
	case []any:
		for i := range t {
			r, err := f.subst(t[i])
			if err != nil {
				return nil, err
			}
			t[i] = r
		}
		return t, nil
	case map[string]any:
		for k := range t {
			r, err := f.subst(t[k])
			if err != nil {
				return nil, err
			}
			t[k] = r
		}
		return t, nil
	}
	return v, nil
}

func (f fixture) resolve(expr string) (any, error) {
	if v, ok := f.vars[expr]; ok {
		return v, nil
	}
	rest, ok := strings.CutPrefix(expr, "request.object.")
	if !ok {
		return nil, fmt.Errorf("failed to resolve %s at path : unknown variable", expr)
	}
	cur := f.resource
	for rest != "" {
		m := pathSegment.FindStringSubmatch(rest)
		if m == nil {
			return nil, fmt.Errorf("bad path %q", rest)
		}
		key := m[1] + m[2]
		obj, _ := cur.(map[string]any)
		next, ok := obj[key]
		if !ok {
			return nil, fmt.Errorf("failed to resolve %s at path : JMESPath query failed: Unknown key %q in path", expr, key)
		}
		cur = next
		for _, idx := range regexp.MustCompile(`\d+`).FindAllString(m[3], -1) {
			n, err := strconv.Atoi(idx)
			if err != nil {
				return nil, err
			}
			list, _ := cur.([]any)
			if n >= len(list) {
				return nil, nil
			}
			cur = list[n]
		}
		rest = strings.TrimPrefix(rest[len(m[0]):], ".")
	}
	return cur, nil
}
