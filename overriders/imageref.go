// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"fmt"

	"github.com/distribution/reference"

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

// imageRef mirrors karmada pkg/util/imageparser.Components @f8fdd02: plain
// strings, never re-validated, so overrides can produce invalid references.
type imageRef struct {
	host, repo, tag, digest string
}

// parseImage is karmada's imageparser.Parse: reference.Parse (no docker.io
// normalisation), Karmada's host split (imageref.SplitHostname), and the
// tag winning over the digest.
func parseImage(s string) (imageRef, error) {
	ref, err := reference.Parse(s)
	if err != nil {
		return imageRef{}, err
	}
	var c imageRef
	if named, ok := ref.(reference.Named); ok {
		c.host, c.repo = imageref.SplitHostname(named.Name())
	}
	if tagged, ok := ref.(reference.Tagged); ok {
		c.tag = tagged.Tag()
	} else if digested, ok := ref.(reference.Digested); ok {
		c.digest = digested.Digest().String()
	}
	return c, nil
}

func (c imageRef) String() string {
	full := c.repo
	if c.host != "" {
		full = c.host + "/" + c.repo
	}
	switch {
	case c.tag != "":
		return full + ":" + c.tag
	case c.digest != "":
		return full + "@" + c.digest
	}
	return full
}

func (c imageRef) tagOrDigest() string {
	if c.tag != "" {
		return c.tag
	}
	return c.digest
}

// setTagOrDigest silently ignores values that are neither a tag nor a digest.
func (c *imageRef) setTagOrDigest(s string) {
	switch {
	case imageref.IsTag(s):
		c.tag, c.digest = s, ""
	case imageref.IsDigest(s):
		c.tag, c.digest = "", s
	}
}

func (c *imageRef) removeTagOrDigest() {
	if c.tag != "" {
		c.tag = ""
	} else {
		c.digest = ""
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
			c.host += value
		case OpReplace:
			c.host = value
		case OpRemove:
			c.host = ""
		}
	case ComponentRepository:
		switch operator {
		case OpAdd:
			c.repo += value
		case OpReplace:
			c.repo = value
		case OpRemove:
			c.repo = ""
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
