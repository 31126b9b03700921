// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlpatch

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
)

// Reconcile turns dst, in place, into a node with src's JSON value while
// keeping as much of dst as that value allows: the comments and styles of
// dst itself, of the map keys both have and of the list items both have,
// and the order of dst's keys (src's new keys are appended). It is what a
// replace with a whole new map or list needs to keep a document readable:
// KubeAdmiral, for one, replaces whole label maps and container lists.
//
// Lists are matched by the longest common subsequence of equal items; the
// items left between two matches are paired in order and reconciled, the
// rest inserted or dropped. Documents with aliases on either side are not
// reconciled: dst then simply takes a copy of src, keeping its own comments.
func Reconcile(dst, src *yaml.Node) error {
	if dst == nil || src == nil {
		return nil
	}
	src = yamlnode.Resolve(src)
	if hasAlias(dst) || hasAlias(src) {
		return overwrite(dst, src)
	}
	reconcile(dst, src)
	return nil
}

// overwrite replaces dst's content with a copy of src, keeping dst's comments.
func overwrite(dst, src *yaml.Node) error {
	cp, err := deepCopy(src)
	if err != nil {
		return err
	}
	head, line, foot := dst.HeadComment, dst.LineComment, dst.FootComment
	*dst = *cp
	dst.HeadComment, dst.LineComment, dst.FootComment = head, line, foot
	return nil
}

func reconcile(dst, src *yaml.Node) {
	dk, sk := kindOf(dst), kindOf(src)
	switch {
	case dk == kindObject && sk == kindObject:
		reconcileMap(dst, src)
	case dk == kindArray && sk == kindArray:
		reconcileSeq(dst, src)
	case dk != kindObject && dk != kindArray && sk != kindObject && sk != kindArray:
		switch {
		case sameValue(dst, src):
		case sk == kindString:
			setString(dst, src.Value)
		default:
			dst.Kind, dst.Tag, dst.Value, dst.Content, dst.Style = yaml.ScalarNode, src.Tag, src.Value, nil, src.Style
		}
	default:
		_ = overwrite(dst, src) // no aliases here: the copy cannot fail
	}
}

func reconcileMap(dst, src *yaml.Node) {
	if len(dst.Content) == 0 {
		dst.Style = src.Style
	}
	want := make(map[string]*yaml.Node, len(src.Content)/2)
	for i := 0; i+1 < len(src.Content); i += 2 {
		want[src.Content[i].Value] = src.Content[i+1]
	}
	content := dst.Content[:0:0]
	have := make(map[string]bool, len(dst.Content)/2)
	for i := 0; i+1 < len(dst.Content); i += 2 {
		k, v := dst.Content[i], dst.Content[i+1]
		sv, ok := want[k.Value]
		if !ok || have[k.Value] {
			continue
		}
		have[k.Value] = true
		reconcile(v, yamlnode.Resolve(sv))
		if v.Kind != yaml.ScalarNode && v.Style&yaml.FlowStyle == 0 && v.LineComment != "" && k.LineComment == "" {
			// a block collection prints its line comment after the key
			k.LineComment, v.LineComment = v.LineComment, ""
		}
		content = append(content, k, v)
	}
	for i := 0; i+1 < len(src.Content); i += 2 {
		k := src.Content[i]
		if have[k.Value] {
			continue
		}
		have[k.Value] = true
		kc, _ := deepCopy(k)
		vc, _ := deepCopy(src.Content[i+1])
		content = append(content, kc, vc)
	}
	dst.Content = content
}

func reconcileSeq(dst, src *yaml.Node) {
	if len(dst.Content) == 0 {
		dst.Style = src.Style
	}
	old, neu := dst.Content, src.Content
	// lcs[i][j] is the longest common subsequence of old[i:] and neu[j:].
	lcs := make([][]int, len(old)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(neu)+1)
	}
	for i := len(old) - 1; i >= 0; i-- {
		for j := len(neu) - 1; j >= 0; j-- {
			if sameValue(old[i], neu[j]) {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []*yaml.Node
	var gapOld, gapNew []*yaml.Node
	flush := func() {
		for k, n := range gapNew {
			if k < len(gapOld) {
				reconcile(gapOld[k], yamlnode.Resolve(n))
				out = append(out, gapOld[k])
				continue
			}
			cp, _ := deepCopy(n)
			out = append(out, cp)
		}
		gapOld, gapNew = nil, nil
	}
	i, j := 0, 0
	for i < len(old) || j < len(neu) {
		switch {
		case i < len(old) && j < len(neu) && sameValue(old[i], neu[j]):
			flush()
			out = append(out, old[i])
			i, j = i+1, j+1
		case j < len(neu) && (i == len(old) || lcs[i][j+1] >= lcs[i+1][j]):
			gapNew = append(gapNew, neu[j])
			j++
		default:
			gapOld = append(gapOld, old[i])
			i++
		}
	}
	flush()
	dst.Content = out
}

// sameValue reports whether two nodes have the same JSON value.
func sameValue(a, b *yaml.Node) bool {
	a, b = yamlnode.Resolve(a), yamlnode.Resolve(b)
	ak, bk := kindOf(a), kindOf(b)
	if ak != bk {
		return false
	}
	switch ak {
	case kindNull:
		return true
	case kindObject:
		if len(a.Content) != len(b.Content) {
			return false
		}
		bm := make(map[string]*yaml.Node, len(b.Content)/2)
		for i := 0; i+1 < len(b.Content); i += 2 {
			bm[b.Content[i].Value] = b.Content[i+1]
		}
		for i := 0; i+1 < len(a.Content); i += 2 {
			bv, ok := bm[a.Content[i].Value]
			if !ok || !sameValue(a.Content[i+1], bv) {
				return false
			}
		}
		return true
	case kindArray:
		if len(a.Content) != len(b.Content) {
			return false
		}
		for i := range a.Content {
			if !sameValue(a.Content[i], b.Content[i]) {
				return false
			}
		}
		return true
	case kindString:
		return a.Value == b.Value
	}
	return scalarText(a, ak) == scalarText(b, bk)
}
