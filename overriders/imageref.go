// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	_ "crypto/sha256" // lets go-digest validate sha256 digests, as upstream does
	_ "crypto/sha512" // lets go-digest validate sha384/sha512 digests
	"fmt"
	"regexp"
	"strings"

	"github.com/distribution/reference"
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

// anchoredTag and anchoredDigest match a whole new tag or digest against
// distribution/reference's TagRegexp and DigestRegexp. Karmada
// (pkg/util/imageparser/lifted.go @f8fdd02) and KubeAdmiral
// (pkg/lifted/distribution/reference/regexp.go @19de01c) each lifted these
// two patterns, unchanged, only because reference does not export their
// anchored forms.
var (
	anchoredTag    = anchored(reference.TagRegexp)
	anchoredDigest = anchored(reference.DigestRegexp)
)

// anchored is re matching whole strings only, as reference's unexported
// anchored does.
func anchored(re *regexp.Regexp) *regexp.Regexp {
	return regexp.MustCompile(`^(?:` + re.String() + `)$`)
}

// imageRef mirrors karmada pkg/util/imageparser.Components @f8fdd02: plain
// strings, never re-validated, so overrides can produce invalid references.
type imageRef struct {
	host, repo, tag, digest string
}

// parseImage is karmada's imageparser.Parse: reference.Parse (no docker.io
// normalisation), Karmada's host split, and the tag winning over the digest.
func parseImage(s string) (imageRef, error) {
	ref, err := reference.Parse(s)
	if err != nil {
		return imageRef{}, err
	}
	var c imageRef
	if named, ok := ref.(reference.Named); ok {
		c.host, c.repo = splitHostname(named.Name())
	}
	if tagged, ok := ref.(reference.Tagged); ok {
		c.tag = tagged.Tag()
	} else if digested, ok := ref.(reference.Digested); ok {
		c.digest = digested.Digest().String()
	}
	return c, nil
}

// splitHostname is Karmada's SplitHostname (pkg/util/imageparser/parser.go
// @f8fdd02; KubeAdmiral's SplitRegistryAndRepository is the same): the first
// "/" segment is the registry host only if it contains "." or ":" or is
// "localhost". It is upstream's own code, not distribution's, and no
// function of reference v0.6.0 splits the same way: reference.Domain
// follows the grammar, so "ealen/echo" has the domain "ealen" and "0_0.0/x"
// none; the heuristic ParseNormalizedNamed uses (normalize.go
// splitDockerDomain, unexported) also takes an upper-case first segment
// for a domain and rewrites the name to docker.io/[library/]….
func splitHostname(name string) (host, repo string) {
	i := strings.IndexRune(name, '/')
	if i == -1 || (!strings.ContainsAny(name[:i], ".:") && name[:i] != "localhost") {
		return "", name
	}
	return name[:i], name[i+1:]
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
	case anchoredTag.MatchString(s):
		c.tag, c.digest = s, ""
	case anchoredDigest.MatchString(s):
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
