// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"fmt"

	"github.com/apply-overrides/apply-overrides/internal/imageref"
)

// Image components and operators, as Karmada's CRD enums spell them.
const (
	ComponentRegistry   = "Registry"
	ComponentRepository = "Repository"
	ComponentTag        = "Tag"

	OpAdd     = "add"
	OpRemove  = "remove"
	OpReplace = "replace"
)

// imageRef mirrors karmada pkg/util/imageparser.Components @f8fdd02: it
// never holds both a tag and a digest.
type imageRef struct{ imageref.Components }

// parseImage is karmada's imageparser.Parse: imageref.Parse, with the tag
// winning over the digest.
func parseImage(s string) (imageRef, error) {
	c, err := imageref.Parse(s)
	if c.Tag != "" {
		c.Digest = ""
	}
	return imageRef{c}, err
}

func (c imageRef) tagOrDigest() string {
	if c.Tag != "" {
		return c.Tag
	}
	return c.Digest
}

// setTagOrDigest silently ignores values that are neither a tag nor a digest.
func (c *imageRef) setTagOrDigest(s string) {
	switch {
	case imageref.IsTag(s):
		c.Tag, c.Digest = s, ""
	case imageref.IsDigest(s):
		c.Tag, c.Digest = "", s
	}
}

func (c *imageRef) removeTagOrDigest() {
	if c.Tag != "" {
		c.Tag = ""
	} else {
		c.Digest = ""
	}
}

// overrideImage is karmada's overrideImage: it re-parses cur, edits one
// component with plain string operations and re-serialises the result.
func overrideImage(cur, component, operator, value string) (string, error) {
	c, err := parseImage(cur)
	if err != nil {
		return "", fmt.Errorf("failed to parse image value(%s), error: %w", cur, err)
	}
	switch component {
	case ComponentRegistry:
		switch operator {
		case OpAdd:
			c.Registry += value
		case OpReplace:
			c.Registry = value
		case OpRemove:
			c.Registry = ""
		}
	case ComponentRepository:
		switch operator {
		case OpAdd:
			c.Repository += value
		case OpReplace:
			c.Repository = value
		case OpRemove:
			c.Repository = ""
		}
	case ComponentTag:
		switch operator {
		case OpAdd:
			c.setTagOrDigest(c.tagOrDigest() + value)
		case OpReplace:
			c.setTagOrDigest(value)
		case OpRemove:
			c.removeTagOrDigest()
		}
	default:
		return "", fmt.Errorf("unsupported image component(%s)", component)
	}
	return c.String(), nil
}
