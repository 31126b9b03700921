// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// kustomize has no clusters, policies or priorities, so the generator
// resolves them for the one cluster and writes the outcome as JSON 6902
// patches, listed in the order Karmada applies the policies: the
// ClusterOverridePolicies, then the OverridePolicies, each by implicit
// priority and name (every policy of the corpus uses one kind of selector
// for all its resourceSelectors, so this order is the same for every
// resource); rules in order; in a rule, image, command, args, labels,
// annotations, plaintext.
//
// An imageOverrider computes the new image from the current one, and a
// patch can only write a constant. Resources of one kind, namespace and app
// have the same images and meet the same rules, so the generator follows
// each such group's images through the policies and writes one image patch
// per rule, kind and app (and namespace, for an OverridePolicy).

type patchTarget struct {
	Group         string `yaml:"group,omitempty"`
	Version       string `yaml:"version"`
	Kind          string `yaml:"kind"`
	Namespace     string `yaml:"namespace,omitempty"`
	LabelSelector string `yaml:"labelSelector,omitempty"`
}

type patch struct {
	Target patchTarget `yaml:"target"`
	Patch  string      `yaml:"patch"`
}

type op struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value any    `json:"value"`
}

type kustomization struct {
	APIVersion string   `yaml:"apiVersion"`
	Kind       string   `yaml:"kind"`
	Resources  []string `yaml:"resources"`
	Patches    []patch  `yaml:"patches"`
}

// resolution is the outcome of resolving the policies for kustomize.
type resolution struct {
	patches              []patch
	imagePatches         int
	rulesMatching, rules int
}

func resolve(res []resource, apps []app, namespaces []string, cops, ops []policy) (resolution, error) {
	type group struct{ kind, ns, app string }
	images := map[group]*[2]string{}
	for _, x := range res {
		g := group{x.kind.kind, x.namespace, x.app.name}
		if images[g] == nil {
			images[g] = &[2]string{x.app.mainImage, x.app.sidecarImage}
		}
	}
	kindOf := map[string]kindDef{}
	for _, k := range kinds {
		kindOf[k.kind] = k
	}

	var out resolution
	for _, p := range append(sortPolicies(cops), sortPolicies(ops)...) {
		scope := namespaces
		if p.Metadata.Namespace != "" {
			scope = []string{p.Metadata.Namespace}
		}
		for _, ru := range p.Spec.OverrideRules {
			out.rules++
			if !ru.matches {
				continue
			}
			out.rulesMatching++
			for _, rs := range p.Spec.ResourceSelectors {
				k := kindOf[rs.Kind]
				var selected []*app
				for i := range apps {
					if rs.LabelSelector.selects(&apps[i]) {
						selected = append(selected, &apps[i])
					}
				}
				// Image patches, per app (and namespace for an OverridePolicy).
				if k.podTemplate && len(ru.Overriders.ImageOverrider) > 0 {
					for _, a := range selected {
						seen := false
						var wantCur, wantNext [2]string
						for _, ns := range scope {
							cur := images[group{k.kind, ns, a.name}]
							if cur == nil {
								continue
							}
							next := *cur
							for c := range next {
								for _, io := range ru.Overriders.ImageOverrider {
									next[c] = overrideImage(next[c], io)
								}
							}
							if seen && (wantCur != *cur || wantNext != next) {
								return out, fmt.Errorf("%s: the images of %s %s differ between namespaces", p.Metadata.Name, a.name, k.kind)
							}
							seen, wantCur, wantNext = true, *cur, next
							*cur = next
						}
						if !seen {
							continue
						}
						var ops []op
						for c := range wantNext {
							ops = append(ops, op{"replace", fmt.Sprintf("/spec/template/spec/containers/%d/image", c), wantNext[c]})
						}
						out.patches = append(out.patches, newPatch(k, p.Metadata.Namespace, "app="+a.name, ops))
						out.imagePatches++
					}
				}
				// Everything else, with the policy's own selector.
				exists := false
				for _, a := range selected {
					for _, ns := range scope {
						exists = exists || images[group{k.kind, ns, a.name}] != nil
					}
				}
				if !exists {
					continue
				}
				if ops := otherOps(k, ru.Overriders); len(ops) > 0 {
					sel := ""
					if rs.LabelSelector != nil {
						sel = rs.LabelSelector.String()
					}
					out.patches = append(out.patches, newPatch(k, p.Metadata.Namespace, sel, ops))
				}
			}
		}
	}
	return out, nil
}

// otherOps are the patch operations of the command, args, labels,
// annotations and plaintext overriders, in Karmada's order. Karmada applies
// command and args overriders to pod-template kinds only.
func otherOps(k kindDef, o overriders) []op {
	var ops []op
	index := map[string]int{"main": 0, "sidecar": 1}
	for _, list := range []struct {
		field string
		ovs   []commandArgs
	}{{"command", o.CommandOverrider}, {"args", o.ArgsOverrider}} {
		if !k.podTemplate {
			break
		}
		for _, ov := range list.ovs {
			for _, v := range ov.Value {
				ops = append(ops, op{"add", fmt.Sprintf("/spec/template/spec/containers/%d/%s/-", index[ov.ContainerName], list.field), v})
			}
		}
	}
	for _, list := range []struct {
		field string
		ovs   []labelAnnot
	}{{"labels", o.LabelsOverrider}, {"annotations", o.AnnotationsOverrider}} {
		for _, ov := range list.ovs {
			for _, key := range sortedKeys(ov.Value) {
				ops = append(ops, op{"add", "/metadata/" + list.field + "/" + strings.ReplaceAll(key, "/", "~1"), ov.Value[key]})
			}
		}
	}
	for _, pt := range o.Plaintext {
		ops = append(ops, op{pt.Operator, pt.Path, pt.Value})
	}
	return ops
}

func newPatch(k kindDef, ns, selector string, ops []op) patch {
	group, version, ok := strings.Cut(k.apiVersion, "/")
	if !ok {
		group, version = "", k.apiVersion
	}
	b, err := json.Marshal(ops)
	if err != nil {
		panic(err) // strings and ints only
	}
	return patch{
		Target: patchTarget{Group: group, Version: version, Kind: k.kind, Namespace: ns, LabelSelector: selector},
		Patch:  string(b),
	}
}

// overrideImage is Karmada's Registry or Tag replace on the corpus's images,
// which all have the form registry/path:tag.
func overrideImage(image string, o imageOverride) string {
	slash := strings.Index(image, "/")
	colon := strings.LastIndex(image, ":")
	registry, path, tag := image[:slash], image[slash+1:colon], image[colon+1:]
	switch o.Component {
	case "Registry":
		registry = o.Value
	case "Tag":
		tag = o.Value
	}
	return registry + "/" + path + ":" + tag
}

// sortPolicies orders policies as Karmada's override manager does: by
// implicit priority (a selector without labels matches all and ranks below
// a label selector), then by name.
func sortPolicies(ps []policy) []policy {
	prio := func(p policy) int {
		for _, rs := range p.Spec.ResourceSelectors {
			if rs.LabelSelector != nil {
				return 1
			}
		}
		return 0
	}
	out := slices.Clone(ps)
	slices.SortStableFunc(out, func(a, b policy) int {
		if c := cmp.Compare(prio(a), prio(b)); c != 0 {
			return c
		}
		return strings.Compare(a.Metadata.Name, b.Metadata.Name)
	})
	return out
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
