// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/policy"
)

// The statuses of a resource on a cluster, as the JSON report writes them
// (the Markdown one writes statusNotReceived as "not received").
const (
	statusUnchanged   = "unchanged"
	statusChanged     = "changed"
	statusNotReceived = "notReceived"
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
