// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The README's command blocks are ```sh, ```bash or ```console fences.
// TestE2EReadme runs every one of them, in README order, in one fresh copy of
// the repository's tracked files, so the README cannot drift from the code:
//
//   - sh/bash: the block is one script, run verbatim by bash with
//     set -euo pipefail; it must succeed.
//   - console: each "$ " line (continued by a trailing backslash) is a
//     command, run the same way; the lines up to the next "$ " are its
//     expected output, stdout and stderr together, compared exactly. A
//     command that is meant to fail shows it: `... || echo "exit status $?"`.
//
// An HTML comment on the line right before the fence changes that:
//
//	<!-- doctest: skip (why it cannot run here) -->   never run; the reason is required
//	<!-- doctest: container -->                        run by TestContainerReadme (make e2e-container)
//
// A ```yaml block whose first line is "# <path>" quotes that file of the
// repository and must equal it.

// docBlock is one fenced block of README.md.
type docBlock struct {
	line int    // 1-based line of the opening fence
	lang string // the fence's info string
	mode string // "run", "skip" or "container"
	why  string // the reason of a skip
	text string // the content, the fence's indentation removed
}

func (b docBlock) name() string { return fmt.Sprintf("README.md:%d", b.line) }

func (b docBlock) isCommands() bool {
	return b.lang == "sh" || b.lang == "bash" || b.lang == "console"
}

var (
	fenceRE  = regexp.MustCompile("^(\\s*)(```+)\\s*(\\S*)\\s*$")
	markerRE = regexp.MustCompile(`^\s*<!--\s*doctest:\s*(.*?)\s*-->\s*$`)
	skipRE   = regexp.MustCompile(`^skip \((.+)\)$`)
)

// readmeBlocks parses README.md's fenced blocks and their doctest markers.
// A malformed marker, or one that is not right before a command block, fails
// the test.
func readmeBlocks(t *testing.T) []docBlock {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	require.NoError(t, err)
	lines := strings.Split(string(b), "\n")
	var blocks []docBlock
	markerUsed := map[int]bool{}
	for i := 0; i < len(lines); i++ {
		m := fenceRE.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		indent, fence := m[1], m[2]
		blk := docBlock{line: i + 1, lang: m[3], mode: "run"}
		var body []string
		j := i + 1
		for ; j < len(lines); j++ {
			if strings.TrimSpace(lines[j]) == fence {
				break
			}
			body = append(body, strings.TrimPrefix(lines[j], indent))
		}
		require.Less(t, j, len(lines), "%s: unclosed fence", blk.name())
		blk.text = strings.Join(body, "\n") + "\n"
		if i > 0 {
			if mm := markerRE.FindStringSubmatch(lines[i-1]); mm != nil {
				markerUsed[i-1] = true
				switch d := mm[1]; {
				case !blk.isCommands():
					t.Errorf("%s: a doctest marker before a ```%s block, which is never run", blk.name(), blk.lang)
				case d == "container":
					blk.mode = "container"
				case skipRE.MatchString(d):
					blk.mode, blk.why = "skip", skipRE.FindStringSubmatch(d)[1]
				default:
					t.Errorf("README.md:%d: unknown doctest marker %q (want \"skip (reason)\" or \"container\")", i, d)
				}
			}
		}
		blocks = append(blocks, blk)
		i = j
	}
	for i, l := range lines {
		if markerRE.MatchString(l) && !markerUsed[i] {
			t.Errorf("README.md:%d: a doctest marker must be the line right before a command block", i+1)
		}
	}
	return blocks
}

// copyTracked copies the repository's tracked files, as they are in the work
// tree, into a fresh temp dir: what a clone would hold.
func copyTracked(t *testing.T) string {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-z")
	cmd.Dir = repoRoot
	out, err := cmd.Output()
	if err != nil {
		if os.Getenv("APPLY_OVERRIDES_E2E") == "require" {
			t.Fatalf("git ls-files: %v", err)
		}
		t.Skipf("not a git checkout (git ls-files: %v)", err)
	}
	dst := t.TempDir()
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		src := filepath.Join(repoRoot, f)
		info, err := os.Lstat(src)
		if os.IsNotExist(err) {
			continue // deleted in the work tree
		}
		require.NoError(t, err)
		target := filepath.Join(dst, f)
		require.NoError(t, os.MkdirAll(filepath.Dir(target), 0o755))
		if info.Mode()&os.ModeSymlink != 0 {
			link, err := os.Readlink(src)
			require.NoError(t, err)
			require.NoError(t, os.Symlink(link, target))
			continue
		}
		b, err := os.ReadFile(src)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(target, b, info.Mode().Perm()))
	}
	return dst
}

var (
	usesKpt       = regexp.MustCompile(`(^|[\s|;&(])kpt\s`)
	usesKustomize = regexp.MustCompile(`(^|[\s|;&(])kustomize\s`)
)

// bash runs a script verbatim with set -euo pipefail in dir and returns its
// stdout and stderr together.
func bash(dir string, env []string, script string) (string, error) {
	cmd := exec.Command("bash", "-e", "-u", "-o", "pipefail", "-c", script)
	cmd.Dir = dir
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// runBlock runs one command block in dir, as the comment at the top of this
// file says.
func runBlock(t *testing.T, dir string, env []string, b docBlock) {
	t.Helper()
	if usesKpt.MatchString(b.text) {
		requireTool(t, "kpt")
	}
	if usesKustomize.MatchString(b.text) {
		requireTool(t, "kustomize")
	}
	if b.lang != "console" {
		out, err := bash(dir, env, b.text)
		require.NoError(t, err, "%s:\n%s\noutput:\n%s", b.name(), b.text, out)
		return
	}
	for _, c := range consoleCommands(t, b) {
		out, err := bash(dir, env, c.cmd)
		require.NoError(t, err, "%s: $ %s\noutput:\n%s", b.name(), c.cmd, out)
		assert.Equal(t, c.want, out, "%s: output of $ %s", b.name(), c.cmd)
	}
}

type consoleCommand struct{ cmd, want string }

// consoleCommands splits a console block into commands and their expected
// output.
func consoleCommands(t *testing.T, b docBlock) []consoleCommand {
	t.Helper()
	var cmds []consoleCommand
	sc := bufio.NewScanner(strings.NewReader(b.text))
	for sc.Scan() {
		l := sc.Text()
		if cmd, ok := strings.CutPrefix(l, "$ "); ok {
			for strings.HasSuffix(cmd, "\\") && sc.Scan() {
				cmd += "\n" + sc.Text()
			}
			cmds = append(cmds, consoleCommand{cmd: cmd})
			continue
		}
		require.NotEmpty(t, cmds, "%s: output before the first \"$ \" command", b.name())
		cmds[len(cmds)-1].want += l + "\n"
	}
	return cmds
}

// TestE2EReadme runs the README's command blocks in README order in a fresh
// copy of the repository; the first one builds bin/apply-overrides there.
func TestE2EReadme(t *testing.T) {
	blocks := readmeBlocks(t)
	ws := copyTracked(t)
	env := os.Environ()
	var ran, container int
	var skipped []string
	for _, b := range blocks {
		if !b.isCommands() {
			continue
		}
		t.Run(b.name(), func(t *testing.T) {
			switch b.mode {
			case "skip":
				skipped = append(skipped, fmt.Sprintf("%s (%s)", b.name(), b.why))
				t.Skip(b.why)
			case "container":
				container++
				t.Skip("a container block: TestContainerReadme runs it (make e2e-container)")
			}
			ran++
			runBlock(t, ws, env, b)
		})
	}
	t.Logf("README.md: %d command blocks run, %d container blocks left to TestContainerReadme, %d skipped: %s",
		ran, container, len(skipped), strings.Join(skipped, "; "))
	assert.NotZero(t, ran)
}

// TestReadmeQuotesFiles holds the ```yaml blocks that quote a file of the
// repository (first line "# <path>") to that file.
func TestReadmeQuotesFiles(t *testing.T) {
	var n int
	for _, b := range readmeBlocks(t) {
		first, rest, _ := strings.Cut(b.text, "\n")
		path, ok := strings.CutPrefix(first, "# ")
		if b.lang != "yaml" || !ok || strings.ContainsAny(path, " \t") || !strings.Contains(path, "/") {
			continue
		}
		n++
		want, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(path)))
		if assert.NoError(t, err, "%s quotes %s", b.name(), path) {
			assert.Equal(t, string(want), rest, "%s quotes %s", b.name(), path)
		}
	}
	assert.NotZero(t, n)
}

// TestReadmeStartsWithBuildAndTest holds the README's first two command
// blocks to a build-and-run command and the test suite's command, and
// .ci/run to that same test command.
func TestReadmeStartsWithBuildAndTest(t *testing.T) {
	var cmds []docBlock
	for _, b := range readmeBlocks(t) {
		if b.isCommands() {
			cmds = append(cmds, b)
		}
	}
	require.GreaterOrEqual(t, len(cmds), 2)
	first, _, _ := strings.Cut(cmds[0].text, "#")
	assert.Equal(t, "make build && bin/apply-overrides < examples/stdin/resourcelist.yaml", strings.TrimSpace(first))
	assert.Equal(t, "run", cmds[0].mode, "the first command is run by TestE2EReadme")
	test, _, _ := strings.Cut(cmds[1].text, "#")
	test = strings.TrimSpace(test)
	assert.Equal(t, "go test ./...", test)

	ci, err := os.ReadFile(filepath.Join(repoRoot, ".ci", "run"))
	require.NoError(t, err)
	assert.True(t, slices.Contains(strings.Split(string(ci), "\n"), "APPLY_OVERRIDES_E2E=require "+test),
		".ci/run runs the README's test command with APPLY_OVERRIDES_E2E=require")
}
