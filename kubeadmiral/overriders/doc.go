// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package overriders holds KubeAdmiral's overriders (kubewharf/kubeadmiral
// pkg/controllers/override @19de01c). They do not edit the resource: for
// each rule, every overrider list turns into JSON-patch operations computed
// against the object as it is before the rule, and only then is the rule's
// patch applied (with evanphx/json-patch v5.6.0+incompatible's root
// package, i.e. v4 semantics: a replace of a missing object key adds it),
// by package kubeadmiral. The types here are therefore patch builders, not
// yaml.Filters: Images, Entrypoint (command and args), Envs, StringMap
// (annotations and labels) and JSONPatches each implement Patcher, and Rule
// lists one rule's builders in upstream's fixed order. Their errors carry
// upstream's wrapping, e.g.
// "failed to parse command overriders: failed to apply command override: unsupported operator:".
//
// The node and image-reference helpers this package shares with Karmada's
// overriders (package overriders at the module root) are in
// internal/yamlnode, internal/yamlvalue and internal/imageref.
package overriders
