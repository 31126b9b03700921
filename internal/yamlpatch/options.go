// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlpatch

import "sigs.k8s.io/kustomize/kyaml/yaml"

// Options are the non-default switches of evanphx/json-patch v5's
// ApplyOptions that some callers (Kyverno's patchesJson6902) turn on. The
// zero value is evanphx's default behaviour, which Patch.Apply uses.
// Negative array indices are always supported, as in evanphx's defaults.
type Options struct {
	// EnsurePathExistsOnAdd makes add create the missing parents of its
	// path first, as evanphx's ensurePathExists does: a missing parent, or
	// one that is a null of the document, becomes an array when the token
	// after it is an integer or "-" (padded with nulls up to that index; -1
	// counts as 0, lower negative indices fail) and an object otherwise; a
	// missing array index above the length pads the array with nulls. An
	// existing parent that is neither object nor array (a null an earlier
	// operation put there included) fails with ErrInvalid.
	EnsurePathExistsOnAdd bool
	// AllowMissingPathOnRemove makes remove (and the removal half of move)
	// succeed without change when its path, object key or array index does
	// not exist. Malformed array indices still fail.
	AllowMissingPathOnRemove bool
	// LegacyV4 makes the patch behave as evanphx/json-patch's v4 API does
	// (the root package of github.com/evanphx/json-patch
	// v5.6.0+incompatible, which KubeAdmiral uses) where it differs from
	// v5, error texts included:
	//
	//   - replace of a missing object key adds it (v4's object get never
	//     reports a missing key);
	//   - the empty path never resolves: add, remove, replace and test of ""
	//     fail as for a missing path; "" is an ordinary object key, and the
	//     root has no self;
	//   - removing a missing key fails with "Unable to remove nonexistent
	//     key: <key>";
	//   - a test of null also matches a null that add or replace put there;
	//   - operations carry no "from", as v4 decodes KubeAdmiral's {op, path,
	//     value}: move and copy always fail, as v4 fails them without one,
	//     whatever From holds;
	//   - a document that is neither object, array nor null fails with v4's
	//     decoding error.
	//
	// A null document (v4 holds it as a nil map and panics writing to it)
	// and a null the patch put there that a later path goes through (v4
	// panics) are outside this promise: the engine returns an error or a
	// result, never panics. The other options are v5's and cannot be
	// combined with this one (ErrInvalid).
	LegacyV4 bool
}

// ApplyWithOptions is Patch.Apply with evanphx's ApplyOptions o: the result
// and error text equal evanphx v5.9.11's ApplyWithOptions with those options
// (and its default negative-index support). As with Apply, doc is left
// unchanged on error.
//
// Containers created by EnsurePathExistsOnAdd are block style (flow inside
// a flow collection), and a comment of a null they replace stays on the
// key's line. Padding an array with more than MaxEnsurePadding nulls fails
// with ErrInvalidIndex, where evanphx would spend quadratic time on it.
func (p Patch) ApplyWithOptions(doc *yaml.Node, o Options) error { return p.apply(doc, o) }

// MaxEnsurePadding bounds the nulls EnsurePathExistsOnAdd may pad one add
// with, so that a path such as /a/999999999/b cannot exhaust memory.
const MaxEnsurePadding = 10000
