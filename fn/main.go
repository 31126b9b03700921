// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/pprof"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"

	"github.com/apply-overrides/apply-overrides/internal/resourcelist"
)

// Version is the build's version, stamped by the Makefile with
// -ldflags "-X github.com/apply-overrides/apply-overrides/fn.Version=..."
// from hack/version.sh; empty in a plain go build (see version).
var Version = ""

// The limits every input is held to, which the ResourceList reader
// (internal/resourcelist) enforces: the largest input read, how many nodes
// its YAML aliases may expand to, and how deeply its values may nest.
const (
	MaxInputBytes = resourcelist.MaxInputBytes
	MaxAliasNodes = resourcelist.MaxAliasNodes
	MaxDepth      = resourcelist.MaxDepth
)

const usage = `apply-overrides: render what one member cluster of a fleet receives.

Reads a KRM ResourceList (config.kubernetes.io/v1) on stdin: workload manifests,
Karmada/ACK One and KubeAdmiral OverridePolicy and ClusterOverridePolicy
objects, KubeFleet ClusterResourceOverride, ResourceOverride and placement
objects, the cluster inventory (Karmada Cluster, KubeAdmiral FederatedCluster
or KubeFleet MemberCluster objects) and a functionConfig naming the cluster.
Writes the overridden ResourceList on stdout.

functionConfig, either:
  apiVersion: apply-overrides.dev/v1alpha1
  kind: ApplyOverrides
  spec:
    cluster: member1          # the cluster to render
    keepPolicies: false       # keep policy and Cluster objects in the output
    # render: {clusters: ["*"]}  # instead of cluster: every cluster, one folder each
    clusters:                 # optional inline inventory
    - {name: member1, labels: {env: prod}, provider: aws, region: us-east-1, zones: [us-east-1a]}
or a ConfigMap with data.cluster (and data.keepPolicies), e.g.
  kpt fn eval DIR --exec apply-overrides -- cluster=member1
or, for every cluster in one run, one folder each:
  kpt fn eval DIR --exec apply-overrides --output OUT -- 'render=*'

For people, the same render on files, writing plain YAML:
  apply-overrides render --cluster member1 DIR      (see apply-overrides render --help)
and what each cluster receives that differs from the input (or, with --base,
from a base revision), as a Markdown report for a pull request or JSON:
  apply-overrides diff --all DIR                     (see apply-overrides diff --help)

Flags:
  --help      this text
  --version   print the version (a semver with the commit, e.g. v0.0.0-dev+f50b9d1)

Exit status: 0 on success, 1 when any error result was reported, 2 on bad usage.
See https://github.com/apply-overrides/apply-overrides for the full reference.
`

// Main runs the function with the given arguments and streams and returns
// the process exit status.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if !celLinked {
		h, rest := planHandOver(args, stdin, stderr)
		if h != nil {
			return h.run(stdout, stderr)
		}
		stdin = rest
	}
	if len(args) > 0 && args[0] == "render" {
		return runRender(args[1:], stdin, stdout, stderr)
	}
	if len(args) > 0 && args[0] == "diff" {
		return runDiff(args[1:], stdin, stdout, stderr)
	}
	for _, a := range args {
		switch a {
		case "--help", "-h", "help":
			fmt.Fprint(stdout, usage)
			return 0
		case "--version", "version":
			fmt.Fprintln(stdout, "apply-overrides", version())
			return 0
		default:
			fmt.Fprintf(stderr, "apply-overrides: unexpected argument %q: the function reads a ResourceList on stdin and takes its configuration from the functionConfig; apply-overrides render and diff read files (see --help)\n", a)
			return 2
		}
	}
	if path := os.Getenv("APPLY_OVERRIDES_CPUPROFILE"); path != "" {
		stop, err := startCPUProfile(path)
		if err != nil {
			fmt.Fprintln(stderr, "apply-overrides:", err)
			return 1
		}
		defer stop()
	}
	out, results := executeTo(watchTerminal(stdin, stderr))
	if path := os.Getenv("APPLY_OVERRIDES_MEMPROFILE"); path != "" {
		if perr := writeAllocProfile(path); perr != nil {
			fmt.Fprintln(stderr, "apply-overrides:", perr)
			return 1
		}
	}
	code := reportResults(results, stderr, false)
	if _, err := out.WriteTo(stdout); err != nil {
		fmt.Fprintln(stderr, "apply-overrides: write the output ResourceList:", err)
		return 1
	}
	return code
}

// version is the build's version: Version as the Makefile stamps it
// (hack/version.sh: a semver with the commit as build metadata), or, in a
// plain go build, v0.0.0-dev with the commit Go recorded, if any.
func version() string {
	if Version != "" {
		return Version
	}
	v := "v0.0.0-dev"
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	var rev, dirty string
	for _, s := range info.Settings {
		switch {
		case s.Key == "vcs.revision" && len(s.Value) >= 7:
			rev = s.Value[:7]
		case s.Key == "vcs.modified" && s.Value == "true":
			dirty = ".dirty"
		}
	}
	if rev == "" {
		return v
	}
	return v + "+" + rev + dirty
}

// describeResult is a result as one line of text, naming the file, the
// resource and the field the structured result names.
func describeResult(r *framework.Result) string {
	var where []string
	if r.File != nil && r.File.Path != "" && !strings.Contains(r.Message, r.File.Path) {
		where = append(where, "file "+r.File.Path)
	}
	if r.Field != nil && r.Field.Path != "" && !strings.Contains(r.Message, r.Field.Path) {
		where = append(where, "field "+r.Field.Path)
	}
	if pf := r.Tags[policyFileTag]; pf != "" && !strings.Contains(r.Message, pf) {
		where = append(where, "policy file "+pf)
	}
	line := fmt.Sprintf("[%s] %s", r.Severity, r.Message)
	if len(where) > 0 {
		line += " (" + strings.Join(where, ", ") + ")"
	}
	return line
}

// execute reads and checks the ResourceList, renders it and returns the
// whole output and the results. On any error the output is a ResourceList
// with no items and the results: it is never a partial list, and nothing is
// written before the run is known to have succeeded.
//
// It does what framework.Execute does minus the legacy/internal annotation
// migration, which exists for functions that move items between files: this
// function never touches path or index annotations, and the migration
// rejects inputs whose items mix annotation formats.
func execute(stdin io.Reader) ([]byte, framework.Results) {
	out, results := executeTo(stdin)
	var buf bytes.Buffer
	if _, err := out.WriteTo(&buf); err != nil {
		// Only a fan-out's output is written here, into memory, from text
		// it has checked.
		return failure("", fmt.Errorf("write the output ResourceList: %w", err))
	}
	return buf.Bytes(), results
}

// executeTo is execute, its output written by the caller: a fan-out run's
// output, many times the input's size, is not held as one text but written
// from the copies' shared texts (streamFanOut) once the run is over.
func executeTo(stdin io.Reader) (io.WriterTo, framework.Results) {
	data, err := resourcelist.ReadAll(stdin)
	if err != nil {
		out, results := failure("", err)
		return bytes.NewBuffer(out), results
	}
	warm(data)
	data, enc := resourcelist.Normalize(data)
	if out, results, ok := streamFanOut(data); ok {
		return encodedOutput{out: out, enc: enc}, results
	}
	// The output is about the input's size. The buffer is made, not
	// grown: Grow clears it in one copy that cannot be preempted (see
	// resourcelist.readInput).
	buf := bytes.NewBuffer(make([]byte, 0, len(data)+len(data)/8+4096))
	if results, ok := stream(data, buf); ok {
		return bytes.NewBuffer(enc.Apply(buf.Bytes())), results
	}
	in, err := resourcelist.Parse(data, listOptions)
	if err != nil {
		out, results := failure("", err)
		return bytes.NewBuffer(enc.Apply(out)), results
	}
	results, ok := executeList(in, buf)
	if !ok {
		out, results := failure(in.APIVersion, results)
		return bytes.NewBuffer(enc.Apply(out)), results
	}
	return bytes.NewBuffer(enc.Apply(buf.Bytes())), results
}

// encodedOutput writes an output in the input's encoding.
type encodedOutput struct {
	out io.WriterTo
	enc resourcelist.Encoding
}

func (e encodedOutput) WriteTo(w io.Writer) (int64, error) { return e.out.WriteTo(e.enc.Writer(w)) }

// failure is the output of a failed run and its results.
func failure(apiVersion string, err error) ([]byte, framework.Results) {
	results := errorResults(err)
	var buf bytes.Buffer
	if werr := resourcelist.WriteFailure(&buf, apiVersion, results); werr != nil {
		results = append(results, &framework.Result{Severity: framework.Error, Message: "encode the results: " + werr.Error()})
		return nil, results
	}
	return buf.Bytes(), results
}

// errorResults is a failed run's error as results: the reader's problems
// and a run's results as they are, any other error as one error result.
func errorResults(err error) framework.Results {
	switch e := err.(type) {
	case resourcelist.Errors:
		return framework.Results(e)
	case framework.Results:
		return e
	}
	return framework.Results{{Severity: framework.Error, Message: err.Error()}}
}

// executeList renders a checked input with every item parsed and writes
// the output list; ok is false when an error result was reported.
func executeList(in *resourcelist.List, w io.Writer) (framework.Results, bool) {
	rl := &framework.ResourceList{Items: in.Items, FunctionConfig: in.FunctionConfig}
	r := &run{rl: rl}
	var items []resourcelist.Item
	if cfg, err := ParseConfig(in.FunctionConfig); err == nil && cfg.Render != nil {
		// Fan-out: one parse, a render per cluster (see fanOutItems).
		renders, ok := r.processFleet(nil)
		if !ok {
			return rl.Results, false
		}
		if items, err = r.fanOutItems(in, renders); err != nil {
			r.fail(configResult(err, in.FunctionConfig))
			return rl.Results, false
		}
		names := make([]string, len(renders))
		copies := 0
		for i, rd := range renders {
			names[i] = rd.cluster.Name
			for _, o := range rd.items {
				if o.resource {
					copies++
				}
			}
		}
		rl.Results = append(rl.Results, fanOutSummary(names, copies, cfg.Render.PathTemplate))
	} else {
		out, ok := r.process() // reports a functionConfig that does not parse
		if !ok {
			return rl.Results, false
		}
		items = listItems(in, out)
	}
	enc, err := resourcelist.EncodeResults(rl.Results)
	if err == nil {
		err = resourcelist.WriteList(w, in.APIVersion, in.Kind, items, in.FunctionConfig, enc)
	}
	if err != nil {
		return append(rl.Results, &framework.Result{Severity: framework.Error, Message: "write the output ResourceList: " + err.Error()}), false
	}
	return rl.Results, true
}

// listItems is what the writer needs of the output items: an item no
// render touched is written as its text in the input, when the input kept
// it.
func listItems(in *resourcelist.List, out []outItem) []resourcelist.Item {
	items := make([]resourcelist.Item, len(out))
	for i, o := range out {
		items[i].Node = o.node
		if !o.touched {
			items[i].Source = in.Source(o.index)
		}
	}
	return items
}

// writeAllocProfile writes the allocation profile of the run to path
// (APPLY_OVERRIDES_MEMPROFILE=path, for PERFORMANCE.md's measurements).
func writeAllocProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("memory profile: %w", err)
	}
	if err := errors.Join(pprof.Lookup("allocs").WriteTo(f, 0), f.Close()); err != nil {
		return fmt.Errorf("memory profile: %w", err)
	}
	return nil
}

// startCPUProfile writes a CPU profile to path until stop is called
// (APPLY_OVERRIDES_CPUPROFILE=path, for PERFORMANCE.md's measurements).
func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "apply-overrides: cpu profile:", err)
		}
	}, nil
}
