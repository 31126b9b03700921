// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package image

import (
	"errors"
	"strings"
	"testing"

	"github.com/distribution/reference"
)

// FuzzKyvernoImageRef holds Parse to github.com/distribution/reference's
// Docker normalisation, ParseNormalizedNamed and ParseDockerRef, on any
// string (seeds in testdata/fuzz/FuzzKyvernoImageRef). Kyverno's
// addDefaultRegistry (kyverno pkg/utils/image/infos.go @111e07bb) decides
// where docker.io goes as reference's splitDockerDomain (normalize.go) does,
// so Parse accepts a string iff ParseNormalizedNamed does, and has its
// registry, path, tag and digest, except where GetImageInfo does less:
//   - no "library/" for single-segment Docker Hub names: "nginx" has path
//     "nginx" here, "library/nginx" there; so a path of 248 to 255
//     characters is too long only there;
//   - no "index.docker.io" to "docker.io" rewrite;
//   - no rejection of 64-hex-digit names (ParseNormalizedNamed refuses
//     them as image IDs);
//
// and where it does more: a first segment with "." or ":" that reference's
// grammar refuses as a domain ("my_reg.io/app", "_" is not allowed in a
// host name) is all path there, but with a "_" it is the registry here
// (GetImageInfo's last step, kyverno #14632), after Reference and
// ReferenceWithTag are made from the unsplit path.
//
// Tag and digest are ParseDockerRef's: "latest" when neither is given, and
// Reference drops the tag of a reference with both; Reference and
// ReferenceWithTag (when there is a tag) parse back to the same parts.
func FuzzKyvernoImageRef(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 512 {
			return
		}
		info, err := Parse(s)
		named, refErr := reference.ParseNormalizedNamed(s)
		if (err == nil) != (refErr == nil) {
			if err == nil && explainedRejection(s, info, refErr) {
				return
			}
			t.Fatalf("Parse(%q) error %v, ParseNormalizedNamed error %v", s, err, refErr)
		}
		if err != nil {
			return
		}
		wantRegistry, wantPath := reference.Domain(named), reference.Path(named)
		if wantRegistry == "docker.io" && !strings.Contains(info.Path, "/") {
			wantPath = strings.TrimPrefix(wantPath, "library/")
		}
		if info.Registry == "index.docker.io" && wantRegistry == "docker.io" {
			wantRegistry = info.Registry
		}
		refRegistry, refPath := wantRegistry, wantPath // what Reference and ReferenceWithTag hold
		if first, rest, ok := strings.Cut(wantPath, "/"); ok && wantRegistry == "" && strings.Contains(first, "_") {
			wantRegistry, wantPath = first, rest
		}
		if info.Registry != wantRegistry || info.Path != wantPath {
			t.Fatalf("Parse(%q): registry %q path %q, reference: %q %q (normalised %s)", s, info.Registry, info.Path, wantRegistry, wantPath, named)
		}
		if want := refPath[strings.LastIndex(refPath, "/")+1:]; info.Name != want {
			t.Fatalf("Parse(%q): name %q, want %q", s, info.Name, want)
		}
		docker, err := reference.ParseDockerRef(s)
		if err != nil {
			t.Fatalf("ParseDockerRef(%q): %v, though ParseNormalizedNamed accepts it", s, err)
		}
		tag, dgst := tagAndDigest(named)
		if _, ok := docker.(reference.Digested); !ok && tag == "" {
			tag = "latest" // ParseDockerRef's TagNameOnly
		}
		if info.Tag != tag || info.Digest != dgst {
			t.Fatalf("Parse(%q): tag %q digest %q, reference: tag %q digest %q", s, info.Tag, info.Digest, tag, dgst)
		}
		_, dockerDigest := tagAndDigest(docker)
		checkFormatted(t, s, "Reference", info.Reference, refRegistry, refPath, tagUnless(dockerDigest, info.Tag), info.Digest)
		if info.Tag != "" {
			checkFormatted(t, s, "ReferenceWithTag", info.ReferenceWithTag, refRegistry, refPath, info.Tag, "")
		}
	})
}

// explainedRejection reports whether ParseNormalizedNamed rejects s only for
// one of the normalisations Kyverno does not make.
func explainedRejection(s string, info *Info, refErr error) bool {
	switch {
	case errors.Is(refErr, reference.ErrNameTooLong):
		return info.Registry == "docker.io" && !strings.Contains(info.Path, "/") && len("library/"+info.Path) > reference.RepositoryNameTotalLengthMax
	case strings.Contains(refErr.Error(), "cannot specify 64-byte hexadecimal strings"):
		return reference.IdentifierRegexp.MatchString(s) && len(s) == 64
	}
	return false
}

func tagUnless(dgst, tag string) string {
	if dgst != "" {
		return ""
	}
	return tag
}

func tagAndDigest(ref reference.Reference) (tag, dgst string) {
	if tagged, ok := ref.(reference.Tagged); ok {
		tag = tagged.Tag()
	}
	if digested, ok := ref.(reference.Digested); ok {
		dgst = digested.Digest().String()
	}
	return tag, dgst
}

// checkFormatted checks that reference parses a formatted string back to
// the given parts.
func checkFormatted(t *testing.T, s, field, formatted, registry, path, tag, dgst string) {
	t.Helper()
	ref, err := reference.Parse(formatted)
	if err != nil {
		t.Fatalf("Parse(%q).%s = %q: %v", s, field, formatted, err)
	}
	named := ref.(reference.Named)
	gotTag, gotDigest := tagAndDigest(ref)
	if reference.Domain(named) != registry || reference.Path(named) != path || gotTag != tag || gotDigest != dgst {
		t.Fatalf("Parse(%q).%s = %q: domain %q path %q tag %q digest %q, want %q %q %q %q", s, field, formatted,
			reference.Domain(named), reference.Path(named), gotTag, gotDigest, registry, path, tag, dgst)
	}
}
