// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlpatch

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// node parses a YAML value for use as an operation value.
func node(t testing.TB, s string) *yaml.Node {
	t.Helper()
	n, err := parseDoc(s)
	require.NoError(t, err)
	return n
}

// render prints n with kyaml in the sequence indentation style of the
// original text, as kyaml's readers and writers do.
func render(t testing.TB, n *yaml.Node, original string) string {
	t.Helper()
	style := yaml.SequenceIndentStyle(yaml.DeriveSeqIndentStyle(original))
	var b bytes.Buffer
	enc := yaml.NewEncoderWithOptions(&b, &yaml.EncoderOptions{SeqIndent: style})
	require.NoError(t, enc.Encode(n))
	require.NoError(t, enc.Close())
	return b.String()
}

const commentedDeploy = `# Deployment of the web tier.
apiVersion: apps/v1 # stable API
kind: Deployment
metadata:
  name: web # the name
  # labels select the pods
  labels: # see selector
    app: web
    tier: "frontend" # quoted on purpose
    # end of labels
spec:
  # replicas head
  replicas: 2 # two for HA
  template:
    spec:
      containers:
      # the main container
      - name: c # container name
        image: nginx:1 # pinned
        args:
        - -a # first
        # before b
        - -b
      nodeSelector: # where
        zone: a
      enabled: 'on'
      port: "8080"
      script: |
        echo hi
        exit 0
# end of document
`

func TestCommentsAndLayoutSurvive(t *testing.T) {
	tests := map[string]struct {
		in    string
		patch func(t testing.TB) Patch
		want  string
	}{
		"replace scalar keeps its line comment and everything else": {
			in: commentedDeploy,
			patch: func(t testing.TB) Patch {
				return Patch{{Op: "replace", Path: "/spec/replicas", Value: node(t, "3")}}
			},
			want: replaceIn(commentedDeploy, "  replicas: 2 # two for HA", "  replicas: 3 # two for HA"),
		},
		"add onto existing key keeps position and comments": {
			in: commentedDeploy,
			patch: func(t testing.TB) Patch {
				return Patch{{Op: "add", Path: "/spec/template/spec/containers/0/image", Value: node(t, "nginx:2")}}
			},
			want: replaceIn(commentedDeploy, "image: nginx:1 # pinned", "image: nginx:2 # pinned"),
		},
		"replace map keeps key comments": {
			in: commentedDeploy,
			patch: func(t testing.TB) Patch {
				return Patch{{Op: "replace", Path: "/metadata/labels", Value: node(t, "app: api\ntier: backend")}}
			},
			want: replaceIn(commentedDeploy,
				"    app: web\n    tier: \"frontend\" # quoted on purpose\n    # end of labels\n",
				"    app: api\n    tier: backend\n"),
		},
		"replace scalar by map moves its line comment into the map": {
			in: "a:\n  k: v # about k\nb: 1\n",
			patch: func(t testing.TB) Patch {
				return Patch{{Op: "replace", Path: "/a/k", Value: node(t, "x: 1\ny: 2")}}
			},
			want: "a:\n  k:\n    # about k\n    x: 1\n    y: 2\nb: 1\n",
		},
		"replace map by flow map under a key comment renders block": {
			in: "a: # about a\n  x: 1\nb: 1\n",
			patch: func(t testing.TB) Patch {
				return Patch{{Op: "replace", Path: "/a", Value: node(t, "{y: 2}")}}
			},
			want: "a: # about a\n  y: 2\nb: 1\n",
		},
		"replace map by empty map keeps the key comment on its line": {
			in: "a: # about a\n  x: 1\nb: 1\n",
			patch: func(t testing.TB) Patch {
				return Patch{{Op: "replace", Path: "/a", Value: node(t, "{}")}}
			},
			want: "a: {} # about a\nb: 1\n",
		},
		"emptying a map keeps its key comment on the key's line": {
			in: "a: # about a\n  x: 1\nb: 1\n",
			patch: func(t testing.TB) Patch {
				return Patch{{Op: "remove", Path: "/a/x"}}
			},
			want: "a: {} # about a\nb: 1\n",
		},
		"replace sequence item keeps its comments": {
			in: "args:\n# before\n- -a # first\n- -b\n",
			patch: func(t testing.TB) Patch {
				return Patch{{Op: "replace", Path: "/args/0", Value: node(t, "-z")}}
			},
			want: "args:\n# before\n- -z # first\n- -b\n",
		},
		"new keys go to the end": {
			in: commentedDeploy,
			patch: func(t testing.TB) Patch {
				return Patch{
					{Op: "add", Path: "/metadata/labels/team", Value: node(t, "payments")},
					{Op: "add", Path: "/metadata/annotations", Value: node(t, "note: 'yes'")},
				}
			},
			want: replaceIn(commentedDeploy,
				"    # end of labels\nspec:",
				// yaml.v3 separates a foot comment from what follows it.
				"    # end of labels\n\n    team: payments\n  annotations:\n    note: 'yes'\nspec:"),
		},
		"insert into a sequence at an index": {
			in: commentedDeploy,
			patch: func(t testing.TB) Patch {
				return Patch{{Op: "add", Path: "/spec/template/spec/containers/0/args/1", Value: node(t, "-x")}}
			},
			want: replaceIn(commentedDeploy, "        - -a # first\n", "        - -a # first\n        - -x\n"),
		},
		"append to a wide sequence keeps wide indentation": {
			in: "list:\n  - a # first\n  - b\nafter: 1\n",
			patch: func(t testing.TB) Patch {
				return Patch{{Op: "add", Path: "/list/-", Value: node(t, "c")}}
			},
			want: "list:\n  - a # first\n  - b\n  - c\nafter: 1\n",
		},
		"remove an entry leaves the neighbours' comments alone": {
			in: commentedDeploy,
			patch: func(t testing.TB) Patch {
				return Patch{{Op: "remove", Path: "/spec/template/spec/nodeSelector"}}
			},
			want: replaceIn(commentedDeploy, "      nodeSelector: # where\n        zone: a\n", ""),
		},
		"remove an entry with a head comment drops only that comment": {
			in: commentedDeploy,
			patch: func(t testing.TB) Patch {
				return Patch{{Op: "remove", Path: "/metadata/labels"}}
			},
			want: replaceIn(commentedDeploy,
				"  # labels select the pods\n  labels: # see selector\n    app: web\n    tier: \"frontend\" # quoted on purpose\n    # end of labels\n", ""),
		},
		"remove a sequence item": {
			in: commentedDeploy,
			patch: func(t testing.TB) Patch {
				return Patch{{Op: "remove", Path: "/spec/template/spec/containers/0/args/0"}}
			},
			want: replaceIn(commentedDeploy, "        - -a # first\n", ""),
		},
		"move takes the value's own comment along": {
			in: "a: 1 # one\nb: 2\n",
			patch: func(t testing.TB) Patch {
				return Patch{{Op: "move", From: "/a", Path: "/c"}}
			},
			want: "b: 2\nc: 1 # one\n",
		},
		"copy does not copy the source's position comment": {
			in: "a: 1 # one\nb: 2 # two\n",
			patch: func(t testing.TB) Patch {
				return Patch{{Op: "copy", From: "/a", Path: "/b"}, {Op: "copy", From: "/a", Path: "/c"}}
			},
			want: "a: 1 # one\nb: 1 # two\nc: 1\n",
		},
		"values moved into flow collections leave their comments behind": {
			in: "ports: [80, 443] # public\n# extra port\nextra: 8080 # admin\nempty:\n",
			patch: func(t testing.TB) Patch {
				return Patch{{Op: "move", From: "/extra", Path: "/ports/-"}, {Op: "copy", From: "/empty", Path: "/ports/0"}}
			},
			want: "ports: [null, 80, 443, 8080] # public\nempty:\n",
		},
		"replace the whole document keeps its head comment": {
			in: "# head\n\na: 1 # one\n",
			patch: func(t testing.TB) Patch {
				return Patch{{Op: "add", Path: "", Value: node(t, "b: 2")}}
			},
			want: "# head\n\nb: 2\n",
		},
		"untouched quoting, block scalars and flow style survive": {
			in: "a: 'on'\nb: \"8080\"\nc: |\n  x\n  y\nd: {e: [1, 2]}\nf: ~\n",
			patch: func(t testing.TB) Patch {
				return Patch{{Op: "add", Path: "/g", Value: node(t, "1")}}
			},
			want: "a: 'on'\nb: \"8080\"\nc: |\n  x\n  y\nd: {e: [1, 2]}\nf: ~\ng: 1\n",
		},
		"a failing patch leaves the document untouched": {
			in: commentedDeploy,
			patch: func(t testing.TB) Patch {
				return Patch{
					{Op: "replace", Path: "/spec/replicas", Value: node(t, "3")},
					{Op: "remove", Path: "/metadata/labels"},
					{Op: "add", Path: "/spec/template/spec/containers/0/args/0", Value: node(t, "-z")},
					{Op: "test", Path: "/kind", Value: node(t, "Pod")},
				}
			},
			want: commentedDeploy,
		},
		"test does not change anything": {
			in: commentedDeploy,
			patch: func(t testing.TB) Patch {
				return Patch{{Op: "test", Path: "/spec/template/spec/enabled", Value: node(t, `"on"`)}}
			},
			want: commentedDeploy,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			doc, err := yaml.Parse(tc.in)
			require.NoError(t, err)
			_ = tc.patch(t).Apply(doc.Document())
			require.Equal(t, tc.want, render(t, doc.Document(), tc.in))
		})
	}
}

func replaceIn(s, old, new string) string {
	if !bytes.Contains([]byte(s), []byte(old)) {
		panic("replaceIn: " + old + " not found")
	}
	return string(bytes.Replace([]byte(s), []byte(old), []byte(new), 1))
}
