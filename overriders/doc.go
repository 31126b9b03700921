// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package overriders holds one kyaml yaml.Filter per Karmada overrider kind:
// Image (imageOverrider), CommandArgs (commandOverrider and argsOverrider),
// LabelAnnotation (labelsOverrider and annotationsOverrider), Field
// (fieldOverrider) and Plaintext (plaintext).
//
// Each filter edits the resource in place and returns it, so comments, key
// order and quoting of everything it does not change survive. Every edit
// that Karmada expresses as a JSON patch goes through internal/yamlpatch,
// which behaves like evanphx/json-patch v5.9.11 with default options.
//
// The filters reproduce Karmada's override manager (karmada-io/karmada
// pkg/util/overridemanager @f8fdd02), quirks included: image registry and
// repository "add" concatenate strings, a tag+digest image loses its digest,
// command/args "remove" on an absent field creates an empty list, labels
// "replace" never inserts, and a fieldOverrider re-serialises the embedded
// document (compact JSON, or YAML 1.1 with sorted keys). Where upstream
// panics (an image predicate indexing past the end of a list, a container
// that is not an object) the filters return an error instead.
//
// Upstream patches the resource's JSON view, where every YAML alias is a
// separate copy. Package fn expands every alias when it reads the input;
// for other callers, a filter still expands the aliases of a document
// before editing it (up to a size limit that stops alias bombs), so an edit
// never leaks into the other places that shared an anchor. Documents
// without aliases are never rewritten beyond the edit itself.
//
// The filters know nothing about policies, clusters or KRM. A failing filter
// returns an error that names the field or path it was working on and
// contains upstream's message verbatim, and may leave the resource
// half-edited: package fn writes no items at all when a run fails, so a
// half-edited resource is never written and no filter copies the resource
// first. An error reads, e.g.
//
//	/spec/template/spec/containers/1/image: failed to parse image value(), error: repository name must have at least one component
//
// The caller adds the policy, rule and resource.
//
// KubeAdmiral's overriders, which are patch builders rather than filters,
// are in package kubeadmiral/overriders; the node and image-reference
// helpers both dialects use are in internal/yamlnode, internal/yamlvalue
// and internal/imageref.
package overriders
