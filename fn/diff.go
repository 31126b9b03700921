// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/resourcelist"
)

const diffUsage = `apply-overrides diff: what each member cluster receives that differs from the input.

Usage:
  apply-overrides diff [--cluster NAME ... | --all] [--base FILE|DIR ...]
                       [-o markdown|json] [--exit-code] [flags] [FILE|DIR|- ...]

Renders the inputs (read as apply-overrides render reads them) for each
cluster, and compares each resource of the input with what each cluster
receives. With --base, renders the base revision the same way and compares,
per cluster, the base revision's render with this one's: what a change to
the manifests or the policies does to each cluster.

Writes a report on stdout: Markdown (a matrix resource × cluster with the
number of changed fields, then a unified diff of the YAML per changed
resource, comments kept), sized for a pull-request comment, or JSON.

Flags:
  --cluster NAME     compare this cluster; repeat it to compare several
  --all              compare every cluster of the inventory
  --base FILE|DIR    the base revision's inputs (repeat for several); without
                     it, each cluster is compared with the input
  --placement MODE   auto (the default), enforce or off
  -o, --output FMT   markdown (the default) or json
  --max-bytes N      keep the Markdown report under N bytes (default 65536,
                     GitHub's comment limit; 0: no limit), leaving out the
                     diffs (and rows) that do not fit, with a note
  --exit-code        exit with status 3 when the report shows any difference
  --verbose          print info results on stderr too, not only errors and warnings
  --help             this text

Exit status: 0 on success (with --exit-code: and no difference), 1 when any
error result was reported, 2 on bad usage, 3 with --exit-code when there are
differences.
`

// diffFlags are the command line of apply-overrides diff.
type diffFlags struct {
	renderFlags
	base     []string
	format   string
	maxBytes int
	exitCode bool
}

// Diff report formats.
const (
	diffMarkdown = "markdown"
	diffJSON     = "json"
)

// defaultMaxBytes is GitHub's limit on a comment: 65 536 characters, which
// a report of at most as many bytes never exceeds.
const defaultMaxBytes = 65536

// exitDifferences is diff's exit status under --exit-code when the report
// shows a difference.
const exitDifferences = 3

// parseDiffFlags reads diff's command line, as parseRenderFlags does.
func parseDiffFlags(args []string) (*diffFlags, error) {
	f := &diffFlags{renderFlags: renderFlags{set: map[string]bool{}}}
	fs := f.flagSet("diff")
	fs.Var(listFlag{&f.base, "empty path: name a file or a directory of manifests, or - for stdin"}, "base", "")
	fs.StringVar(&f.format, "o", diffMarkdown, "")
	fs.StringVar(&f.format, "output", diffMarkdown, "")
	fs.IntVar(&f.maxBytes, "max-bytes", defaultMaxBytes, "")
	fs.BoolVar(&f.exitCode, "exit-code", false, "")
	if err := f.parse(fs, args); err != nil {
		return nil, err
	}
	switch {
	case f.format != diffMarkdown && f.format != diffJSON:
		return nil, fmt.Errorf("-o %q: the report is markdown or json", f.format)
	case f.maxBytes < 0:
		return nil, fmt.Errorf("--max-bytes %d: give a size in bytes, or 0 for no limit", f.maxBytes)
	case f.set["max-bytes"] && f.format == diffJSON:
		return nil, errors.New("--max-bytes sizes the Markdown report; a JSON report is always whole: drop --max-bytes or -o json")
	case f.base != nil && stdinCount(f.inputs) > 0 && stdinCount(f.base) > 0:
		return nil, errors.New("stdin (-, or no input named) feeds one revision only: name the other revision's files or directories")
	}
	// The report is about what the clusters receive: policies and cluster
	// objects are never part of it.
	f.keepPolicies = false
	f.set["keep-policies"] = true
	return f, nil
}

// stdinCount counts the inputs that read stdin: "-", or none named.
func stdinCount(paths []string) int {
	if paths == nil {
		return 1
	}
	n := 0
	for _, p := range paths {
		if p == "-" {
			n++
		}
	}
	return n
}

// runDiff is apply-overrides diff.
func runDiff(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f, err := parseDiffFlags(args)
	if code, done := usageOutcome("diff", diffUsage, err, stdout, stderr); done {
		return code
	}
	head, code := f.renderRevision(f.inputs, stdin, stderr, "")
	if code != 0 {
		return code
	}
	var report *diffReport
	if f.base == nil {
		report, err = compareInput(head)
	} else {
		base, code := f.renderRevision(f.base, stdin, stderr, "base revision: ")
		if code != 0 {
			return code
		}
		report, err = compareRevisions(base, head)
	}
	var buf bytes.Buffer
	if err == nil {
		if f.format == diffJSON {
			err = report.writeJSON(&buf)
		} else {
			err = report.writeMarkdown(&buf, f.maxBytes)
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "apply-overrides diff:", err)
		return 1
	}
	if _, err := stdout.Write(buf.Bytes()); err != nil {
		fmt.Fprintln(stderr, "apply-overrides diff: write the report:", err)
		return 1
	}
	if f.exitCode && report.Summary.Differs {
		return exitDifferences
	}
	return 0
}

// revision is one revision of the inputs rendered for every cluster.
type revision struct {
	items    []*yaml.RNode // the input's items
	rows     []int         // the indexes of its resources, in input order
	clusters []string      // in render order
	// received is, per cluster, what it receives: the rendered node by
	// the index of its input item.
	received []map[int]*yaml.RNode
}

// renderRevision reads and renders one revision, as render does, and
// reports its results on stderr, each line after prefix; code is the exit
// status of a failure, 0 on success.
func (f *diffFlags) renderRevision(paths []string, stdin io.Reader, stderr io.Writer, prefix string) (rev *revision, code int) {
	in, err := readRenderInputs(paths, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "apply-overrides diff: %s%v\n", prefix, err)
		return nil, 2
	}
	list, err := f.buildList(in)
	if err != nil {
		fmt.Fprintf(stderr, "apply-overrides diff: %s%v\n", prefix, err)
		return nil, 1
	}
	rev, results := renderFleet(list)
	if code := reportResults(results, &linePrefixer{w: stderr, prefix: prefix}, f.verbose); code != 0 || rev == nil {
		return nil, max(code, 1)
	}
	return rev, 0
}

// renderFleet renders a ResourceList for each cluster its functionConfig
// names (spec.cluster, or spec.render's clusters) with the run fan-out
// uses (processFleet); rev is nil when the run failed.
func renderFleet(list []byte) (rev *revision, results framework.Results) {
	data, err := resourcelist.ReadAll(bytes.NewReader(list))
	if err != nil {
		return nil, errorResults(err)
	}
	data, _ = resourcelist.Normalize(data)
	in, err := resourcelist.Parse(data, listOptions)
	if err != nil {
		return nil, errorResults(err)
	}
	r := &run{rl: &framework.ResourceList{Items: in.Items, FunctionConfig: in.FunctionConfig}}
	renders, ok := r.processFleet(nil)
	if !ok {
		return nil, r.rl.Results
	}
	rev = &revision{items: in.Items}
	for i, it := range r.items {
		if it.resource() {
			rev.rows = append(rev.rows, i)
		}
	}
	for _, rd := range renders {
		name := noCluster
		if rd.cluster != nil {
			name = rd.cluster.Name
		}
		got := map[int]*yaml.RNode{}
		for _, o := range rd.items {
			if o.resource {
				got[o.index] = o.node
			}
		}
		rev.clusters = append(rev.clusters, name)
		rev.received = append(rev.received, got)
	}
	return rev, r.rl.Results
}

// linePrefixer writes each line after a prefix.
type linePrefixer struct {
	w      io.Writer
	prefix string
	mid    bool // within a line
}

func (p *linePrefixer) Write(b []byte) (int, error) {
	if p.prefix == "" {
		return p.w.Write(b)
	}
	var buf bytes.Buffer
	for _, line := range bytes.SplitAfter(b, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		if !p.mid {
			buf.WriteString(p.prefix)
		}
		buf.Write(line)
		p.mid = line[len(line)-1] != '\n'
	}
	if _, err := p.w.Write(buf.Bytes()); err != nil {
		return 0, err
	}
	return len(b), nil
}
