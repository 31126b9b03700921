// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apply-overrides/apply-overrides/internal/resourcelist"
)

// The hand-over. The CEL dialects (Kubernetes MutatingAdmissionPolicies,
// Kyverno's CEL MutatingPolicies) link k8s.io/apiserver, client-go and
// cel-go, whose package initialisation alone doubles a run's start-up
// memory and CPU. So `make build` writes two programs from this package:
// bin/apply-overrides, built with -tags nocel, and bin/apply-overrides-cel
// (cmd/apply-overrides-cel), the whole function. The first runs every input
// that cannot hold a CEL policy itself and hands any other run, before it
// has written anything, to the second: same arguments, environment and
// input, its output and exit status passed through. A build without the
// tag (go install of the module, go test) has every dialect and never
// hands over.

// CELProgram is the name of the program a build without CEL hands CEL
// inputs to, and CELEnv the variable that names its path.
const (
	CELProgram = "apply-overrides-cel"
	CELEnv     = "APPLY_OVERRIDES_CEL"
	// handedOverEnv marks the run a build without CEL started, so that a
	// CELEnv naming such a build fails instead of starting itself again.
	handedOverEnv = "APPLY_OVERRIDES_HANDED_OVER"
)

// celGroups are the API groups of the objects only the CEL build
// evaluates. An input is handed over when its text holds either name
// anywhere but in a map key of the form group/name (the annotations
// policies.kyverno.io/title, /description... that Kyverno's own policies
// carry): a superset of the inputs holding such an object (written in any
// YAML or JSON form; an apiVersion is a value, never followed by a key's
// colon), which the CEL build renders exactly as the build without CEL
// would render the rest.
var celGroups = [][]byte{[]byte("admissionregistration.k8s.io"), []byte("policies.kyverno.io")}

// handOver is a run for the CEL build.
type handOver struct {
	args  []string
	stdin io.Reader // the child's stdin: the bytes read, or stdin untouched
	where string    // where a CEL group was first seen: "stdin" or a path
	group string
	krm   bool // the run is the KRM function (no subcommand)
}

// planHandOver decides whether a build without CEL hands the run over.
// When the run reads stdin, stdin is read whole here and rest serves the
// same bytes (resourcelist.ReadAll takes them without copying); otherwise
// rest is stdin.
func planHandOver(args []string, stdin io.Reader, stderr io.Writer) (h *handOver, rest io.Reader) {
	var paths []string
	readsStdin, krm := false, false
	switch {
	case len(args) == 0:
		readsStdin, krm = true, true
		stdin = watchTerminal(stdin, stderr)
	case args[0] == "render":
		f, err := parseRenderFlags(args[1:])
		if err != nil {
			return nil, stdin // render reports it
		}
		paths, readsStdin = f.inputs, stdinCount(f.inputs) > 0
	case args[0] == "diff":
		f, err := parseDiffFlags(args[1:])
		if err != nil {
			return nil, stdin
		}
		paths = slices.Concat(f.inputs, f.base)
		readsStdin = stdinCount(f.inputs) > 0 || f.base != nil && stdinCount(f.base) > 0
	default:
		return nil, stdin // --help, --version or a bad argument
	}
	rest = stdin
	h = &handOver{args: args, stdin: stdin, krm: krm}
	if readsStdin {
		pre := resourcelist.PreRead(stdin)
		if pre.Err() != nil {
			return nil, pre // the run reports it
		}
		rest, h.stdin = pre, bytes.NewReader(pre.Bytes())
		if g := celGroupIn(pre.Bytes()); g != "" {
			h.where, h.group = "stdin", g
			return h, rest
		}
	}
	for _, p := range paths {
		if p == "-" {
			continue
		}
		if where, g := celGroupUnder(p); g != "" {
			h.where, h.group = where, g
			return h, rest
		}
	}
	return nil, rest
}

// celGroupIn returns the CEL group data names, or "".
func celGroupIn(data []byte) string {
	for _, g := range celGroups {
		for rest := data; ; {
			i := bytes.Index(rest, g)
			if i < 0 {
				break
			}
			rest = rest[i+len(g):]
			if !keyPrefix(rest) {
				return string(g)
			}
		}
	}
	return ""
}

// keyPrefix reports whether rest, the text after a group's name, makes it
// the prefix of a map key: "/", a name ([A-Za-z0-9._-]), an optional
// closing quote, optional blanks and a colon followed by a blank, a line
// end, a quote (JSON) or the end of the text.
func keyPrefix(rest []byte) bool {
	if len(rest) < 2 || rest[0] != '/' {
		return false
	}
	i := 1
	for i < len(rest) && nameByte(rest[i]) {
		i++
	}
	if i == 1 {
		return false
	}
	if i < len(rest) && (rest[i] == '"' || rest[i] == '\'') {
		i++
	}
	for i < len(rest) && (rest[i] == ' ' || rest[i] == '\t') {
		i++
	}
	if i == len(rest) || rest[i] != ':' {
		return false
	}
	i++
	return i == len(rest) || bytes.IndexByte([]byte(" \t\r\n\"{["), rest[i]) >= 0
}

func nameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
}

// celGroupUnder looks for a CEL group in the file p or in every file under
// the directory p (hidden ones too: more than render reads, never less).
// A file it cannot read is left to render, which reports it.
func celGroupUnder(p string) (where, group string) {
	err := filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		data, rerr := os.ReadFile(path)
		if rerr != nil {
			return nil
		}
		if g := celGroupIn(data); g != "" {
			where, group = path, g
			return fs.SkipAll
		}
		return nil
	})
	if err != nil {
		return "", ""
	}
	return where, group
}

// celProgram finds the CEL build: $APPLY_OVERRIDES_CEL, else
// apply-overrides-cel beside this program (symbolic links resolved), else
// on PATH. Its error says where it looked.
func celProgram() (string, error) {
	if p := os.Getenv(CELEnv); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("$%s names %s: %w", CELEnv, p, err)
		}
		return p, nil
	}
	looked := []string{"$" + CELEnv + " (unset)"}
	if self, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(self); err == nil {
			self = real
		}
		beside := filepath.Join(filepath.Dir(self), CELProgram)
		if st, err := os.Stat(beside); err == nil && st.Mode().IsRegular() {
			return beside, nil
		}
		looked = append(looked, beside)
	}
	if p, err := exec.LookPath(CELProgram); err == nil {
		return p, nil
	}
	looked = append(looked, CELProgram+" on PATH")
	return "", fmt.Errorf("it was not found: looked for %s", strings.Join(looked, ", "))
}

// run hands the run over and returns its exit status.
func (h *handOver) run(stdout, stderr io.Writer) int {
	path, err := celProgram()
	if err == nil && os.Getenv(handedOverEnv) != "" {
		err = fmt.Errorf("%s is itself a build without CEL (built with -tags nocel)", path)
	}
	if err != nil {
		return h.fail(stdout, stderr, fmt.Errorf("the input holds %s objects (first seen in %s), which only %s evaluates (Kubernetes MutatingAdmissionPolicies, Kyverno's CEL MutatingPolicies), and %w; build both programs with make build (bin/), install it with go install github.com/apply-overrides/apply-overrides/cmd/%s@VERSION next to this one, set $%s to its path, or use the container image, which has both", h.group, h.where, CELProgram, err, CELProgram, CELEnv))
	}
	cmd := exec.Command(path, h.args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = h.stdin, stdout, stderr
	cmd.Env = append(os.Environ(), handedOverEnv+"=1")
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee) && ee.ExitCode() >= 0:
		return ee.ExitCode()
	case err != nil:
		return h.fail(stdout, stderr, fmt.Errorf("run %s for the input's %s objects (first seen in %s): %w", path, h.group, h.where, err))
	}
	return 0
}

// fail reports a hand-over that could not run as the run's own failure
// would be: a ResourceList with the error result on stdout for the KRM
// function, a line on stderr for render and diff.
func (h *handOver) fail(stdout, stderr io.Writer, err error) int {
	if !h.krm {
		fmt.Fprintf(stderr, "apply-overrides %s: %v\n", h.args[0], err)
		return 1
	}
	out, results := failure("", err)
	code := reportResults(results, stderr, false)
	if _, werr := stdout.Write(out); werr != nil {
		fmt.Fprintln(stderr, "apply-overrides: write the output ResourceList:", werr)
		return 1
	}
	return code
}
