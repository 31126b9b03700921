// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package policy

import (
	"fmt"
	"strings"
)

// Lookalike describes one kind of a dialect's control plane (a policy kind
// or an inventory kind) for the misspelling checks.
type Lookalike struct {
	// System names the dialect in messages, e.g. "Karmada", "ACK One".
	System string
	// APIVersion is the one apiVersion the kind is read in, e.g.
	// "policy.karmada.io/v1alpha1".
	APIVersion string
	// Kind is the kind, e.g. "OverridePolicy".
	Kind string
	// Name is a word that marks a group as the dialect's, e.g. "karmada".
	Name string
}

// Misspelt reports whether an object with apiVersion and kind looks like l
// but is not, and says how to fix it. Without this check such an object is
// taken for a workload and sent to the member cluster.
//
// The rule is narrow on purpose, so that it never fires on a custom
// resource of another project: the kind must be l.Kind exactly, and the
// group must be a near miss of l's group:
//
//   - the same group in another version (e.g. policy.karmada.io/v1);
//   - no group and a version the core group does not serve
//     (apiVersion: v1alpha1; `v1 Policy` is not taken, it is the legacy
//     kube-scheduler policy file);
//   - equal ignoring case;
//   - one DNS label missing or extra (karmada.io, policy.karmada.io.io);
//   - within two single-character edits (policy.karmda.io, polcy.karmada.io);
//   - or containing l.Name (policy.karmada.example.com).
//
// A kind that matches ignoring case in l's own group (overridepolicy) is
// a misspelling too.
func (l Lookalike) Misspelt(apiVersion, kind string) error {
	if apiVersion == l.APIVersion && kind == l.Kind {
		return nil
	}
	if kind != l.Kind && !strings.EqualFold(kind, l.Kind) {
		return nil // the common case, checked for every item: no allocation
	}
	group, version := splitAPIVersion(apiVersion)
	want, _ := splitAPIVersion(l.APIVersion)
	article := "a"
	if strings.ContainsRune("AEIOU", rune(l.System[0])) {
		article = "an"
	}
	what := func() string {
		return fmt.Sprintf("%s %s looks like %s %s %s", apiVersion, kind, article, l.System, l.Kind)
	}
	switch {
	case kind != l.Kind:
		if group == want {
			return fmt.Errorf("%s, whose kind is spelt %s: correct the kind", what(), l.Kind)
		}
		return nil
	case group == want:
		return fmt.Errorf("%s, but %s is not supported: the supported apiVersion is %s", what(), apiVersion, l.APIVersion)
	case group == "" && version == "v1":
		return nil
	case nearGroup(group, want, l.Name):
		return fmt.Errorf("%s, whose apiVersion is %s: correct the apiVersion (as written, the object is not read as %s %s and would be sent to the member cluster as a manifest)",
			what(), l.APIVersion, article, l.System)
	}
	return nil
}

// splitAPIVersion splits "group/version"; "v1" has no group.
func splitAPIVersion(apiVersion string) (group, version string) {
	group, version, ok := strings.Cut(apiVersion, "/")
	if !ok {
		return "", apiVersion
	}
	return group, version
}

// nearGroup reports whether group is a near miss of want (see Misspelt).
func nearGroup(group, want, name string) bool {
	g, w := strings.ToLower(group), strings.ToLower(want)
	switch {
	case g == "" || g == w:
		return true
	case name != "" && strings.Contains(g, strings.ToLower(name)):
		return true
	case oneLabelApart(strings.Split(g, "."), strings.Split(w, ".")):
		return true
	}
	return editDistance(g, w) <= 2
}

// oneLabelApart reports whether removing one label from the longer list
// gives the shorter one.
func oneLabelApart(a, b []string) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	if len(a) != len(b)+1 {
		return false
	}
	for skip := range a {
		rest := append(append([]string{}, a[:skip]...), a[skip+1:]...)
		if strings.Join(rest, ".") == strings.Join(b, ".") {
			return true
		}
	}
	return false
}

// editDistance is the Levenshtein distance of two strings, byte-wise.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Lookalikes is a dialect's kinds for the misspelling checks.
type Lookalikes []Lookalike

// Misspelt is the first of ls whose Misspelt reports apiVersion and kind,
// or nil; skip leaves some out (e.g. the kinds an object in the dialect's
// own group is spelt as exactly).
func (ls Lookalikes) Misspelt(apiVersion, kind string, skip func(Lookalike) bool) error {
	for _, l := range ls {
		if skip != nil && skip(l) {
			continue
		}
		if err := l.Misspelt(apiVersion, kind); err != nil {
			return err
		}
	}
	return nil
}

// Near lists the words of among that are a near miss of word: equal
// ignoring case, or within two single-character edits (and not equal),
// in among's order. A word shorter than four characters has none.
func Near(word string, among []string) []string {
	if len(word) < 4 {
		return nil
	}
	var out []string
	lw := strings.ToLower(word)
	for _, w := range among {
		if w == word {
			continue
		}
		if lo := strings.ToLower(w); lo == lw || editDistance(lo, lw) <= 2 {
			out = append(out, w)
		}
	}
	return out
}
