// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlpatch

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
)

// get resolves pointer like github.com/go-openapi/jsonpointer's Pointer.Get
// on the JSON view of doc; see Get.
func get(doc *yaml.Node, pointer string) (*yaml.Node, error) {
	node := yamlnode.Resolve(doc)
	if pointer == "" {
		return node, nil
	}
	if !strings.HasPrefix(pointer, "/") {
		return nil, errors.Join(ErrInvalidStart, ErrPointer)
	}
	for _, tok := range strings.Split(pointer, "/")[1:] {
		tok = decodeToken(tok)
		switch kindOf(node) {
		case kindNull:
			return nil, fmt.Errorf("nil value has no field %q: %w", tok, ErrPointer)
		case kindObject:
			i := findKey(node, tok)
			if i < 0 {
				return nil, fmt.Errorf("object has no key %q: %w", tok, ErrPointer)
			}
			node = yamlnode.Resolve(node.Content[i+1])
		case kindArray:
			if tok == "-" {
				return nil, fmt.Errorf("cannot resolve %q token on get: %w: %w", tok, ErrDashToken, ErrPointer)
			}
			idx, err := strconv.Atoi(tok)
			if err != nil {
				return nil, errors.Join(err, ErrPointer)
			}
			if idx < 0 || idx >= len(node.Content) {
				return nil, fmt.Errorf("index out of bounds array[0,%d] index '%d': %w", len(node.Content)-1, idx, ErrPointer)
			}
			node = yamlnode.Resolve(node.Content[idx])
		default:
			return nil, fmt.Errorf("invalid token reference %q: %w", tok, ErrPointer)
		}
	}
	return node, nil
}
