// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"regexp"
	"strings"
	"testing"

	"github.com/distribution/reference"

	"github.com/apply-overrides/apply-overrides/internal/imageref"
	"github.com/apply-overrides/apply-overrides/internal/overridertest"
)

// The seeds are in testdata/fuzz/FuzzKarmadaImageRef/.

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
		if !overridertest.SameError(err, refErr) {
			t.Fatalf("parseImage(%q) error %v, reference.Parse error %v", s, err, refErr)
		}
		if err != nil {
			return
		}
		overridertest.CheckHostSplit(t, s, ref, c.Registry, c.Repository)
		tag, dgst := overridertest.TagAndDigest(ref)
		want := ref.String()
		if tag != "" && dgst != "" {
			dgst = ""
			want = ref.(reference.Named).Name() + ":" + tag
		}
		if c.Tag != tag || c.Digest != dgst {
			t.Fatalf("parseImage(%q): tag %q digest %q, reference: tag %q digest %q", s, c.Tag, c.Digest, tag, dgst)
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

var (
	upstreamTag    = regexp.MustCompile(`^(?:` + reference.TagRegexp.String() + `)$`)
	upstreamDigest = regexp.MustCompile(`^(?:` + reference.DigestRegexp.String() + `)$`)
)

// checkLiftedPatterns compares the lifted patterns with reference's on s
// and on what follows its last ":" and "@".
func checkLiftedPatterns(t *testing.T, s string) {
	t.Helper()
	for _, v := range []string{s, s[strings.LastIndex(s, ":")+1:], s[strings.LastIndex(s, "@")+1:]} {
		if imageref.IsTag(v) != upstreamTag.MatchString(v) {
			t.Fatalf("tag pattern on %q: lifted %t, reference %t", v, imageref.IsTag(v), upstreamTag.MatchString(v))
		}
		if imageref.IsDigest(v) != upstreamDigest.MatchString(v) {
			t.Fatalf("digest pattern on %q: lifted %t, reference %t", v, imageref.IsDigest(v), upstreamDigest.MatchString(v))
		}
	}
}
