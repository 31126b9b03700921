// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package smp

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Check reports the parts of a patchStrategicMerge value (a JSON value, as
// written in the policy) that the offline render rejects instead of
// reproducing upstream's behaviour:
//
//   - equality =(k), negation X(k) and existence ^(k) anchors: mutate does
//     not interpret them, upstream merges them into the resource as literal
//     keys (kyverno issue #2109);
//   - a list in which two or more elements are removed by anchor
//     processing (anchored elements, including scalars spelled like
//     "(x)", and elements that are or become empty maps): upstream removes
//     them by stale index, deleting the wrong elements or crashing (kyverno
//     issue #16862);
//   - anchored keys with white space around them: upstream recognises the
//     anchor but then looks the key up without the white space, crashing
//     for (k) and <(k) and leaving +(k) as a literal key.
//
// Each problem names its key path, e.g. `spec.containers[0]."=(image)"`; all
// are joined into one error.
//
// patch may be any value encoding/json can marshal (e.g. one decoded from
// YAML); it is read as its JSON value.
func Check(patch any) error {
	b, err := json.Marshal(patch)
	if err != nil {
		return fmt.Errorf("patchStrategicMerge is not a JSON value: %w", err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("patchStrategicMerge is not a JSON value: %w", err)
	}
	var errs []error
	checkTree(v, "", &errs)
	return errors.Join(errs...)
}

func checkTree(v any, path string, errs *[]error) {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := joinPath(path, k)
			if err := checkKey(k); err != nil {
				*errs = append(*errs, fmt.Errorf("%s: %w", p, err))
			}
			checkTree(t[k], p, errs)
		}
	case []any:
		if err := checkRemovals(t); err != nil {
			*errs = append(*errs, fmt.Errorf("%s: %w", orRoot(path), err))
		}
		for i, x := range t {
			checkTree(x, path+"["+strconv.Itoa(i)+"]", errs)
		}
	}
}

// checkKey rejects the anchors mutate does not interpret and anchors with
// surrounding white space.
func checkKey(k string) error {
	a := parseAnchor(k)
	if a == nil {
		return nil
	}
	var kind string
	switch a.mod {
	case modEquality:
		kind = "equality"
	case modNegation:
		kind = "negation"
	case modExistence:
		kind = "existence"
	}
	if kind != "" {
		return fmt.Errorf("%s anchor %s is not supported in a mutate patch: Kyverno does not interpret it and merges %q into the resource as a literal key (kyverno issue #2109); use a conditional anchor (%s) or a precondition",
			kind, a, k, a.key)
	}
	if strings.TrimSpace(k) != k {
		return fmt.Errorf("anchor %q has white space around it: Kyverno recognises the anchor but then looks up the key without the white space, and crashes (or, for +(), merges the key literally); write %q", k, a.String())
	}
	return nil
}

// checkRemovals rejects a list from which anchor processing would remove
// two or more elements.
func checkRemovals(list []any) error {
	var removed []string
	for i, x := range list {
		drop, err := removedByCleanup(x)
		if err != nil {
			return err
		}
		if drop {
			removed = append(removed, strconv.Itoa(i))
		}
	}
	if len(removed) < 2 {
		return nil
	}
	return fmt.Errorf("elements %s of this list are all removed by anchor processing (anchored elements, and elements that are or become empty maps): Kyverno removes them by stale index, which deletes the wrong elements or crashes (kyverno issue #16862); use at most one anchored element per list (or a foreach)",
		strings.Join(removed, ", "))
}

// removedByCleanup reports whether the anchor post-pass drops a list
// element: anchored elements always, others when nothing is left of them.
func removedByCleanup(v any) (bool, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return false, err
	}
	n, err := yaml.Parse(string(b))
	if err != nil {
		return false, err
	}
	if hasAnchors(n, isMutateAnchor) {
		return true, nil
	}
	drop, err := cleanNode(n, false)
	if err != nil {
		// only a nested list with several removals fails here; it is
		// reported at its own path
		return false, nil //nolint:nilerr // reported where the nested list is checked
	}
	return drop, nil
}

// joinPath appends a map key to a path, quoting keys that are not plain
// identifiers.
func joinPath(path, key string) string {
	if !plainKey(key) {
		key = strconv.Quote(key)
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

func plainKey(k string) bool {
	if k == "" {
		return false
	}
	for _, r := range k {
		if !(r == '_' || r == '-' || r == '/' || r == '$' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')) {
			return false
		}
	}
	return true
}

func orRoot(path string) string {
	if path == "" {
		return "(root)"
	}
	return path
}
