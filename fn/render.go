// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/resourcelist"
	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
)

const renderUsage = `apply-overrides render: render the manifests a member cluster receives, as plain YAML.

Usage:
  apply-overrides render [--cluster NAME ... | --all] [flags] [-o DIR] [FILE|DIR|- ...]

Reads plain manifests (multi-document YAML files; directories, recursively:
every .yaml and .yml file, hidden files and directories skipped) or one
ResourceList, from the files and directories named, or from stdin without
any (or with -). Writes the rendered manifests as a multi-document YAML
stream on stdout, or, with -o DIR, as files laid out like the input (one
folder per cluster with --all or several --cluster).

An ApplyOverrides object among the input files (or a ResourceList's
functionConfig) configures the run; the flags override the fields they set.

Flags:
  --cluster NAME     render this cluster; repeat it to render several, one folder each
  --all              render every cluster of the inventory, one folder each
  --placement MODE   auto (the default), enforce or off
  --keep-policies    keep policy and cluster objects in the output
  --explain          report which policy step changed which fields (info results; see --verbose)
  -o, --output DIR   write files under DIR instead of a stream on stdout
  --force            write into DIR even if it is not empty (files of the same name are replaced)
  --verbose          print info results on stderr too, not only errors and warnings
  --help             this text

Exit status: 0 on success, 1 when any error result was reported, 2 on bad usage.

apply-overrides diff renders the same way and reports what differs per
cluster (see apply-overrides diff --help).
`

// renderFlags are the command line of apply-overrides render.
type renderFlags struct {
	clusters     []string
	all          bool
	placement    string
	keepPolicies bool
	explain      bool
	output       string
	force        bool
	verbose      bool
	inputs       []string
	set          map[string]bool // the flags given
}

// listFlag collects the values of a repeated flag; empty is the error for
// an empty value.
type listFlag struct {
	values *[]string
	empty  string
}

func (l listFlag) String() string {
	if l.values == nil {
		return ""
	}
	return strings.Join(*l.values, ",")
}

func (l listFlag) Set(v string) error {
	if v == "" {
		return errors.New(l.empty)
	}
	*l.values = append(*l.values, v)
	return nil
}

// errHelp asks for the usage text.
var errHelp = errors.New("help")

// parseRenderFlags reads render's command line; flags and inputs may come
// in any order, and every argument after -- is an input.
func parseRenderFlags(args []string) (*renderFlags, error) {
	f := &renderFlags{set: map[string]bool{}}
	fs := f.flagSet("render")
	fs.BoolVar(&f.keepPolicies, "keep-policies", false, "")
	fs.BoolVar(&f.explain, "explain", false, "")
	fs.StringVar(&f.output, "o", "", "")
	fs.StringVar(&f.output, "output", "", "")
	fs.BoolVar(&f.force, "force", false, "")
	if err := f.parse(fs, args); err != nil {
		return nil, err
	}
	if f.force && f.output == "" {
		return nil, errors.New("--force applies to -o DIR: name the output directory with -o, or drop --force")
	}
	return f, nil
}

// flagSet is a flag set with the flags render and diff share: which
// clusters, the placement mode and --verbose.
func (f *renderFlags) flagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Var(listFlag{&f.clusters, "empty cluster name: name a cluster of the inventory"}, "cluster", "")
	fs.BoolVar(&f.all, "all", false, "")
	fs.StringVar(&f.placement, "placement", "", "")
	fs.BoolVar(&f.verbose, "verbose", false, "")
	return fs
}

// parse reads a command line into f with fs (from flagSet); flags and
// inputs may come in any order, and every argument after -- is an input.
func (f *renderFlags) parse(fs *flag.FlagSet, args []string) error {
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return errHelp
			}
			return err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			f.inputs = append(f.inputs, rest...)
			break
		}
		f.inputs = append(f.inputs, rest[0])
		args = rest[1:]
	}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	if f.all && len(f.clusters) > 0 {
		return errors.New("--all and --cluster are exclusive: --all renders every cluster of the inventory, --cluster the ones it names; keep one of them")
	}
	if f.set["placement"] {
		if _, err := placementMode(f.placement); err != nil {
			return fmt.Errorf("--placement: %w", err)
		}
	}
	return nil
}

// renderInput is what render reads: a ResourceList's bytes taken whole, or
// the items of plain manifests and the ApplyOverrides object among them.
type renderInput struct {
	list   []byte // a ResourceList, as read
	items  []*yaml.RNode
	config *yaml.RNode // an ApplyOverrides object found among the items
}

// readRenderInputs reads the files and directories named ("-" or none:
// stdin).
func readRenderInputs(paths []string, stdin io.Reader) (*renderInput, error) {
	if len(paths) == 0 {
		paths = []string{"-"}
	}
	in := &renderInput{}
	from := map[string]string{} // an item path → the input it came from
	for _, p := range paths {
		nodes, raw, err := readRenderInput(p, stdin)
		if err != nil {
			return nil, err
		}
		for _, n := range nodes {
			if isResourceList(n) {
				if len(paths) > 1 || len(nodes) > 1 {
					return nil, fmt.Errorf("%s holds a ResourceList among other inputs: a ResourceList is taken whole, so pass it alone", describeInput(p))
				}
				if raw == nil { // a directory holding one ResourceList file
					if raw, err = readListFile(p, n); err != nil {
						return nil, err
					}
				}
				in.list = raw
				return in, nil
			}
			if n.GetApiVersion() == ConfigAPIVersion && n.GetKind() == ConfigKind {
				if in.config != nil {
					return nil, fmt.Errorf("%s holds a second %s %s (%s; the first is %s): keep one functionConfig among the inputs", describeInput(p), ConfigAPIVersion, ConfigKind, n.GetName(), in.config.GetName())
				}
				in.config = n
				continue
			}
			if path := n.GetAnnotations()[kioutil.PathAnnotation]; path != "" {
				if other, ok := from[path]; ok && other != p {
					return nil, fmt.Errorf("%s and %s both hold a file %s, relative to each: render them in separate runs, or pass their common parent directory", describeInput(other), describeInput(p), path)
				}
				from[path] = p
			}
			in.items = append(in.items, n)
		}
	}
	return in, nil
}

// readListFile reads the bytes of the ResourceList n that the directory
// dir holds, from the file its path annotation names, to take it whole as
// a file named alone is.
func readListFile(dir string, n *yaml.RNode) ([]byte, error) {
	rel := n.GetAnnotations(kioutil.PathAnnotation, kioutil.LegacyPathAnnotation)
	path := rel[kioutil.PathAnnotation]
	if path == "" {
		path = rel[kioutil.LegacyPathAnnotation]
	}
	if path == "" {
		return nil, fmt.Errorf("%s holds a ResourceList whose file kyaml did not name: pass the file itself", dir)
	}
	raw, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(path)))
	if err != nil {
		return nil, fmt.Errorf("read the ResourceList in %s: %w: pass the file itself", dir, err)
	}
	return raw, nil
}

// describeInput names an input in a message.
func describeInput(p string) string {
	if p == "-" {
		return "stdin"
	}
	return p
}

// isResourceList reports whether a document is a ResourceList.
func isResourceList(n *yaml.RNode) bool {
	return n.GetKind() == kio.ResourceListKind && strings.HasPrefix(n.GetApiVersion(), "config.kubernetes.io/")
}

// readRenderInput reads one input: stdin, a file or a directory. Items of
// files carry the path relative to the directory named (a file named: to
// its directory) and their index in it, as kpt sets them; raw is the bytes
// of stdin or of a single file, for a ResourceList.
func readRenderInput(p string, stdin io.Reader) (nodes []*yaml.RNode, raw []byte, err error) {
	if p == "-" {
		raw, err = resourcelist.ReadAll(stdin)
		if err != nil {
			return nil, nil, fmt.Errorf("read stdin: %w", err)
		}
		nodes, err = (&kio.ByteReader{Reader: bytes.NewReader(raw), DisableUnwrapping: true, PreserveSeqIndent: true}).Read()
		if err != nil {
			return nil, nil, fmt.Errorf("stdin: %w: pass multi-document YAML or a ResourceList", err)
		}
		return nodes, raw, nil
	}
	st, err := os.Stat(p)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: name a file or a directory of manifests, or - for stdin", err)
	}
	r := kio.LocalPackageReader{PackagePath: p, PreserveSeqIndent: true, FileSkipFunc: hidden}
	if !st.IsDir() {
		r.MatchFilesGlob = []string{"*"} // a file named is read whatever its name
		if raw, err = os.ReadFile(p); err != nil {
			return nil, nil, err
		}
	}
	nodes, err = r.Read()
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", p, err)
	}
	return nodes, raw, nil
}

// hidden skips the files that start with a dot or lie in such a
// directory, as kpt does.
func hidden(relPath string) bool {
	for _, part := range strings.Split(filepath.ToSlash(relPath), "/") {
		if strings.HasPrefix(part, ".") && part != "." && part != ".." {
			return true
		}
	}
	return false
}

// functionConfig is the run's functionConfig: base (the ApplyOverrides
// object or the ResourceList's functionConfig; nil: none) with the flags
// applied on top.
func (f *renderFlags) functionConfig(base *yaml.RNode) (*yaml.RNode, error) {
	var fc *yaml.RNode
	if base != nil && !base.IsNilOrEmpty() {
		fc = base.Copy()
	} else {
		fc = yaml.MustParse("apiVersion: " + ConfigAPIVersion + "\nkind: " + ConfigKind + "\nmetadata:\n  name: render\n")
	}
	if fc.GetApiVersion() == "v1" && fc.GetKind() == "ConfigMap" {
		return fc, f.applyToConfigMap(fc)
	}
	if fc.GetApiVersion() != ConfigAPIVersion || fc.GetKind() != ConfigKind {
		return fc, nil // ParseConfig reports it
	}
	var set []yaml.Filter
	switch {
	case f.all || len(f.clusters) > 1:
		names := f.clusters
		if f.all {
			names = []string{allClusters}
		}
		set = append(set, yaml.Clear("cluster"), setField(yaml.NewListRNode(names...), "render", "clusters"))
	case len(f.clusters) == 1:
		set = append(set, yaml.Clear("render"), setField(yaml.NewScalarRNode(f.clusters[0]), "cluster"))
	}
	if f.set["placement"] {
		set = append(set, setField(yaml.NewScalarRNode(f.placement), "placement"))
	}
	if f.set["keep-policies"] {
		set = append(set, setField(yaml.NewScalarRNode(strconv.FormatBool(f.keepPolicies)), "keepPolicies"))
	}
	if f.explain {
		set = append(set, setField(yaml.NewScalarRNode("true"), "explain"))
	}
	if len(set) == 0 {
		return fc, nil
	}
	spec, err := fc.Pipe(yaml.LookupCreate(yaml.MappingNode, "spec"))
	if err != nil {
		return nil, fmt.Errorf("functionConfig %s: spec: %w", fc.GetName(), err)
	}
	for _, s := range set {
		if _, err := spec.Pipe(s); err != nil {
			return nil, fmt.Errorf("functionConfig %s: %w", fc.GetName(), err)
		}
	}
	return fc, nil
}

// setField sets the field at path (under spec) to v, creating the maps on
// the way.
func setField(v *yaml.RNode, path ...string) yaml.Filter {
	return yaml.FilterFunc(func(n *yaml.RNode) (*yaml.RNode, error) {
		if v.YNode().Kind == yaml.ScalarNode && (v.YNode().Value == "true" || v.YNode().Value == "false") {
			v.YNode().Tag = yaml.NodeTagBool
		}
		parent, err := n.Pipe(yaml.LookupCreate(yaml.MappingNode, path[:len(path)-1]...))
		if err != nil {
			return nil, err
		}
		return parent, parent.PipeE(yaml.SetField(path[len(path)-1], v))
	})
}

// applyToConfigMap sets the flags on a ConfigMap functionConfig's data.
func (f *renderFlags) applyToConfigMap(fc *yaml.RNode) error {
	data := fc.GetDataMap()
	switch {
	case f.all:
		delete(data, "cluster")
		data["render"] = allClusters
	case len(f.clusters) > 1:
		delete(data, "cluster")
		data["render"] = strings.Join(f.clusters, ",")
	case len(f.clusters) == 1:
		delete(data, "render")
		data["cluster"] = f.clusters[0]
	}
	if f.set["placement"] {
		data["placement"] = f.placement
	}
	if f.set["keep-policies"] {
		data["keepPolicies"] = strconv.FormatBool(f.keepPolicies)
	}
	if f.explain {
		data["explain"] = "true"
	}
	fc.SetDataMap(data)
	return nil
}

// readerAnnotations are the annotations render's reader sets on the items
// of plain manifests, which the output leaves out again.
var readerAnnotations = []string{
	kioutil.PathAnnotation, kioutil.LegacyPathAnnotation,
	kioutil.IndexAnnotation, kioutil.LegacyIndexAnnotation,
	kioutil.SeqIndentAnnotation, kioutil.IdAnnotation, kioutil.LegacyIdAnnotation,
}

// runRender is apply-overrides render.
func runRender(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f, err := parseRenderFlags(args)
	if code, done := usageOutcome("render", renderUsage, err, stdout, stderr); done {
		return code
	}
	if f.output != "" {
		if err := checkOutputDir(f.output, f.force); err != nil {
			fmt.Fprintln(stderr, "apply-overrides render:", err)
			return 2
		}
	}
	in, err := readRenderInputs(f.inputs, stdin)
	if err != nil {
		fmt.Fprintln(stderr, "apply-overrides render:", err)
		return 2
	}
	list, err := f.buildList(in)
	if err != nil {
		fmt.Fprintln(stderr, "apply-overrides render:", err)
		return 1
	}
	out, results := execute(bytes.NewReader(list))
	code := reportResults(results, stderr, f.verbose)
	if code != 0 {
		return code
	}
	items, err := (&kio.ByteReader{Reader: bytes.NewReader(out), OmitReaderAnnotations: true}).Read()
	if err != nil {
		fmt.Fprintln(stderr, "apply-overrides render: read the output ResourceList:", err)
		return 1
	}
	if f.output != "" {
		err = writeRenderDir(f.output, items, in.list == nil)
	} else {
		err = writeRenderStream(stdout, items, in.list == nil)
	}
	if err != nil {
		fmt.Fprintln(stderr, "apply-overrides render:", err)
		return 1
	}
	return 0
}

// usageOutcome handles a subcommand's parse error err: --help prints
// usage, any other error is bad usage; done is false when there is none.
func usageOutcome(cmd, usage string, err error, stdout, stderr io.Writer) (code int, done bool) {
	switch {
	case errors.Is(err, errHelp):
		fmt.Fprint(stdout, usage)
		return 0, true
	case err != nil:
		fmt.Fprintf(stderr, "apply-overrides %s: %v (see apply-overrides %s --help)\n", cmd, err, cmd)
		return 2, true
	}
	return 0, false
}

// buildList is the ResourceList the run reads: the input list with its
// functionConfig changed by the flags, or the items read wrapped with the
// functionConfig.
func (f *renderFlags) buildList(in *renderInput) ([]byte, error) {
	if in.list != nil {
		if !f.changesConfig() {
			return in.list, nil // the input as read, byte for byte
		}
		rl, err := yaml.Parse(string(in.list))
		if err != nil {
			return nil, fmt.Errorf("read the ResourceList: %w", err)
		}
		var base *yaml.RNode
		if field := rl.Field("functionConfig"); field != nil {
			base = field.Value
		}
		fc, err := f.functionConfig(base)
		if err != nil {
			return nil, err
		}
		if err := rl.PipeE(yaml.SetField("functionConfig", fc)); err != nil {
			return nil, fmt.Errorf("set the functionConfig: %w", err)
		}
		s, err := yaml.NewRNode(yamlnode.BlockScalarsSafe(rl.YNode())).String()
		return []byte(s), err
	}
	fc, err := f.functionConfig(in.config)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	w := kio.ByteWriter{Writer: &buf, KeepReaderAnnotations: true, FunctionConfig: fc,
		WrappingKind: kio.ResourceListKind, WrappingAPIVersion: kio.ResourceListAPIVersion}
	if err := w.Write(yamlnode.BlockScalarsSafeRNodes(in.items)); err != nil {
		return nil, fmt.Errorf("build the ResourceList: %w", err)
	}
	return buf.Bytes(), nil
}

// changesConfig reports whether a flag sets a field of the functionConfig.
func (f *renderFlags) changesConfig() bool {
	return f.all || len(f.clusters) > 0 || f.set["placement"] || f.set["keep-policies"] || f.explain
}

// reportResults writes the errors and warnings (with verbose, every
// result) to stderr and returns the exit status they make.
func reportResults(results framework.Results, stderr io.Writer, verbose bool) int {
	code := 0
	for _, r := range results {
		if verbose || r.Severity == framework.Error || r.Severity == framework.Warning {
			fmt.Fprintln(stderr, describeResult(r))
		}
		if r.Severity == framework.Error {
			code = 1
		}
	}
	return code
}

// writeRenderStream writes the items as one multi-document YAML stream;
// plain is whether render read plain manifests, whose reader annotations
// it leaves out.
func writeRenderStream(w io.Writer, items []*yaml.RNode, plain bool) error {
	bw := kio.ByteWriter{Writer: w, KeepReaderAnnotations: !plain}
	if plain {
		bw.ClearAnnotations = readerAnnotations
	}
	if err := bw.Write(yamlnode.BlockScalarsSafeRNodes(items)); err != nil {
		return fmt.Errorf("write the manifests: %w", err)
	}
	return nil
}

// writeRenderDir writes the items into dir, each to the file its path
// annotation names (without one: [namespace/]kind_name.yaml).
func writeRenderDir(dir string, items []*yaml.RNode, plain bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create the output directory: %w", err)
	}
	w := kio.LocalPackageWriter{PackagePath: dir}
	if plain {
		w.ClearAnnotations = readerAnnotations
	}
	if err := w.Write(yamlnode.BlockScalarsSafeRNodes(items)); err != nil {
		return fmt.Errorf("write the manifests into %s: %w", dir, err)
	}
	return nil
}

// checkOutputDir refuses an output directory that holds anything, unless
// force.
func checkOutputDir(dir string, force bool) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("-o %s: %w: name a directory to write into", dir, err)
	case len(entries) > 0 && !force:
		return fmt.Errorf("-o %s: the directory is not empty: name a new or empty directory, or pass --force to write into it (files of the same name are replaced, others kept)", dir)
	}
	return nil
}
