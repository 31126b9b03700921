// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Command karmada renders a ResourceList for one member cluster with
// Karmada's own override engine, github.com/karmada-io/karmada
// pkg/util/overridemanager, driven the way Karmada's binding controller
// drives it (pkg/controllers/binding/common.go): the OverridePolicies,
// ClusterOverridePolicies and Clusters sit in a controller-runtime client, and
// for every other item the controller deep-copies the workload and calls
// ApplyOverridePolicies(copy, cluster).
//
//	karmada [-client cache|fake] [-cluster NAME] [-timing] < resourcelist.yaml > out.yaml
//
// The output is the overridden resources as a multi-document YAML stream
// (policies and Clusters left out). -client cache (the default) serves Get
// and List from memory and honours UnsafeDisableDeepCopy, as the informer
// cache the controller runs with does; -client fake is controller-runtime's
// fake client, which copies and JSON-round-trips every object it returns.
// -timing prints the parse, load, apply and serialise phases on stderr.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/record"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/yaml"

	clusterv1alpha1 "github.com/karmada-io/karmada/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/karmada-io/karmada/pkg/apis/policy/v1alpha1"
	"github.com/karmada-io/karmada/pkg/util/gclient"
	"github.com/karmada-io/karmada/pkg/util/overridemanager"
)

func main() {
	mode := flag.String("client", "cache", "policy store: cache (in memory, as the controller's informer cache) or fake (controller-runtime's fake client)")
	cluster := flag.String("cluster", "", "member cluster to render (default: the functionConfig's data.cluster)")
	timing := flag.Bool("timing", false, "print the time of each phase on stderr")
	flag.Parse()
	if err := run(os.Stdin, os.Stdout, os.Stderr, *mode, *cluster, *timing); err != nil {
		fmt.Fprintln(os.Stderr, "karmada:", err)
		os.Exit(1)
	}
}

// input is what run takes out of a ResourceList.
type input struct {
	cluster   string
	resources []*unstructured.Unstructured
	ops       []policyv1alpha1.OverridePolicy
	cops      []policyv1alpha1.ClusterOverridePolicy
	clusters  []clusterv1alpha1.Cluster
}

func run(in io.Reader, out, diag io.Writer, mode, cluster string, timing bool) error {
	t0 := time.Now()
	raw, err := io.ReadAll(in)
	if err != nil {
		return fmt.Errorf("read input: %w", err)
	}
	inp, err := parse(raw)
	if err != nil {
		return err
	}
	if cluster == "" {
		cluster = inp.cluster
	}
	if cluster == "" {
		return errors.New("no cluster: pass -cluster or set the functionConfig's data.cluster")
	}
	t1 := time.Now()

	var c client.Client
	switch mode {
	case "cache":
		c = newCacheClient(inp.ops, inp.cops, inp.clusters)
	case "fake":
		objs := make([]client.Object, 0, len(inp.ops)+len(inp.cops)+len(inp.clusters))
		for i := range inp.ops {
			objs = append(objs, &inp.ops[i])
		}
		for i := range inp.cops {
			objs = append(objs, &inp.cops[i])
		}
		for i := range inp.clusters {
			objs = append(objs, &inp.clusters[i])
		}
		c = fake.NewClientBuilder().WithScheme(gclient.NewSchema()).WithObjects(objs...).Build()
	default:
		return fmt.Errorf("unknown -client %q: want cache or fake", mode)
	}
	// A FakeRecorder without a channel drops the events the manager records.
	om := overridemanager.New(c, &record.FakeRecorder{})
	t2 := time.Now()

	rendered := make([]*unstructured.Unstructured, len(inp.resources))
	changed := 0
	for i, u := range inp.resources {
		// The binding controller overrides a copy per target cluster.
		cp := u.DeepCopy()
		cops, ops, err := om.ApplyOverridePolicies(cp, cluster)
		if err != nil {
			return fmt.Errorf("%s %s %s/%s: %w", u.GetAPIVersion(), u.GetKind(), u.GetNamespace(), u.GetName(), err)
		}
		if (cops != nil && len(cops.AppliedItems) > 0) || (ops != nil && len(ops.AppliedItems) > 0) {
			changed++
		}
		rendered[i] = cp
	}
	t3 := time.Now()

	w := bufio.NewWriterSize(out, 1<<20)
	for _, u := range rendered {
		b, err := yaml.Marshal(u.Object)
		if err != nil {
			return fmt.Errorf("encode %s/%s: %w", u.GetNamespace(), u.GetName(), err)
		}
		if _, err := w.WriteString("---\n"); err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	t4 := time.Now()
	if timing {
		fmt.Fprintf(diag, "karmada: client=%s cluster=%s resources=%d overridden=%d overridePolicies=%d clusterOverridePolicies=%d\n",
			mode, cluster, len(inp.resources), changed, len(inp.ops), len(inp.cops))
		fmt.Fprintf(diag, "karmada: parse=%.3fs load=%.3fs apply=%.3fs serialize=%.3fs\n",
			t1.Sub(t0).Seconds(), t2.Sub(t1).Seconds(), t3.Sub(t2).Seconds(), t4.Sub(t3).Seconds())
	}
	return nil
}

// parse decodes a ResourceList the way objects reach the controller: as JSON,
// policies and Clusters into Karmada's typed API, the rest unstructured.
func parse(raw []byte) (*input, error) {
	js, err := yaml.YAMLToJSON(raw)
	if err != nil {
		return nil, fmt.Errorf("parse input: %w", err)
	}
	var rl struct {
		Kind           string            `json:"kind"`
		Items          []json.RawMessage `json:"items"`
		FunctionConfig struct {
			Data map[string]string `json:"data"`
		} `json:"functionConfig"`
	}
	if err := json.Unmarshal(js, &rl); err != nil {
		return nil, fmt.Errorf("parse input: %w", err)
	}
	if rl.Kind != "ResourceList" {
		return nil, fmt.Errorf("input is a %q, not a ResourceList", rl.Kind)
	}
	inp := &input{cluster: rl.FunctionConfig.Data["cluster"]}
	for i, item := range rl.Items {
		var tm struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
		}
		if err := json.Unmarshal(item, &tm); err != nil {
			return nil, fmt.Errorf("item %d: %w", i, err)
		}
		switch tm.APIVersion + " " + tm.Kind {
		case "policy.karmada.io/v1alpha1 OverridePolicy":
			var p policyv1alpha1.OverridePolicy
			err = json.Unmarshal(item, &p)
			inp.ops = append(inp.ops, p)
		case "policy.karmada.io/v1alpha1 ClusterOverridePolicy":
			var p policyv1alpha1.ClusterOverridePolicy
			err = json.Unmarshal(item, &p)
			inp.cops = append(inp.cops, p)
		case "cluster.karmada.io/v1alpha1 Cluster":
			var c clusterv1alpha1.Cluster
			err = json.Unmarshal(item, &c)
			inp.clusters = append(inp.clusters, c)
		default:
			u := &unstructured.Unstructured{}
			err = u.UnmarshalJSON(item)
			inp.resources = append(inp.resources, u)
		}
		if err != nil {
			return nil, fmt.Errorf("item %d (%s %s): %w", i, tm.APIVersion, tm.Kind, err)
		}
	}
	return inp, nil
}
