// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package policy

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The checks below go beyond what Karmada's and KubeAdmiral's admission
// make: they reject values that no render can mean, so that the mistake is
// reported against the policy instead of surfacing in a member cluster.

// PointerEscapeError returns why ptr, a JSON pointer, has an invalid
// escape, or "". RFC 6901 allows "~" only as "~0" (a "~") and "~1" (a
// "/"); Karmada's and KubeAdmiral's patch library reads any other "~x"
// literally, so "/a/~2" would address a key named "~2".
func PointerEscapeError(ptr string) string {
	for i := 0; i < len(ptr); i++ {
		if ptr[i] == '~' && (i+1 == len(ptr) || (ptr[i+1] != '0' && ptr[i+1] != '1')) {
			return `"~" must be followed by "0" or "1" in a JSON pointer (RFC 6901): write "~0" for a "~" and "~1" for a "/" inside a key`
		}
	}
	return ""
}

// ImageValueError returns why value cannot be (part of) the given
// component of an image reference, or "". It checks only what no image
// reference can hold, since Karmada's add concatenates values onto the
// existing component: white space anywhere; in a Registry (a host, port
// and, as Karmada splits it, possibly a path prefix) only letters, digits
// and . - _ : / [ ]; in a Repository only lowercase letters, digits and
// . - _ /. component is Karmada's or KubeAdmiral's spelling (Registry,
// Repository, Tag, Digest); Tag and Digest are checked for white space only.
func ImageValueError(component, value string) string {
	for _, r := range value {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			return fmt.Sprintf("an image %s must not contain white space", strings.ToLower(component))
		}
	}
	var ok func(rune) bool
	var want string
	switch component {
	case "Registry":
		ok = func(r rune) bool { return isAlnum(r) || strings.ContainsRune(".-_:/[]", r) }
		want = `a registry is a host name with an optional port: letters, digits, ".", "-" and ":"`
	case "Repository":
		ok = func(r rune) bool {
			return (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || strings.ContainsRune(".-_/", r)
		}
		want = `a repository may hold only lowercase letters, digits and the separators ".", "_", "-" and "/"`
	default:
		return ""
	}
	for _, r := range value {
		if !ok(r) {
			return fmt.Sprintf("%s (found %q), or the member cluster cannot pull the image", want, r)
		}
	}
	return ""
}

func isAlnum(r rune) bool {
	return (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')
}

// Enum checks a value an OpenAPI schema's enum restricts, as the
// apiserver does: nil for an allowed value and for "" (an absent field,
// which the required-field check reports), else a NotSupported error.
func Enum(path *field.Path, v string, allowed []string) field.ErrorList {
	if v == "" || slices.Contains(allowed, v) {
		return nil
	}
	return field.ErrorList{field.NotSupported(path, v, allowed)}
}
