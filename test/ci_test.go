// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// dockerStandIn stands in for `docker run [options] IMAGE ARGS...` in the
// CI examples' scripts: it runs the binary under test with ARGS in the
// current directory (what the examples mount at the container's working
// directory).
const dockerStandIn = `docker() {
  [ "$1" = run ] || { echo "docker $1: not simulated" >&2; return 2; }
  shift
  while [ $# -gt 0 ]; do
    case $1 in
      --rm | -i) shift ;;
      --user | -v | -w) shift 2 ;;
      -*) echo "docker run $1: not simulated" >&2; return 2 ;;
      *) break ;;
    esac
  done
  [ "$1" = "$IMAGE" ] || { echo "docker run: image $1 is not \$IMAGE" >&2; return 2; }
  shift
  "$APPLY_OVERRIDES" "$@"
}
`

// TestCIExamples runs the shards of examples/ci/github-actions.yaml (each
// matrix entry's run steps, docker standing in as above, in a fresh copy of
// the repository's example fleet) and of examples/ci/argo-workflow.yaml
// (each withItems entry's container args and shard configuration) on
// examples/fan-out, and holds that the shards together render every
// cluster of the fleet exactly once, each cluster's files as one
// `apply-overrides render --all` run writes them.
func TestCIExamples(t *testing.T) {
	ws := workspace(t, "fan-out")
	run(t, ws, nil, binary, "render", "--all", "-o", "out/all", "examples/fan-out")
	all := readTree(t, filepath.Join(ws, "out", "all"))
	var fleet []string
	for path := range all {
		if cluster, _, _ := strings.Cut(path, "/"); !slices.Contains(fleet, cluster) {
			fleet = append(fleet, cluster)
		}
	}
	slices.Sort(fleet)
	require.Equal(t, []string{"member1", "member2", "staging"}, fleet)

	for name, shards := range map[string]func(t *testing.T) []map[string]string{
		"github-actions.yaml": githubShards,
		"argo-workflow.yaml":  argoShards,
	} {
		t.Run(name, func(t *testing.T) {
			rendered := map[string]int{}
			for _, tree := range shards(t) {
				var clusters []string
				for path, body := range tree {
					cluster, _, _ := strings.Cut(path, "/")
					if !slices.Contains(clusters, cluster) {
						clusters = append(clusters, cluster)
						rendered[cluster]++
					}
					assert.Equal(t, all[path], body, "%s: as the whole fleet's run writes it", path)
				}
			}
			for _, c := range fleet {
				assert.Equal(t, 1, rendered[c], "cluster %s is rendered by exactly one shard", c)
			}
			assert.Len(t, rendered, len(fleet), "the shards render only the fleet's clusters")
		})
	}
}

// ciFile reads one of examples/ci's files.
func ciFile(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, "examples", "ci", name))
	require.NoError(t, err)
	require.NoError(t, yaml.Unmarshal(b, v))
}

// githubShards runs each matrix entry's steps and returns what each wrote
// under out/<shard>, by path.
func githubShards(t *testing.T) []map[string]string {
	var wf struct {
		Env  map[string]string
		Jobs struct {
			Render struct {
				Strategy struct {
					Matrix struct{ Include []map[string]string }
				}
				Steps []struct{ Uses, Run string }
			}
		}
	}
	ciFile(t, "github-actions.yaml", &wf)
	job := wf.Jobs.Render
	require.NotEmpty(t, job.Strategy.Matrix.Include)
	var trees []map[string]string
	for _, entry := range job.Strategy.Matrix.Include {
		ws := workspace(t, "fan-out")
		env := append(os.Environ(), "APPLY_OVERRIDES="+binary)
		for k, v := range wf.Env {
			env = append(env, k+"="+v)
		}
		for _, step := range job.Steps {
			if step.Run == "" {
				continue // actions/checkout, upload-artifact: the workspace stands in
			}
			script := regexp.MustCompile(`\$\{\{ *matrix\.(\w+) *\}\}`).ReplaceAllStringFunc(step.Run, func(m string) string {
				key := regexp.MustCompile(`matrix\.(\w+)`).FindStringSubmatch(m)[1]
				v, ok := entry[key]
				require.True(t, ok, "matrix.%s is not in the entry %v", key, entry)
				return v
			})
			require.NotContains(t, script, "${{", "an expression the test does not substitute")
			cmd := exec.Command("bash", "-euo", "pipefail", "-c", dockerStandIn+script)
			cmd.Dir, cmd.Env = ws, env
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "shard %s:\n%s\n%s", entry["shard"], script, out)
		}
		trees = append(trees, readTree(t, filepath.Join(ws, "out", entry["shard"])))
	}
	return trees
}

// argoShards runs the render-shard template for each withItems entry: its
// shard configuration written where the raw artifact goes, its container
// args run in its working directory, the git artifact (the repository)
// standing in by the example fleet; it returns what each wrote under
// out/<shard>, by path.
func argoShards(t *testing.T) []map[string]string {
	type param struct{ Name, Value string }
	var wf struct {
		Spec struct {
			Templates []struct {
				Name  string
				Steps [][]struct {
					Template  string
					Arguments struct{ Parameters []param }
					WithItems []map[string]string `yaml:"withItems"`
				}
				Inputs struct {
					Artifacts []struct {
						Path string
						Raw  struct{ Data string }
					}
				}
				Container struct {
					WorkingDir string `yaml:"workingDir"`
					Args       []string
				}
			}
		}
	}
	ciFile(t, "argo-workflow.yaml", &wf)
	require.Len(t, wf.Spec.Templates, 2)
	fanOut, shard := wf.Spec.Templates[0], wf.Spec.Templates[1]
	require.Len(t, fanOut.Steps, 1)
	require.Len(t, fanOut.Steps[0], 1)
	step := fanOut.Steps[0][0]
	require.Equal(t, shard.Name, step.Template)
	require.NotEmpty(t, step.WithItems)
	subst := func(s, prefix string, values map[string]string) string {
		return regexp.MustCompile(`\{\{`+regexp.QuoteMeta(prefix)+`(\w+)\}\}`).ReplaceAllStringFunc(s, func(m string) string {
			key := m[len("{{"+prefix) : len(m)-len("}}")]
			v, ok := values[key]
			require.True(t, ok, "{{%s%s}} has no value", prefix, key)
			return v
		})
	}
	var trees []map[string]string
	for _, item := range step.WithItems {
		params := map[string]string{}
		for _, p := range step.Arguments.Parameters {
			params[p.Name] = subst(p.Value, "item.", item)
		}
		root := t.TempDir()
		work := filepath.Join(root, strings.TrimPrefix(shard.Container.WorkingDir, "/"))
		require.NoError(t, os.CopyFS(filepath.Join(work, "package", "examples", "fan-out"), os.DirFS(filepath.Join(repoRoot, "examples", "fan-out"))))
		for _, a := range shard.Inputs.Artifacts {
			if a.Raw.Data != "" {
				require.NoError(t, os.WriteFile(filepath.Join(root, a.Path), []byte(subst(a.Raw.Data, "inputs.parameters.", params)), 0o644))
			}
		}
		args := make([]string, len(shard.Container.Args))
		for i, a := range shard.Container.Args {
			args[i] = subst(a, "inputs.parameters.", params)
		}
		run(t, work, nil, binary, args...)
		trees = append(trees, readTree(t, filepath.Join(work, "out", params["shard"])))
	}
	return trees
}
