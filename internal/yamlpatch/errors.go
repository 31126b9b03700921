// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlpatch

import (
	"errors"
	"fmt"
)

// Sentinel errors of Patch.Apply. Their texts equal the sentinels of
// github.com/evanphx/json-patch/v5, and Apply wraps them the way evanphx
// does, so errors.Is works against these values.
var (
	// ErrTestFailed is wrapped by a failing test operation.
	ErrTestFailed = errors.New("test failed")
	// ErrMissing is wrapped when a path, key or value does not exist.
	ErrMissing = errors.New("missing value")
	// ErrInvalid is wrapped when an operation cannot apply to the document's
	// shape, e.g. moving the whole document.
	ErrInvalid = errors.New("invalid state detected")
	// ErrInvalidIndex is wrapped when an array index is out of range.
	ErrInvalidIndex = errors.New("invalid index referenced")
	// ErrExpectedObject is wrapped when an object operation meets a JSON
	// null document.
	ErrExpectedObject = errors.New("invalid value, expected object")
)

// Sentinel errors of Get, with the texts of github.com/go-openapi/jsonpointer.
var (
	// ErrPointer is wrapped by every error Get returns.
	ErrPointer = errors.New("JSON pointer error")
	// ErrInvalidStart reports a non-empty pointer without a leading "/".
	ErrInvalidStart = errors.New(`JSON pointer must be empty or start with a "/"`)
	// ErrDashToken reports the "-" array token where it cannot resolve.
	ErrDashToken = errors.New(`the "-" array token cannot be resolved here`)
)

// errMarshalNullDoc is what evanphx reports when the document ends up as a
// JSON null object (it fails to marshal its nil map).
var errMarshalNullDoc = fmt.Errorf("json: error calling MarshalJSON for type *jsonpatch.partialDoc: %w", ErrExpectedObject)

// errReplaceRootScalar is evanphx's text for replacing the whole document by
// a scalar; it formats a nil error with %w, hence the odd suffix.
var errReplaceRootScalar = errors.New("replace operation value must be object or array: %!w(<nil>)")

// errCycle reports a document that refers to itself, which evanphx can only
// produce by moving the document's own root into itself (and then overflows
// its stack when serialising).
var errCycle = fmt.Errorf("document contains a cycle: %w", ErrInvalid)

// errNotObject mimics the json decoding error evanphx returns when the
// document, or the value of an add to "", is a non-null scalar.
func errNotObject(kind jsonKind) error {
	return fmt.Errorf("json: cannot unmarshal %s into Go value of type map[string]*jsonpatch.lazyNode", kind)
}

// errNotPartialDoc is v4's errNotObject (see Options.LegacyV4).
func errNotPartialDoc(kind jsonKind) error {
	return fmt.Errorf("json: cannot unmarshal %s into Go value of type jsonpatch.partialDoc", kind)
}

// errMissingFromV4 is v4's Operation.From error for an operation without
// "from".
var errMissingFromV4 = fmt.Errorf("operation, missing from field: %w", ErrMissing)

// errInvalidIndex is evanphx's out-of-range index error.
func errInvalidIndex(idx int) error {
	return fmt.Errorf("Unable to access invalid index: %d: %w", idx, ErrInvalidIndex)
}
