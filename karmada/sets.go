// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

import (
	"sort"

	"github.com/apply-overrides/apply-overrides/policy"
)

// phase indexes the policies of one Karmada phase by the apiVersion/kind of
// their resource selectors, so that a resource only meets the policies that
// can select it.
type phase struct {
	byGVK    map[string][]*compiledPolicy
	matchAll []*compiledPolicy // policies without resourceSelectors
}

func newPhase() *phase { return &phase{byGVK: map[string][]*compiledPolicy{}} }

func (ph *phase) add(p *compiledPolicy) {
	if len(p.selectors) == 0 {
		ph.matchAll = append(ph.matchAll, p)
		return
	}
	keys := map[string]bool{}
	for _, s := range p.selectors {
		key := s.APIVersion + "|" + s.Kind
		if !keys[key] {
			keys[key] = true
			ph.byGVK[key] = append(ph.byGVK[key], p)
		}
	}
}

type ranked struct {
	p        *compiledPolicy
	priority int
}

// Rules mirrors getOverridersFromOverridePolicies: the policies that select
// the resource, by implicit priority and then name, each contributing its
// cluster-matching rules in order.
func (ph *phase) Rules(res *policy.Resource) ([]*policy.Rule, error) {
	cands := ph.byGVK[res.APIVersion+"|"+res.Kind]
	if len(cands) == 0 && len(ph.matchAll) == 0 {
		return nil, nil
	}
	matched := make([]ranked, 0, len(cands)+len(ph.matchAll))
	for _, p := range ph.matchAll {
		matched = append(matched, ranked{p, priorityMatchAll})
	}
	for _, p := range cands {
		best := priorityMismatch
		for i := range p.selectors {
			if pr := p.selectors[i].priority(res); pr > best {
				best = pr
			}
		}
		if best > priorityMismatch {
			matched = append(matched, ranked{p, best})
		}
	}
	sort.SliceStable(matched, func(i, j int) bool {
		if matched[i].priority != matched[j].priority {
			return matched[i].priority < matched[j].priority
		}
		return matched[i].p.name < matched[j].p.name
	})
	var rules []*policy.Rule
	for _, m := range matched {
		rules = append(rules, m.p.rules...)
	}
	return rules, nil
}

// opSet holds the OverridePolicies by namespace: a resource only meets the
// policies of its own namespace, and a resource without a namespace none.
type opSet map[string]*phase

func (s opSet) phase(ns string) *phase {
	if s[ns] == nil {
		s[ns] = newPhase()
	}
	return s[ns]
}

func (s opSet) Rules(res *policy.Resource) ([]*policy.Rule, error) {
	if res.Namespace == "" || s[res.Namespace] == nil {
		return nil, nil
	}
	return s[res.Namespace].Rules(res)
}
