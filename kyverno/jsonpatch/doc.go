// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package jsonpatch runs a Kyverno mutate rule's patchesJson6902 the way
// Kyverno v1.19.1 does (pkg/engine/mutate/patch), but in place on the
// resource's kyaml RNode, so that comments, key order and styles of what
// the patch leaves alone survive.
//
// # Apply
//
// The patch string, after variable substitution, is read as upstream reads
// it: JSON when its first byte is "[", otherwise YAML converted to JSON by
// sigs.k8s.io/yaml (YAML 1.1: yes/on are booleans, 0123 is octal). The
// operations are decoded by evanphx/json-patch v5's DecodePatch itself, so
// decode errors are upstream's word for word, and are then applied by
// internal/yamlpatch with the options Kyverno sets: EnsurePathExistsOnAdd
// (add creates missing parents, arrays padded with nulls),
// AllowMissingPathOnRemove (removing what is not there is a no-op) and
// negative indices. Errors are evanphx's texts; the resource is unchanged
// on error.
//
// # Validate and Paths
//
// Validate is the patchesJson6902 part of Kyverno's policy validation
// (pkg/validation/policy/validate.go, validateJSONPatchPathForForwardSlash
// and validateJSONPatch), on the raw patch with every {{...}} variable
// replaced by a placeholder. Paths lists the operations' paths of the raw
// patch, as upstream's check for variables in paths reads them.
package jsonpatch
