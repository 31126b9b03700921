// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package vars

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAtVariable(t *testing.T) {
	cases := map[string]struct{ path, prefix, want string }{
		"top-level smp":         {"/mutate/patchStrategicMerge/metadata/labels/deploy-zone", "request.object", `request.object.metadata.labels."deploy-zone"`},
		"escaped slash in key":  {`/mutate/patchStrategicMerge/metadata/labels/corp.com\/retention`, "request.object", `request.object.metadata.labels."corp.com/retention"`},
		"policy list index":     {"/mutate/patchStrategicMerge/spec/containers/0/image", "request.object", "request.object.spec.containers[0].image"},
		"anchor key is quoted":  {"/mutate/patchStrategicMerge/spec/(name)", "request.object", `request.object.spec."(name)"`},
		"foreach entry":         {"/patchStrategicMerge/spec/containers/0/image", "request.object", "request.object.containers[0].image"},
		"under foreach":         {"/mutate/foreach/0/patchStrategicMerge/spec/x", "request.object", "request.object.spec.x"},
		"too short":             {"/mutate/patchStrategicMerge", "request.object", "request.object"},
		"target":                {"/mutate/targets/0/x", "target", "target[0].x"},
		"control characters":    {"/a/b/x\ty", "request.object", `request.object."x\ty"`},
		"double quotes dropped": {`/a/b/x"y`, "request.object", `request.object.xy`},
		"backslash escapes":     {`/a/b/x\\y`, "request.object", `request.object."x\\y"`},
		"quotes protect slash":  {`/a/b/"x/y"`, "request.object", `request.object."x/y"`},
		"leading digit quoted":  {"/a/b/1x", "request.object", `request.object."1x"`},
		"unicode kept":          {"/a/b/é", "request.object", `request.object."é"`},
		"trailing backslash":    {`/a/b/x\`, "request.object", "request.object.\"x\uFFFD\""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, tc.want, atVariable(tc.path, tc.prefix))
		})
	}
	assert.Equal(t, []string{"a", "b"}, parsePath("/a/b/\xffc"), "an invalid byte ends the path")
}
