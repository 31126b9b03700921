// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlpatch

import "sigs.k8s.io/kustomize/kyaml/yaml"

// Operation is one RFC 6902 operation whose value is a YAML node.
type Operation struct {
	// Op is add, remove, replace, move, copy or test.
	Op string
	// Path is the RFC 6901 pointer the operation targets, e.g. "/spec/replicas".
	Path string
	// From is the source pointer of move and copy.
	From string
	// Value is the value of add, replace and test. It is deep-copied into the
	// document, never shared. nil means JSON null.
	Value *yaml.Node
}

// Patch is a sequence of operations applied in order.
type Patch []Operation

// Apply applies p to doc in place (doc is a mapping or sequence node; a
// document node is unwrapped). It stops at the first failing operation and
// returns an error whose text equals evanphx/json-patch v5's.
//
// On error doc is left exactly as it was. Values are deep-copied (aliases
// in them expanded); a replaced node's comments move to its replacement.
// Aliases in doc are followed when reading; before a change, aliases that
// would see it (or would dangle) are replaced by copies of their targets,
// so the result reads as the JSON patch of the document's JSON view. An
// empty document node is left alone, as evanphx leaves an empty document.
func (p Patch) Apply(doc *yaml.Node) error { return p.apply(doc, Options{}) }

// Get resolves an RFC 6901 pointer against doc the way
// github.com/go-openapi/jsonpointer does ("~1" is "/", "~0" is "~"), with its
// error messages, e.g. `object has no key "x": JSON pointer error`.
//
// The empty pointer returns the document (a document node unwrapped).
// Aliases are followed, so the node returned may be an anchored node that
// other places of the document also refer to. Every error wraps ErrPointer.
func Get(doc *yaml.Node, pointer string) (*yaml.Node, error) { return get(doc, pointer) }

// IsString reports whether n is a scalar that reads as a JSON string.
func IsString(n *yaml.Node) bool { return isString(n) }

// SetString sets scalar node n to the string s in place, keeping its comments
// and, where s allows, its style; it quotes s where a YAML 1.1 or 1.2 reader
// would otherwise not read it back as a string.
//
// The tag becomes !!str. Quoted styles are kept, literal (and, where the
// encoder can write s that way, folded) blocks are kept for multi-line s,
// other multi-line strings become literal blocks, and strings such as "",
// "on", "yes", "8080", "true" or "~" are double-quoted. A node that was not
// a scalar becomes one; an anchor on n is kept, so aliases to n (which Get
// follows) see the new string too.
func SetString(n *yaml.Node, s string) { setString(n, s) }
