// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package policy

import "fmt"

// Names finds a policy given twice, keyed as the dialect identifies its
// policies (e.g. "OverridePolicy/default/web"). The first copy counts; a
// later one is an error that says where the first copy is.
type Names map[string]Ref

// Add records ref under key. For a key already recorded it returns an
// *Error on ref's metadata.name naming the first copy's file.
func (n Names) Add(key string, ref Ref) error {
	first, ok := n[key]
	if !ok {
		n[key] = ref
		return nil
	}
	where := "earlier in the input"
	if first.File != "" {
		where = fmt.Sprintf("in %s (document index %d)", first.File, first.Index)
	}
	return &Error{Policy: ref, Field: "metadata.name", Err: fmt.Errorf(
		"duplicate %s: a policy of that name was already given %s; remove one copy or rename it", ref, where)}
}
