// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"fmt"
	"testing"
)

// An in-place edit must not leak through a YAML alias into the other
// places that share the anchor: upstream patches the JSON view, where
// every alias is a separate copy.
func TestAliasesAreNotShared(t *testing.T) {
	runCases(t, map[string]filterCase{
		"labels shared with annotations": {
			input:    withMeta("labels: &common\n  team: web # team\nannotations: *common\n"),
			filter:   labels("add", "tier", "backend"),
			expected: withMeta("labels: &common\n  team: web # team\n  tier: backend\nannotations:\n  team: web # team\n"),
		},
		"args shared between containers": {
			input: pod(`containers:
- name: a
  args: &args [--v=1] # shared
- name: b
  args: *args
`),
			filter: CommandArgs{Field: "args", ContainerName: "b", Operator: "add", Value: []string{"--v=2"}},
			expected: pod(`containers:
- name: a
  args: &args [--v=1] # shared
- name: b
  args: [--v=1, --v=2] # shared
`),
		},
		"an image shared between containers": {
			input: pod(`containers:
- name: a
  image: &img nginx:1.25 # shared
- name: b
  image: *img
`),
			filter: Image{Predicate: ptr("/spec/containers/1/image"), Component: "Tag", Operator: "replace", Value: "1.26"},
			expected: pod(`containers:
- name: a
  image: &img nginx:1.25 # shared
- name: b
  image: nginx:1.26 # shared
`),
		},
		"a filter that fails leaves the aliases in place": {
			input:       pod("containers:\n- name: a\n  image: &img Nginx # shared\n- name: b\n  image: *img\n"),
			filter:      Image{Component: "Tag", Operator: "replace", Value: "1.26"},
			expectedErr: "/spec/containers/0/image: failed to parse image value(Nginx), error: repository name must be lowercase",
		},
	})
}

func TestAliasBomb(t *testing.T) {
	doc := "kind: Pod\nmetadata:\n  name: bomb\nl0: &l0 [x, x]\n"
	for i := 1; i <= 40; i++ {
		doc += fmt.Sprintf("l%d: &l%d [*l%d, *l%d]\n", i, i, i-1, i-1)
	}
	runFilter(t, filterCase{
		input:       doc,
		filter:      labels("add", "a", "b"),
		expectedErr: "expanding the document's YAML aliases would exceed 1048576 nodes",
	})
}
