// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/resourcelist"
	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/policy"
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

// The statuses of a resource on a cluster.
const (
	statusUnchanged   = "unchanged"
	statusChanged     = "changed"
	statusNotReceived = "not received"
	statusAdded       = "added"
	statusRemoved     = "removed"
)

// The diff's file labels: the input and a cluster's render, or the base
// revision's render and this revision's.
const (
	labelInput    = "input"
	labelRendered = "rendered"
	labelBase     = "base"
	labelHead     = "head"
)

// diffReport is what diff reports; its JSON form is documented in
// README.md (apply-overrides diff).
type diffReport struct {
	APIVersion string      `json:"apiVersion"`
	Kind       string      `json:"kind"`
	Compare    string      `json:"compare"` // "input" or "base"
	Clusters   []string    `json:"clusters"`
	Summary    diffSummary `json:"summary"`
	Resources  []diffRow   `json:"resources"`
}

// diffSummary counts the cells (resource × cluster) by status.
type diffSummary struct {
	Resources   int  `json:"resources"`
	Differs     bool `json:"differs"`
	Changed     int  `json:"changed"`
	Unchanged   int  `json:"unchanged"`
	NotReceived int  `json:"notReceived"`
	Added       int  `json:"added"`
	Removed     int  `json:"removed"`
}

// diffRow is one resource and what each cluster receives of it.
type diffRow struct {
	APIVersion string     `json:"apiVersion"`
	Kind       string     `json:"kind"`
	Namespace  string     `json:"namespace,omitempty"`
	Name       string     `json:"name"`
	File       string     `json:"file,omitempty"`
	Clusters   []diffCell `json:"clusters"`
}

// diffCell is one resource on one cluster.
type diffCell struct {
	Cluster  string   `json:"cluster"`
	Status   string   `json:"status"`
	Fields   *int     `json:"fields,omitempty"`   // changed: the JSON leaf pointers that differ
	Pointers []string `json:"pointers,omitempty"` // changed: those pointers, sorted
	Diff     string   `json:"diff,omitempty"`     // changed, added, removed: a unified diff of the YAML
}

// differs reports whether the cell is a difference: anything but
// unchanged, and, between two revisions, but a resource neither render
// sends to the cluster.
func (c diffCell) differs(compare string) bool {
	return c.Status != statusUnchanged && !(compare == labelBase && c.Status == statusNotReceived)
}

// newReport is an empty report comparing with "input" or "base".
func newReport(compare string, clusters []string) *diffReport {
	return &diffReport{APIVersion: ConfigAPIVersion, Kind: "DiffReport", Compare: compare, Clusters: clusters, Resources: []diffRow{}}
}

// compareInput compares each resource of the input with what each
// cluster receives.
func compareInput(head *revision) (*diffReport, error) {
	rep := newReport(labelInput, head.clusters)
	t := texts{}
	for _, i := range head.rows {
		row := newRow(head.items[i])
		for ci, cluster := range head.clusters {
			got := head.received[ci][i]
			if got == nil {
				row.Clusters = append(row.Clusters, diffCell{Cluster: cluster, Status: statusNotReceived})
				continue
			}
			cell, err := t.compareNodes(cluster, head.items[i], got, labelInput, labelRendered)
			if err != nil {
				return nil, err
			}
			row.Clusters = append(row.Clusters, cell)
		}
		rep.add(row)
	}
	return rep, nil
}

// compareRevisions compares, per cluster, what the base revision sends it
// with what this revision (head) sends it. Resources match by apiVersion,
// kind, namespace and name; the rows are head's resources in input order,
// then those only the base has; the clusters head's, then those only the
// base renders.
func compareRevisions(base, head *revision) (*diffReport, error) {
	clusters := slices.Clone(head.clusters)
	for _, c := range base.clusters {
		if !slices.Contains(clusters, c) {
			clusters = append(clusters, c)
		}
	}
	baseRows := map[string]int{}
	for _, i := range base.rows {
		baseRows[rowKey(base.items[i])] = i
	}
	type pair struct{ base, head int }
	var pairs []pair
	inHead := map[string]bool{}
	for _, i := range head.rows {
		key := rowKey(head.items[i])
		inHead[key] = true
		b, ok := baseRows[key]
		if !ok {
			b = -1
		}
		pairs = append(pairs, pair{b, i})
	}
	for _, i := range base.rows {
		if !inHead[rowKey(base.items[i])] {
			pairs = append(pairs, pair{i, -1})
		}
	}
	rep := newReport(labelBase, clusters)
	t := texts{}
	for _, p := range pairs {
		var row diffRow
		if p.head >= 0 {
			row = newRow(head.items[p.head])
		} else {
			row = newRow(base.items[p.base])
		}
		for _, cluster := range clusters {
			cell, err := t.compareNodes(cluster, base.node(cluster, p.base), head.node(cluster, p.head), labelBase, labelHead)
			if err != nil {
				return nil, err
			}
			row.Clusters = append(row.Clusters, cell)
		}
		rep.add(row)
	}
	return rep, nil
}

// node is what the revision sends the cluster of its item i (-1: none).
func (rev *revision) node(cluster string, i int) *yaml.RNode {
	ci := slices.Index(rev.clusters, cluster)
	if ci < 0 || i < 0 {
		return nil
	}
	return rev.received[ci][i]
}

// rowKey identifies a resource across revisions.
func rowKey(n *yaml.RNode) string {
	r := policy.RefOf(n)
	return r.APIVersion + "\x00" + r.Kind + "\x00" + r.Namespace + "\x00" + r.Name
}

// newRow is the row of a resource, without cells.
func newRow(n *yaml.RNode) diffRow {
	r := policy.RefOf(n)
	return diffRow{APIVersion: r.APIVersion, Kind: r.Kind, Namespace: r.Namespace, Name: r.Name, File: r.File}
}

// add appends a row and counts its cells.
func (rep *diffReport) add(row diffRow) {
	s := &rep.Summary
	s.Resources++
	for _, c := range row.Clusters {
		switch c.Status {
		case statusChanged:
			s.Changed++
		case statusUnchanged:
			s.Unchanged++
		case statusNotReceived:
			s.NotReceived++
		case statusAdded:
			s.Added++
		case statusRemoved:
			s.Removed++
		}
		s.Differs = s.Differs || c.differs(rep.Compare)
	}
	rep.Resources = append(rep.Resources, row)
}

// compareNodes compares a resource before (a, labelled from) and after (b,
// labelled to) on a cluster; a nil node is one the cluster does not
// receive: nil before is added, nil after removed, nil on both sides not
// received.
func (t texts) compareNodes(cluster string, a, b *yaml.RNode, from, to string) (diffCell, error) {
	cell := diffCell{Cluster: cluster}
	if a == nil && b == nil {
		cell.Status = statusNotReceived
		return cell, nil
	}
	ta, err := t.of(a)
	if err != nil {
		return cell, err
	}
	tb, err := t.of(b)
	if err != nil {
		return cell, err
	}
	switch {
	case b == nil:
		cell.Status = statusRemoved
	case a == nil:
		cell.Status = statusAdded
	case ta == tb:
		cell.Status = statusUnchanged
		return cell, nil
	default:
		ja, err := jsonOf(a)
		if err != nil {
			return cell, err
		}
		jb, err := jsonOf(b)
		if err != nil {
			return cell, err
		}
		ptrs, _ := policy.ChangedPointers(ja, jb, math.MaxInt)
		n := len(ptrs)
		cell.Status, cell.Fields, cell.Pointers = statusChanged, &n, ptrs
	}
	cell.Diff, err = difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: lines(ta), B: lines(tb), FromFile: from, ToFile: to, Context: 3,
	})
	if err != nil {
		return cell, fmt.Errorf("%s on cluster %s: diff: %w", policy.RefOf(firstNode(a, b)).GVKString(), cluster, err)
	}
	return cell, nil
}

// texts holds each resource's text as render writes it (without the
// reader's annotations), so that an input resource compared with many
// clusters' copies is written once.
type texts map[*yaml.RNode]string

// of is n's text; "" for nil.
func (t texts) of(n *yaml.RNode) (string, error) {
	if n == nil {
		return "", nil
	}
	if s, ok := t[n]; ok {
		return s, nil
	}
	var buf bytes.Buffer
	if err := writeRenderStream(&buf, []*yaml.RNode{n}, true); err != nil {
		return "", fmt.Errorf("%s: %w", policy.RefOf(n).GVKString(), err)
	}
	t[n] = buf.String()
	return t[n], nil
}

// jsonOf is n as JSON, without the reader's annotations.
func jsonOf(n *yaml.RNode) ([]byte, error) {
	c := n.Copy()
	for _, k := range readerAnnotations {
		if err := c.PipeE(yaml.ClearAnnotation(k)); err != nil {
			return nil, fmt.Errorf("%s: clear annotation %s: %w", policy.RefOf(n).GVKString(), k, err)
		}
	}
	if err := yaml.ClearEmptyAnnotations(c); err != nil {
		return nil, fmt.Errorf("%s: %w", policy.RefOf(n).GVKString(), err)
	}
	js, err := yamlnode.MarshalJSON(c.YNode())
	if err != nil {
		return nil, fmt.Errorf("%s: encode as JSON: %w", policy.RefOf(n).GVKString(), err)
	}
	return js, nil
}

// lines splits a text into its lines, each with its newline.
func lines(s string) []string {
	if s == "" {
		return nil
	}
	l := strings.SplitAfter(s, "\n")
	if l[len(l)-1] == "" {
		l = l[:len(l)-1]
	}
	return l
}

// firstNode is a if it is not nil, else b.
func firstNode(a, b *yaml.RNode) *yaml.RNode {
	if a != nil {
		return a
	}
	return b
}

// fieldsText is a changed cell's count in words.
func fieldsText(n int) string {
	switch n {
	case 0:
		return "changed (comments or layout only)"
	case 1:
		return "changed 1 field"
	}
	return "changed " + strconv.Itoa(n) + " fields"
}
