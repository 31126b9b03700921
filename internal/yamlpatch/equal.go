// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlpatch

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
)

// maxEqualDepth bounds equal on alias loops in hand-built values.
const maxEqualDepth = 10000

// equal is evanphx's lazyNode.equal for a non-null document value n and a
// non-null test value o, on the JSON view: same type; strings by value;
// numbers and bools by their JSON text (so 1 and 1.0 differ, as evanphx
// compares raw bytes); objects by key set, ignoring order; arrays
// element-wise. Null flavours matter as in evanphx: a non-nil null in the
// document (one put there by add, replace or copy) equals nothing, and an
// object member that is null on one side only differs. Where evanphx
// panics (a null element inside an array being compared) nulls simply equal
// nulls.
func (a *applier) equal(n, o *yaml.Node, depth int) bool {
	if depth > maxEqualDepth || a.rawNull[n] {
		return false
	}
	rn, ro := yamlnode.Resolve(n), yamlnode.Resolve(o)
	kn, ko := kindOf(rn), kindOf(ro)
	if kn != ko {
		return false
	}
	switch kn {
	case kindNull:
		return true
	case kindString:
		return rn.Value == ro.Value
	case kindBool, kindNumber:
		return scalarText(rn, kn) == scalarText(ro, ko)
	case kindArray:
		if len(rn.Content) != len(ro.Content) {
			return false
		}
		for i, nv := range rn.Content {
			ov := ro.Content[i]
			if nn, on := isNullNode(nv), isNullNode(ov); nn || on {
				if nn != on {
					return false
				}
				continue
			}
			if !a.equal(nv, ov, depth+1) {
				return false
			}
		}
		return true
	default:
		nm, om := members(rn), members(ro)
		if len(nm) != len(om) {
			return false
		}
		for k, nv := range nm {
			ov, ok := om[k]
			if !ok {
				return false
			}
			nNil, oNil := a.isNil(nv), isNullNode(ov)
			if nNil != oNil {
				return false
			}
			if !nNil && !a.equal(nv, ov, depth+1) {
				return false
			}
		}
		return true
	}
}

// members maps an object's keys to their values; the first of duplicate
// keys wins, as in lookups.
func members(m *yaml.Node) map[string]*yaml.Node {
	out := make(map[string]*yaml.Node, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := keyString(m.Content[i])
		if _, dup := out[k]; !dup {
			out[k] = m.Content[i+1]
		}
	}
	return out
}

// testRoot is test with path "": the whole document against v. evanphx
// compares its null object with v as an object with no members, so only {}
// matches it; null never matches a document.
func (a *applier) testRoot(v *yaml.Node) bool {
	r := yamlnode.Resolve(v)
	k := kindOf(r)
	switch {
	case a.nullObj:
		return k == kindObject && len(r.Content) == 0
	case k == kindNull:
		return false
	default:
		return a.equal(a.root, v, 0)
	}
}
