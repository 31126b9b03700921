// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package functions

import (
	"context"
	"crypto/md5"  // #nosec G501 -- md5() is a Kyverno function, not a security control
	"crypto/sha1" // #nosec G505 -- sha1() is a Kyverno function, not a security control
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"net"
	"net/url"

	gojmespath "github.com/kyverno/go-jmespath"

	"github.com/apply-overrides/apply-overrides/kyverno/vars/image"
)

func imageNormalize(args []any) (any, error) {
	s, err := argString("image_normalize", args, 0)
	if err != nil {
		return nil, err
	}
	info, err := image.Parse(s)
	if err != nil {
		return nil, errGeneric("image_normalize", err.Error())
	}
	return info.String(), nil
}

// lookupIP resolves host names for is_external_url.
var lookupIP = func(host string) ([]net.IPAddr, error) {
	return net.DefaultResolver.LookupIPAddr(context.Background(), host)
}

// isExternalURL is false for loopback and private addresses; host names are
// resolved (DNS), so the result depends on the environment.
func isExternalURL(args []any) (any, error) {
	s, err := argString("path_canonicalize", args, 0)
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(s)
	if err != nil {
		return nil, err
	}
	if ip := net.ParseIP(u.Hostname()); ip != nil {
		return !ip.IsLoopback() && !ip.IsPrivate(), nil
	}
	addrs, err := lookupIP(u.Hostname())
	if err != nil {
		return nil, err
	}
	for _, a := range addrs {
		if a.IP.IsLoopback() || a.IP.IsPrivate() {
			return false, nil
		}
	}
	return true, nil
}

func sha256Hex(args []any) (any, error) { return hexDigest(args, sha256.New()) }

func sha1Hex(args []any) (any, error) { return hexDigest(args, sha1.New()) } // #nosec G401

func md5Hex(args []any) (any, error) { return hexDigest(args, md5.New()) } // #nosec G401

func hexDigest(args []any, h hash.Hash) (any, error) {
	s, err := argString("", args, 0)
	if err != nil {
		return nil, err
	}
	if _, err := h.Write([]byte(s)); err != nil {
		return nil, err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func unsupported(name, why string) gojmespath.JpFunction {
	return func([]any) (any, error) {
		return nil, errGeneric(name, "not supported offline: "+why)
	}
}
