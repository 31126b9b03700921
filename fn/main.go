// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/pprof"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Version is the build's version, stamped by the Makefile with
// -ldflags "-X github.com/apply-overrides/apply-overrides/fn.Version=...".
var Version = "dev"

const usage = `apply-overrides: render what one member cluster of a fleet receives.

Reads a KRM ResourceList (config.kubernetes.io/v1) on stdin: workload manifests,
Karmada/ACK One and KubeAdmiral OverridePolicy and ClusterOverridePolicy
objects, the cluster inventory (Karmada Cluster or KubeAdmiral FederatedCluster
objects) and a functionConfig naming the cluster. Writes the overridden
ResourceList on stdout.

functionConfig, either:
  apiVersion: apply-overrides.dev/v1alpha1
  kind: ApplyOverrides
  spec:
    cluster: member1          # the cluster to render
    keepPolicies: false       # keep policy and Cluster objects in the output
    clusters:                 # optional inline inventory
    - {name: member1, labels: {env: prod}, provider: aws, region: us-east-1, zones: [us-east-1a]}
or a ConfigMap with data.cluster (and data.keepPolicies), e.g.
  kpt fn eval DIR --exec apply-overrides -- cluster=member1

Flags:
  --help      this text
  --version   print the version

Exit status: 0 on success, 1 when any error result was reported, 2 on bad usage.
See https://github.com/apply-overrides/apply-overrides for the full reference.
`

// Main runs the function with the given arguments and streams and returns
// the process exit status.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	for _, a := range args {
		switch a {
		case "--help", "-h", "help":
			fmt.Fprint(stdout, usage)
			return 0
		case "--version", "version":
			fmt.Fprintln(stdout, "apply-overrides", Version)
			return 0
		default:
			fmt.Fprintf(stderr, "apply-overrides: unexpected argument %q: the function reads a ResourceList on stdin and takes its configuration from the functionConfig (see --help)\n", a)
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
	failed, err := execute(stdin, stdout)
	if path := os.Getenv("APPLY_OVERRIDES_MEMPROFILE"); path != "" {
		if perr := writeAllocProfile(path); perr != nil {
			fmt.Fprintln(stderr, "apply-overrides:", perr)
			return 1
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "apply-overrides:", err)
		return 1
	}
	for _, r := range failed {
		fmt.Fprintf(stderr, "[error] %s\n", r.Message)
	}
	if len(failed) > 0 {
		return 1
	}
	return 0
}

// execute reads the ResourceList, runs the Processor and writes the list
// back, with its results. It returns the error results; err is a failure to
// read or write the list itself.
//
// It does what framework.Execute does minus the legacy/internal annotation
// migration, which exists for functions that move items between files: this
// function never touches path or index annotations, and the migration
// rejects inputs whose items mix annotation formats.
func execute(stdin io.Reader, stdout io.Writer) (framework.Results, error) {
	data, err := io.ReadAll(stdin)
	if err != nil {
		return nil, fmt.Errorf("read the input ResourceList: %w", err)
	}
	data = normalizeNewlines(data)
	if failed, ok, err := stream(data, stdout); ok {
		if err != nil {
			return nil, fmt.Errorf("write the output ResourceList: %w", err)
		}
		return failed, nil
	}
	return executeList(data, stdout)
}

// executeList is execute on the whole list at once: every item parsed, then
// overridden, then written.
func executeList(data []byte, stdout io.Writer) (framework.Results, error) {
	in, err := readInput(data)
	if err != nil {
		return nil, fmt.Errorf("read the input ResourceList: %w", err)
	}
	rw, items := in.rw, in.items
	rw.Writer = stdout
	rl := &framework.ResourceList{Items: items, FunctionConfig: rw.FunctionConfig}
	p := Processor{}
	if in.sources != nil {
		p.Restore = in.restore
	}
	perr := p.Process(rl)
	if perr != nil && !errors.As(perr, new(framework.Results)) {
		rl.Results = append(rl.Results, &framework.Result{Message: perr.Error(), Severity: framework.Error})
	}
	if rw.Results, err = encodeResults(rl.Results); err != nil {
		return nil, err
	}
	if rw.WrappingKind == kio.ResourceListKind {
		err = writeResourceList(stdout, rw.WrappingAPIVersion, rw.WrappingKind, rl.Items, rw.FunctionConfig, rw.Results)
	} else {
		err = rw.Write(rl.Items) // not a ResourceList: kyaml writes what it read
	}
	if err != nil {
		return nil, fmt.Errorf("write the output ResourceList: %w", err)
	}
	var failed framework.Results
	for _, r := range rl.Results {
		if r.Severity == framework.Error {
			failed = append(failed, r)
		}
	}
	return failed, nil
}

// encodeResults turns the results into the ResourceList's results field;
// nil when there are none.
func encodeResults(results framework.Results) (*yaml.RNode, error) {
	if len(results) == 0 {
		return nil, nil
	}
	b, err := yaml.Marshal(results)
	if err != nil {
		return nil, fmt.Errorf("encode results: %w", err)
	}
	n, err := yaml.Parse(string(b))
	if err != nil {
		return nil, fmt.Errorf("encode results: %w", err)
	}
	return n, nil
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
