// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package jsonpatch

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

const conformanceDir = "../../testdata/conformance/kyverno"

// confCase is a conformance case file.
type confCase struct {
	t    *testing.T
	root *yaml.RNode
}

func loadCase(t *testing.T, name string) confCase {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(conformanceDir, name+".yaml"))
	require.NoError(t, err)
	root, err := yaml.Parse(string(b))
	require.NoError(t, err)
	return confCase{t: t, root: root}
}

func (c confCase) items(field string) []*yaml.RNode {
	list, err := c.root.Pipe(yaml.Lookup(field))
	require.NoError(c.t, err)
	if list == nil {
		return nil
	}
	items, err := list.Elements()
	require.NoError(c.t, err)
	return items
}

// patch returns the patchesJson6902 of rule r of policy p (of its first
// foreach entry with foreach set), with the variables of vars substituted
// textually, as Kyverno substitutes them before it parses the patch.
func (c confCase) patch(p, r int, foreach bool, vars map[string]string) string {
	path := []string{"policies", fmt.Sprint(p), "spec", "rules", fmt.Sprint(r), "mutate"}
	if foreach {
		path = append(path, "foreach", "0")
	}
	path = append(path, "patchesJson6902")
	n, err := c.root.Pipe(yaml.Lookup(path...))
	require.NoError(c.t, err)
	require.NotNil(c.t, n, "no patch at %v", path)
	s := n.YNode().Value
	for k, v := range vars {
		require.Contains(c.t, s, k)
		s = strings.ReplaceAll(s, k, v)
	}
	require.NotContains(c.t, s, "{{", "unsubstituted variable")
	return s
}

// jsonOf is the JSON value of n (maps compare unordered, lists ordered).
func jsonOf(t *testing.T, n *yaml.RNode) any {
	t.Helper()
	b, err := n.MarshalJSON()
	require.NoError(t, err)
	var v any
	require.NoError(t, json.Unmarshal(b, &v))
	return v
}

// TestConformance applies the patches of every conformance case that has
// patchesJson6902 to its resources and compares the outcome with the
// case's expected resources or error. Matching, preconditions and variable
// substitution belong to the engine: the table says which rules apply to
// which resource, in order, and gives the substituted variables.
func TestConformance(t *testing.T) {
	tests := map[string]func(c confCase) [][]string{
		"jp-add-creates-missing-parents": func(c confCase) [][]string {
			return [][]string{{c.patch(0, 0, false, nil)}}
		},
		"jp-append-env-from-other-field": func(c confCase) [][]string {
			// the second rule's precondition (two containers) fails
			return [][]string{{c.patch(0, 0, false, map[string]string{
				"{{request.object.spec.containers[0].image}}": "public.ecr.aws/docker/library/busybox:1.11",
			})}}
		},
		"jp-copy-into-missing-parent-errors": func(c confCase) [][]string {
			return [][]string{{c.patch(0, 0, false, nil)}}
		},
		"jp-negative-index-replace-and-add": func(c confCase) [][]string {
			return [][]string{{c.patch(0, 0, false, nil)}}
		},
		"jp-object-from-lists-context": func(c confCase) [][]string {
			return [][]string{{c.patch(0, 0, false, map[string]string{
				"{{ annotations }}": `{"key1":"1","key2":"1"}`,
			})}}
		},
		"jp-remove-indices-ascending-shifts": func(c confCase) [][]string {
			return [][]string{{c.patch(0, 0, false, nil)}}
		},
		"jp-replace-json-array-form-with-selector": func(c confCase) [][]string {
			return [][]string{{c.patch(0, 0, false, nil)}, nil} // the selector skips the second
		},
		"jp-replace-missing-path-errors": func(c confCase) [][]string {
			return [][]string{{c.patch(0, 0, false, nil)}}
		},
		"jp-replace-value-with-variable": func(c confCase) [][]string {
			return [][]string{{c.patch(0, 0, false, map[string]string{
				"{{request.object.spec.rules[0].host}}": "kuard",
			})}}
		},
		"jp-test-op-failure-errors": func(c confCase) [][]string {
			return [][]string{{c.patch(0, 0, false, nil)}}
		},
		"jp-test-op-pass-then-add": func(c confCase) [][]string {
			return [][]string{{c.patch(0, 0, false, nil)}}
		},
		"fe-jsonpatch-element-index": func(c confCase) [][]string {
			return [][]string{{
				c.patch(0, 0, true, map[string]string{"{{elementIndex}}": "0"}),
				c.patch(0, 0, true, map[string]string{"{{elementIndex}}": "1"}),
			}}
		},
		"fe-jsonpatch-remove-descending-all": func(c confCase) [][]string {
			return [][]string{{
				c.patch(0, 0, true, map[string]string{"{{elementIndex}}": "1"}),
				c.patch(0, 0, true, map[string]string{"{{elementIndex}}": "0"}),
			}}
		},
		"match-exclude-annotations-and-cascading-jsonpatch": func(c confCase) [][]string {
			// both rules apply to the first pod (the second sees the
			// first's output); the second pod is excluded
			return [][]string{{c.patch(0, 0, false, nil), c.patch(0, 1, false, nil)}, nil}
		},
	}
	for _, glob := range []string{"jp-*.yaml", "fe-jsonpatch-*.yaml"} {
		files, err := filepath.Glob(filepath.Join(conformanceDir, glob))
		require.NoError(t, err)
		require.NotEmpty(t, files)
		for _, f := range files {
			name := strings.TrimSuffix(filepath.Base(f), ".yaml")
			assert.Contains(t, tests, name, "conformance case without a row here")
		}
	}
	for name, steps := range tests {
		t.Run(name, func(t *testing.T) {
			c := loadCase(t, name)
			resources := c.items("resources")
			plan := steps(c)
			require.Len(t, plan, len(resources))
			wantErr := ""
			if n, err := c.root.Pipe(yaml.Lookup("expectError")); err == nil && n != nil {
				wantErr = n.YNode().Value
			}
			var gotErr error
			for i, r := range resources {
				before := jsonOf(t, r)
				for _, p := range plan[i] {
					if err := Apply(r, p); err != nil {
						gotErr = err
						assert.Equal(t, before, jsonOf(t, r), "a failed patch must leave the resource alone")
						break
					}
					before = jsonOf(t, r)
				}
			}
			if wantErr != "" {
				require.Error(t, gotErr)
				assert.Contains(t, "failed to patch resource: "+gotErr.Error(), wantErr)
				return
			}
			require.NoError(t, gotErr)
			expected := c.items("expected")
			require.Len(t, expected, len(resources))
			for i := range resources {
				assert.Equal(t, jsonOf(t, expected[i]), jsonOf(t, resources[i]), "resource %d", i)
			}
		})
	}
}

// TestConformanceVariableInPath checks what the caller needs for
// err-jp-variable-in-path: the raw patch's path, variable included.
func TestConformanceVariableInPath(t *testing.T) {
	c := loadCase(t, "err-jp-variable-in-path")
	n, err := c.root.Pipe(yaml.Lookup("policies", "0", "spec", "rules", "0", "mutate", "patchesJson6902"))
	require.NoError(t, err)
	paths, err := Paths(n.YNode().Value)
	require.NoError(t, err)
	assert.Equal(t, []string{"/metadata/labels/{{request.object.metadata.name}}"}, paths)
	assert.NoError(t, Validate(n.YNode().Value), "the variable is replaced before the slash check")
}
