// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"testing"

	"github.com/distribution/reference"

	"github.com/apply-overrides/apply-overrides/internal/overridertest"
)

// The seeds are in testdata/fuzz/FuzzImageRef/.

// FuzzImageRef holds parseImage and imageRef.String
// (KubeAdmiral's ParseImage, pkg/controllers/override/imageparse.go
// @19de01c) to github.com/distribution/reference: the same acceptance and
// errors, tag and digest as reference has them (both kept) and String equal
// to reference's. The one difference is the registry split: KubeAdmiral's
// SplitRegistryAndRepository is Karmada's SplitHostname (its comment cites
// "ealen/echo-server", which reference.Domain would split), checked by
// overridertest.CheckHostSplit as in Karmada's FuzzKarmadaImageRef.
// Upstream pins reference v0.5.0, this module v0.6.0; Parse's grammar is
// the same in both.
func FuzzImageRef(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 512 {
			return
		}
		ref, refErr := reference.Parse(s)
		img, err := parseImage(s)
		if !overridertest.SameError(err, refErr) {
			t.Fatalf("parseImage(%q) error %v, reference.Parse error %v", s, err, refErr)
		}
		if err != nil {
			return
		}
		overridertest.CheckHostSplit(t, s, ref, img.Registry, img.Repository)
		tag, dgst := overridertest.TagAndDigest(ref)
		if img.Tag != tag || img.Digest != dgst {
			t.Fatalf("parseImage(%q): tag %q digest %q, reference: tag %q digest %q", s, img.Tag, img.Digest, tag, dgst)
		}
		if got := img.String(); got != ref.String() {
			t.Fatalf("parseImage(%q).String() = %q, reference: %q", s, got, ref.String())
		}
	})
}
