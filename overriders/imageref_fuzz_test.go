// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"regexp"
	"strings"
	"testing"

	"github.com/distribution/reference"
)

// The seeds of both targets are in testdata/fuzz/<target>/.

// FuzzKarmadaImageRef holds parseImage and imageRef.String (Karmada's
// imageparser) to github.com/distribution/reference on any string: parseImage
// accepts it iff reference.Parse does, with the same error, and the
// components and the formatted string are reference's, except for the two
// differences Karmada's own code makes (karmada pkg/util/imageparser/parser.go
// @f8fdd02):
//   - SplitHostname takes the first "/" segment as the host when it holds
//     "." or ":" or is "localhost", whatever reference's grammar says:
//     reference makes "ealen" the domain of "ealen/echo" (here: no host,
//     repository "ealen/echo"), and "0_0.0/x" all path ("_" is not allowed
//     in a domain; here: host "0_0.0");
//   - Parse keeps the tag and drops the digest of a reference that has
//     both ("else if digested"), so String is name:tag.
//
// It also holds the tag and digest patterns Karmada lifted
// (pkg/util/imageparser/lifted.go), which KubeAdmiral lifted too
// (pkg/lifted/distribution/reference/regexp.go), to reference's own.
func FuzzKarmadaImageRef(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 512 {
			return
		}
		checkLiftedPatterns(t, s)
		ref, refErr := reference.Parse(s)
		c, err := parseImage(s)
		if !sameError(err, refErr) {
			t.Fatalf("parseImage(%q) error %v, reference.Parse error %v", s, err, refErr)
		}
		if err != nil {
			return
		}
		checkHostSplit(t, s, ref, c.host, c.repo)
		tag, dgst := tagAndDigest(ref)
		want := ref.String()
		if tag != "" && dgst != "" {
			dgst = ""
			want = ref.(reference.Named).Name() + ":" + tag
		}
		if c.tag != tag || c.digest != dgst {
			t.Fatalf("parseImage(%q): tag %q digest %q, reference: tag %q digest %q", s, c.tag, c.digest, tag, dgst)
		}
		if got := c.String(); got != want {
			t.Fatalf("parseImage(%q).String() = %q, want %q", s, got, want)
		}
		back, err := parseImage(c.String())
		if err != nil || back != c {
			t.Fatalf("parseImage(%q) = %+v, its String %q parses to %+v, %v", s, c, c.String(), back, err)
		}
	})
}

// FuzzKubeAdmiralImageRef holds kaParseImage and kaImage.String
// (KubeAdmiral's ParseImage, pkg/controllers/override/imageparse.go
// @19de01c) to github.com/distribution/reference: the same acceptance and
// errors, tag and digest as reference has them (both kept) and String equal
// to reference's. The one difference is the registry split: KubeAdmiral's
// SplitRegistryAndRepository is Karmada's SplitHostname (its comment cites
// "ealen/echo-server", which reference.Domain would split), checked as in
// FuzzKarmadaImageRef. Upstream pins reference v0.5.0, this module v0.6.0;
// Parse's grammar is the same in both.
func FuzzKubeAdmiralImageRef(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 512 {
			return
		}
		ref, refErr := reference.Parse(s)
		img, err := kaParseImage(s)
		if !sameError(err, refErr) {
			t.Fatalf("kaParseImage(%q) error %v, reference.Parse error %v", s, err, refErr)
		}
		if err != nil {
			return
		}
		checkHostSplit(t, s, ref, img.registry, img.repository)
		tag, dgst := tagAndDigest(ref)
		if img.tag != tag || img.digest != dgst {
			t.Fatalf("kaParseImage(%q): tag %q digest %q, reference: tag %q digest %q", s, img.tag, img.digest, tag, dgst)
		}
		if got := img.String(); got != ref.String() {
			t.Fatalf("kaParseImage(%q).String() = %q, reference: %q", s, got, ref.String())
		}
	})
}

func sameError(a, b error) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Error() == b.Error()
}

// checkHostSplit checks a host/repository pair against reference's domain
// and path. SplitHostname looks only at the first "/" segment of the name:
// a host when it holds "." or ":" or is "localhost", else part of the
// repository. So the pair is reference's domain and path when that domain
// is such a host; no host and the whole name when the first segment is not
// (reference may still call it a domain: "ealen/echo"); and the first
// segment as host where reference's grammar refuses it as a domain but it
// holds a "." or ":" ("a_b.c/d": "_" is not allowed in a host name).
func checkHostSplit(t *testing.T, s string, ref reference.Reference, host, repo string) {
	t.Helper()
	named, ok := ref.(reference.Named)
	if !ok {
		if host != "" || repo != "" {
			t.Fatalf("%q has no name, yet host %q repository %q", s, host, repo)
		}
		return
	}
	domain, path := reference.Domain(named), reference.Path(named)
	first, rest, found := strings.Cut(named.Name(), "/")
	firstIsHost := found && (strings.ContainsAny(first, ".:") || first == "localhost")
	switch {
	case firstIsHost && domain == first && host == domain && repo == path:
	case !firstIsHost && host == "" && repo == named.Name():
	case firstIsHost && domain == "" && host == first && repo == rest:
	default:
		t.Fatalf("%q: host %q repository %q; reference: domain %q path %q", s, host, repo, domain, path)
	}
}

// tagAndDigest are ref's tag and digest, "" when absent.
func tagAndDigest(ref reference.Reference) (tag, dgst string) {
	if tagged, ok := ref.(reference.Tagged); ok {
		tag = tagged.Tag()
	}
	if digested, ok := ref.(reference.Digested); ok {
		dgst = digested.Digest().String()
	}
	return tag, dgst
}

var (
	upstreamTag    = regexp.MustCompile(`^(?:` + reference.TagRegexp.String() + `)$`)
	upstreamDigest = regexp.MustCompile(`^(?:` + reference.DigestRegexp.String() + `)$`)
)

// checkLiftedPatterns compares the lifted patterns with reference's on s
// and on what follows its last ":" and "@".
func checkLiftedPatterns(t *testing.T, s string) {
	t.Helper()
	for _, v := range []string{s, s[strings.LastIndex(s, ":")+1:], s[strings.LastIndex(s, "@")+1:]} {
		if anchoredTag.MatchString(v) != upstreamTag.MatchString(v) {
			t.Fatalf("tag pattern on %q: lifted %t, reference %t", v, anchoredTag.MatchString(v), upstreamTag.MatchString(v))
		}
		if anchoredDigest.MatchString(v) != upstreamDigest.MatchString(v) {
			t.Fatalf("digest pattern on %q: lifted %t, reference %t", v, anchoredDigest.MatchString(v), upstreamDigest.MatchString(v))
		}
	}
}
