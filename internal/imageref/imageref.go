// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package imageref holds the pieces of image-reference handling that
// Karmada's and KubeAdmiral's overriders share: the registry split both
// lifted (SplitHostname) and the anchored tag and digest patterns both
// lifted from github.com/distribution/reference (IsTag, IsDigest), and the
// parse both make of an image (Parse). What each does with a reference
// carrying both a tag and a digest differs, and stays in the dialect.
package imageref

import (
	_ "crypto/sha256" // lets go-digest validate sha256 digests, as upstream does
	_ "crypto/sha512" // lets go-digest validate sha384/sha512 digests
	"regexp"
	"strings"

	"github.com/distribution/reference"
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

// IsTag reports whether s as a whole is a tag, e.g. "1.25-alpine".
func IsTag(s string) bool { return anchoredTag.MatchString(s) }

// IsDigest reports whether s as a whole is a digest, e.g. "sha256:<64 hex>".
func IsDigest(s string) bool { return anchoredDigest.MatchString(s) }

// SplitHostname is Karmada's SplitHostname (pkg/util/imageparser/parser.go
// @f8fdd02; KubeAdmiral's SplitRegistryAndRepository is the same): the first
// "/" segment is the registry host only if it contains "." or ":" or is
// "localhost". It is upstream's own code, not distribution's, and no
// function of reference v0.6.0 splits the same way: reference.Domain
// follows the grammar, so "ealen/echo" has the domain "ealen" and "0_0.0/x"
// none; the heuristic ParseNormalizedNamed uses (normalize.go
// splitDockerDomain, unexported) also takes an upper-case first segment
// for a domain and rewrites the name to docker.io/[library/]….
func SplitHostname(name string) (host, repo string) {
	i := strings.IndexRune(name, '/')
	if i == -1 || (!strings.ContainsAny(name[:i], ".:") && name[:i] != "localhost") {
		return "", name
	}
	return name[:i], name[i+1:]
}

// Components is an image reference split as both control planes split it
// (Karmada's imageparser.Components, KubeAdmiral's override.Image): plain
// strings, never re-validated as a whole, so overrides can make invalid
// references, as upstream's do.
type Components struct {
	Registry, Repository, Tag, Digest string
}

// Parse is the parse both make: reference.Parse (no docker.io
// normalisation), the registry split of SplitHostname, and the tag and the
// digest, both kept (Karmada then drops the digest when there is a tag).
func Parse(s string) (Components, error) {
	ref, err := reference.Parse(s)
	if err != nil {
		return Components{}, err
	}
	var c Components
	if named, ok := ref.(reference.Named); ok {
		c.Registry, c.Repository = SplitHostname(named.Name())
	}
	if tagged, ok := ref.(reference.Tagged); ok {
		c.Tag = tagged.Tag()
	}
	if digested, ok := ref.(reference.Digested); ok {
		c.Digest = digested.Digest().String()
	}
	return c, nil
}

// String is [registry/]repository[:tag][@digest].
func (c Components) String() string {
	s := c.Repository
	if c.Registry != "" {
		s = c.Registry + "/" + s
	}
	if c.Tag != "" {
		s += ":" + c.Tag
	}
	if c.Digest != "" {
		s += "@" + c.Digest
	}
	return s
}
