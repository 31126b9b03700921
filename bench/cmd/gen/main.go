// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Command gen writes the benchmark corpus: R workload resources, P Karmada
// OverridePolicies, two ClusterOverridePolicies and the Cluster, for one
// member cluster. The corpus depends only on its flags; resources do not
// depend on P (policies draw from their own random stream).
//
//	gen -resources R -policies P [-propagation N [-clusters N]] [-kyverno] [-seed 1] [-cluster member1] [-namespaces 10] -out DIR
//
// With -propagation N > 0 it adds N PropagationPolicies, two
// ClusterPropagationPolicies that claim every resource the others leave,
// and two more Clusters, so that placement decides over a fleet of three
// (propagation.go). With N = 0 (the default) the corpus is the same, byte
// for byte, as without the flag. The kustomize patches know nothing of
// placement: with N > 0 only the resource list is meaningful.
//
// It writes
//
//	DIR/resourcelist.yaml           a ResourceList: the resources, the policies, the
//	                                Cluster; functionConfig a ConfigMap data.cluster
//	DIR/resources.yaml              the resources as a YAML stream (what identity's
//	                                output is compared with)
//	DIR/kustomize/kustomization.yaml the same overrides as JSON 6902 patches
//	DIR/kustomize/resources.yaml    a copy of DIR/resources.yaml (kustomize reads
//	                                only below its root)
//	DIR/fanout.yaml                 with -clusters: the same list, functionConfig
//	                                data.render "*" (every cluster in one run)
//	DIR/manifest.txt                what was generated
//
// and with -kyverno also
//
//	DIR/resourcelist-kyverno.yaml   resourcelist.yaml with two Kyverno ClusterPolicies
//	                                after the Karmada policies (kyverno.go)
//	DIR/kyverno/policies.yaml       the two ClusterPolicies, for `kyverno apply`
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

func main() {
	var (
		r       = flag.Int("resources", 1000, "number of workload resources")
		p       = flag.Int("policies", 50, "number of OverridePolicies")
		pp      = flag.Int("propagation", 0, "number of PropagationPolicies (0: no placement, a single Cluster)")
		kyv     = flag.Bool("kyverno", false, "also write resourcelist-kyverno.yaml and kyverno/policies.yaml (two Kyverno ClusterPolicies)")
		fleetN  = flag.Int("clusters", 0, "a fleet of this many Clusters for fan-out (0: the fleet of three of -propagation); needs -propagation > 0")
		seed    = flag.Uint64("seed", 1, "random seed")
		cluster = flag.String("cluster", "member1", "the member cluster to render")
		nsCount = flag.Int("namespaces", 10, "number of namespaces")
		out     = flag.String("out", "", "output directory (required)")
	)
	flag.Parse()
	if *out == "" || *r < 1 || *p < 0 || *pp < 0 || *nsCount < 1 || *fleetN < 0 || (*fleetN > 0 && *pp == 0) {
		fmt.Fprintln(os.Stderr, "usage: gen -resources R -policies P [-propagation N [-clusters N]] [-kyverno] [-seed S] [-cluster NAME] [-namespaces N] -out DIR")
		os.Exit(2)
	}
	if err := run(*r, *p, *pp, *fleetN, *kyv, *seed, *cluster, *nsCount, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(R, P, PP, N int, withKyverno bool, seed uint64, clusterName string, nsCount int, out string) error {
	rr := rand.New(rand.NewPCG(seed, 1))
	apps := makeApps(rr, 40)
	namespaces := make([]string, nsCount)
	for i := range namespaces {
		namespaces[i] = fmt.Sprintf("bench-ns-%02d", i)
	}
	total := 0
	for _, k := range kinds {
		total += k.weight
	}
	res := make([]resource, R)
	count := map[string]int{}
	for i := range res {
		x := rr.IntN(total)
		k := kinds[0]
		for _, k = range kinds {
			if x < k.weight {
				break
			}
			x -= k.weight
		}
		count[k.kind]++
		res[i] = genResource(rr, i, namespaces[i%nsCount], k, &apps[rr.IntN(len(apps))])
	}

	c := newCluster(clusterName)
	ops := genPolicies(rand.New(rand.NewPCG(seed, 2)), P, namespaces, apps, c)
	cops := clusterPolicies(c)
	kz, err := resolve(res, apps, namespaces, cops, ops)
	if err != nil {
		return err
	}
	// Placement draws from a stream of its own, so that the resources and
	// the OverridePolicies stay those of the corpus without it.
	var (
		fl   []member
		pps  []propagationPolicy
		cpps []propagationPolicy
		st   placementStats
	)
	switch {
	case N > 0:
		fl = fleetOf(c, N)
		pps, st = genFleetPropagation(rand.New(rand.NewPCG(seed, 4)), PP, namespaces, apps, fl)
		cpps = clusterPropagation(fl)
	case PP > 0:
		fl = fleet(c)
		pps, st = genPropagation(rand.New(rand.NewPCG(seed, 3)), PP, namespaces, apps, fl)
		cpps = clusterPropagation(fl)
	}

	var rl, stream bytes.Buffer
	fmt.Fprintf(&rl, "# apply-overrides benchmark corpus: resources=%d policies=%d seed=%d cluster=%s", R, P, seed, clusterName)
	if PP > 0 {
		fmt.Fprintf(&rl, " propagation=%d", PP)
	}
	if N > 0 {
		fmt.Fprintf(&rl, " clusters=%d", N)
	}
	rl.WriteString("\n")
	rl.WriteString("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n")
	for _, x := range res {
		writeItem(&rl, x.doc)
		stream.WriteString("---\n")
		for _, l := range append(x.doc.head, x.doc.body...) {
			stream.WriteString(l + "\n")
		}
	}
	for i, p := range append(ops, cops...) {
		d, err := yamlDoc(p)
		if err != nil {
			return err
		}
		if i == 0 || i == len(ops) {
			d.head = []string{"# Karmada " + p.Kind + "s"}
		}
		writeItem(&rl, d)
	}
	for i, p := range append(pps, cpps...) {
		d, err := yamlDoc(p)
		if err != nil {
			return err
		}
		if i == 0 || i == len(pps) {
			d.head = []string{"# Karmada " + strings.TrimSuffix(p.Kind, "y") + "ies"}
		}
		writeItem(&rl, d)
	}
	// The Kyverno corpus is this one with the ClusterPolicies here.
	policiesEnd := rl.Len()
	if PP == 0 {
		writeItem(&rl, doc{head: []string{"# the member cluster"}, body: strings.Split(strings.TrimSuffix(c.yaml(), "\n"), "\n")})
	} else {
		for i, m := range fl {
			d := doc{body: strings.Split(strings.TrimSuffix(m.yaml(), "\n"), "\n")}
			if i == 0 {
				d.head = []string{"# the fleet: the rendered member cluster first"}
			}
			writeItem(&rl, d)
		}
	}
	items := rl.Len()
	fmt.Fprintf(&rl, "functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: apply-overrides-config\n  data:\n    cluster: %s\n", clusterName)
	// fanout.yaml: the same items, every cluster of the fleet in one run.
	fanout := append(bytes.Clone(rl.Bytes()[:items]), "functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: apply-overrides-config\n  data:\n    render: '*'\n"...)

	var kbuf bytes.Buffer
	enc := yaml.NewEncoder(&kbuf)
	enc.SetIndent(2)
	if err := enc.Encode(kustomization{
		APIVersion: "kustomize.config.k8s.io/v1beta1",
		Kind:       "Kustomization",
		Resources:  []string{"resources.yaml"},
		Patches:    kz.patches,
	}); err != nil {
		return err
	}

	var m strings.Builder
	fmt.Fprintf(&m, "resources=%d policies=%d clusterPolicies=%d seed=%d cluster=%s namespaces=%d apps=%d\n", R, P, len(cops), seed, clusterName, nsCount, len(apps))
	for _, k := range kinds {
		fmt.Fprintf(&m, "kind %-12s %6d\n", k.kind, count[k.kind])
	}
	fmt.Fprintf(&m, "overrideRules selecting %s: %d of %d\n", clusterName, kz.rulesMatching, kz.rules)
	fmt.Fprintf(&m, "kustomize patches: %d (image patches: %d)\n", len(kz.patches), kz.imagePatches)
	if PP > 0 {
		var names []string
		for _, x := range fl {
			names = append(names, x.name)
		}
		fmt.Fprintf(&m, "propagationPolicies=%d clusterPropagationPolicies=%d fleet=%s\n", len(pps), len(cpps), strings.Join(names, ","))
		if N > 0 {
			fmt.Fprintf(&m, "propagationPolicies: Duplicated %d, Divided (static weights) %d, clusterAffinity by label %d\n",
				st.duplicated, st.divided, st.byLabel)
		} else {
			fmt.Fprintf(&m, "propagationPolicies: Duplicated %d, Divided (static weights) %d, clusterAffinity by label %d, placing on %s %d\n",
				st.duplicated, st.divided, st.byLabel, clusterName, st.withCluster)
		}
		m.WriteString("placement: the kustomize patches ignore it; compare only identity and apply-overrides\n")
	}
	fmt.Fprintf(&m, "resourcelist.yaml bytes: %d\n", rl.Len())
	var rlk bytes.Buffer
	if withKyverno {
		rlk.Write(rl.Bytes()[:policiesEnd])
		for _, d := range kyvernoDocs() {
			writeItem(&rlk, d)
		}
		rlk.Write(rl.Bytes()[policiesEnd:])
		fmt.Fprintf(&m, "kyverno: %d ClusterPolicies; resourcelist-kyverno.yaml bytes: %d\n", len(kyvernoPolicies), rlk.Len())
	}

	if err := os.MkdirAll(filepath.Join(out, "kustomize"), 0o755); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		body []byte
	}{
		{"resourcelist.yaml", rl.Bytes()},
		{"resources.yaml", stream.Bytes()},
		{"kustomize/resources.yaml", stream.Bytes()},
		{"kustomize/kustomization.yaml", kbuf.Bytes()},
		{"manifest.txt", []byte(m.String())},
	} {
		if f.name == "resourcelist.yaml" && N > 0 {
			if err := os.WriteFile(filepath.Join(out, "fanout.yaml"), fanout, 0o644); err != nil {
				return err
			}
		}
		if err := os.WriteFile(filepath.Join(out, f.name), f.body, 0o644); err != nil {
			return err
		}
	}
	if withKyverno {
		if err := os.MkdirAll(filepath.Join(out, "kyverno"), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(out, "resourcelist-kyverno.yaml"), rlk.Bytes(), 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(out, "kyverno", "policies.yaml"), kyvernoStream(), 0o644); err != nil {
			return err
		}
	}
	fmt.Fprint(os.Stderr, m.String())
	return nil
}

// writeItem writes a document as an entry of the ResourceList's items, the
// way orchestrators lay it out: head comments at column 0, "- " before the
// first line, two spaces before the others.
func writeItem(b *bytes.Buffer, d doc) {
	for _, l := range d.head {
		b.WriteString(l + "\n")
	}
	for i, l := range d.body {
		if i == 0 {
			b.WriteString("- " + l + "\n")
		} else if l == "" {
			b.WriteString("\n")
		} else {
			b.WriteString("  " + l + "\n")
		}
	}
}

func yamlDoc(v any) (doc, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return doc{}, err
	}
	return doc{body: strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")}, nil
}
