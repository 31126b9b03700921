// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

// notPlaced is what a fan-out run keeps of a resource placement leaves out
// of some of the rendered clusters, until its one info result is made
// (result): the resource, and the clusters grouped by the placement that
// left it out (reason and policy), in render order.
type notPlaced struct {
	ref    policy.Ref
	groups []notPlacedGroup
}

// notPlacedGroup is the clusters one placement left a resource out of.
type notPlacedGroup struct {
	reason   string
	by       *policy.Ref
	clusters []string
}

// add records that placement p leaves the resource (n) out of cluster c.
func (np *notPlaced) add(n *yaml.RNode, c *policy.Cluster, p *policy.Placement) {
	if np.groups == nil {
		np.ref = policy.RefOf(n)
	}
	name := targetName(c)
	for k := range np.groups {
		if g := &np.groups[k]; g.reason == p.Reason && sameRef(g.by, p.By) {
			g.clusters = append(g.clusters, name)
			return
		}
	}
	np.groups = append(np.groups, notPlacedGroup{reason: p.Reason, by: p.By, clusters: []string{name}})
}

// sameRef reports whether two placement policies (nil: none) are the same
// object of the same file.
func sameRef(a, b *policy.Ref) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// result is the resource's info result: the clusters it is not placed on
// and why, one clause per reason. Left out of one cluster, it is the
// result a single-cluster run reports (leftOut).
func (np *notPlaced) result() *framework.Result {
	var msg strings.Builder
	fmt.Fprintf(&msg, "%s is not placed on ", np.ref.GVKString())
	var bys []*policy.Ref
	for k, g := range np.groups {
		if k > 0 {
			msg.WriteString("; on ")
		}
		word := "cluster"
		if len(g.clusters) > 1 {
			word = "clusters"
		}
		fmt.Fprintf(&msg, "%s %s: %s", word, strings.Join(g.clusters, ", "), g.reason)
		if g.by != nil && !containsRef(bys, g.by) {
			bys = append(bys, g.by)
		}
	}
	return notPlacedResult(np.ref, msg.String(), bys)
}

func containsRef(refs []*policy.Ref, r *policy.Ref) bool {
	for _, x := range refs {
		if sameRef(x, r) {
			return true
		}
	}
	return false
}

// notPlacedResult is the info result of a resource placement leaves out:
// the message, the resource, and the placement policies that decided (the
// policy tag; their files, the policy-file tag), each once, comma-separated.
func notPlacedResult(ref policy.Ref, msg string, bys []*policy.Ref) *framework.Result {
	res := &framework.Result{
		Severity: framework.Info,
		Message:  msg,
		ResourceRef: &yaml.ResourceIdentifier{
			TypeMeta: yaml.TypeMeta{APIVersion: ref.APIVersion, Kind: ref.Kind},
			NameMeta: yaml.NameMeta{Name: ref.Name, Namespace: ref.Namespace},
		},
	}
	if ref.File != "" {
		res.File = &framework.File{Path: ref.File, Index: ref.Index}
	}
	if len(bys) == 0 {
		return res
	}
	var names, files []string
	for _, by := range bys {
		names = appendOnce(names, by.String())
		if by.File != "" {
			files = appendOnce(files, by.File)
		}
	}
	res.Tags = map[string]string{"policy": strings.Join(names, ", ")}
	if len(files) > 0 {
		res.Tags[policyFileTag] = strings.Join(files, ", ")
	}
	return res
}

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// targetName is a cluster's name as ClusterAnnotation and the results
// give it, or noCluster for none.
func targetName(c *policy.Cluster) string {
	if c == nil {
		return noCluster
	}
	return c.Name
}

// groupsLeftOut reports whether a run reports the resources placement
// leaves out as one result per resource (notPlaced) rather than one per
// cluster: a fan-out run that does not explain (explain keeps the detail of
// each cluster).
func (r *run) groupsLeftOut() bool { return r.cfg.Render != nil && !r.cfg.Explain }

// reportNotPlaced adds the result of each resource placement left out of
// a rendered cluster, in input order, after the clusters' own results.
func (r *run) reportNotPlaced(nps []notPlaced) {
	for i := range nps {
		if nps[i].groups != nil {
			r.rl.Results = append(r.rl.Results, nps[i].result())
		}
	}
}
