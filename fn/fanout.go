// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"fmt"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/resourcelist"
	"github.com/apply-overrides/apply-overrides/policy"
)

// resolve lists the clusters spec.render names, in the order a fan-out run
// renders them: the names as given ("*": the inventory's, sorted), those
// the clusterSelector rejects left out.
func (rd *Render) resolve(inv Inventory) ([]string, error) {
	known := "known clusters: " + strings.Join(inv.Names(), ", ")
	if len(inv) == 0 {
		known = "no clusters are known: add " + clusterTypes() + " objects to the input or list them in the functionConfig's spec.clusters"
	}
	names := rd.Clusters
	if len(names) == 1 && names[0] == allClusters {
		if len(inv) == 0 {
			return nil, fmt.Errorf(`spec.render.clusters: "*" renders every cluster of the inventory, and %s`, known)
		}
		names = inv.Names()
	}
	for _, name := range names {
		if inv[name] == nil {
			return nil, fmt.Errorf("spec.render.clusters: cluster %q is not in the inventory; %s", name, known)
		}
	}
	sel, err := rd.ClusterSelector.selector()
	if err != nil || sel == nil {
		return names, err // checkRender has seen the selector parse
	}
	var kept []string
	for _, name := range names {
		if sel.Matches(labels.Set(inv[name].Labels)) {
			kept = append(kept, name)
		}
	}
	if len(kept) == 0 {
		return nil, fmt.Errorf("spec.render.clusterSelector (%s) selects none of the clusters %s: loosen the selector or name other clusters", sel, strings.Join(names, ", "))
	}
	return kept, nil
}

// The path and index annotations, in the form kpt writes today and the
// legacy one; a fan-out copy gets both, so that kpt and kyaml (which
// reconcile the two) place it whichever they read.
var (
	pathAnnotations  = []string{kioutil.PathAnnotation, kioutil.LegacyPathAnnotation}
	indexAnnotations = []string{kioutil.IndexAnnotation, kioutil.LegacyIndexAnnotation}
)

// itemPath is an item's path annotation, or, without one, the path kyaml
// gives such an item when it writes a package (kioutil.DefaultPathAnnotation:
// [namespace/]kind_name.yaml), so that {path} is never empty.
func itemPath(n *yaml.RNode) string {
	annos := n.GetAnnotations(pathAnnotations...)
	for _, k := range pathAnnotations {
		if p := annos[k]; p != "" {
			return p
		}
	}
	return kioutil.CreatePathAnnotationValue("", yaml.ResourceMeta{
		TypeMeta:   yaml.TypeMeta{Kind: n.GetKind()},
		ObjectMeta: yaml.ObjectMeta{NameMeta: yaml.NameMeta{Name: n.GetName(), Namespace: n.GetNamespace()}},
	})
}

// fanOutItems lays out a fan-out run's output: the items that are not
// resources (local configuration, and control-plane objects under
// keepPolicies) once, at their own paths, in input order; then each
// cluster's resources in the order rendered, in input order, each under
// the path template. A copy's only change from its cluster's render is its
// path and index annotations: the path from the template, the index its
// place among the items written to that path, so that kpt's path and index
// stay unique. A copy whose path is already an item's own is an error.
func (r *run) fanOutItems(in *resourcelist.List, renders []clusterRender) ([]resourcelist.Item, error) {
	var items []resourcelist.Item
	taken := map[string]string{} // a path kept by an item written once → the item
	for _, o := range renders[0].items {
		if o.resource {
			continue
		}
		it := resourcelist.Item{Node: o.node}
		if !o.touched {
			it.Source = in.Source(o.index)
		}
		items = append(items, it)
		if n := o.node; len(n.GetAnnotations(pathAnnotations...)) > 0 {
			taken[itemPath(n)] = policy.RefOf(n).GVKString()
		}
	}
	next := map[string]int{} // the next index at each rewritten path
	template := r.cfg.Render.PathTemplate
	for _, rd := range renders {
		for _, o := range rd.items {
			if !o.resource {
				continue
			}
			n := o.node
			path := strings.NewReplacer("{cluster}", rd.cluster.Name, "{path}", itemPath(n)).Replace(template)
			if owner, ok := taken[path]; ok {
				return nil, fmt.Errorf("spec.render.pathTemplate %q puts cluster %s's copy of %s at %s, where the input already keeps %s: change the template so that the copies land elsewhere",
					template, rd.cluster.Name, policy.RefOf(n).GVKString(), path, owner)
			}
			index := strconv.Itoa(next[path])
			next[path]++
			for _, set := range []struct {
				keys  []string
				value string
			}{{pathAnnotations, path}, {indexAnnotations, index}} {
				for _, k := range set.keys {
					if err := n.PipeE(yaml.SetAnnotation(k, set.value)); err != nil {
						return nil, fmt.Errorf("%s: set annotation %s: %w", policy.RefOf(n).GVKString(), k, err)
					}
				}
			}
			items = append(items, resourcelist.Item{Node: n})
		}
	}
	return items, nil
}

// fanOutSummary is the info result that closes a fan-out run's results:
// the clusters rendered and the resource copies written under the template.
func fanOutSummary(names []string, copies int, template string) *framework.Result {
	return &framework.Result{
		Severity: framework.Info,
		Message: fmt.Sprintf("fan-out: rendered %d cluster(s) (%s): %d resource copies under %s",
			len(names), strings.Join(names, ", "), copies, template),
	}
}
