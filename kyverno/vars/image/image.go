// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package image splits container image references the way Kyverno does
// (kyverno v1.19.1 pkg/utils/image/infos.go GetImageInfo) with Kyverno's
// default configuration: default registry docker.io, registry mutation on.
package image

import (
	"fmt"
	"strings"

	"github.com/distribution/reference"
)

// DefaultRegistry is prepended to references without a registry host.
const DefaultRegistry = "docker.io"

// Info is one parsed image reference.
type Info struct {
	// Registry is the registry host, e.g. "docker.io".
	Registry string
	// Name is the last path segment, e.g. "nginx".
	Name string
	// Path is the repository path, e.g. "library/nginx" or "nginx".
	Path string
	// Tag is the tag, "latest" when neither tag nor digest is given.
	Tag string
	// Digest is the digest, e.g. "sha256:…", or "".
	Digest string
	// Reference is registry/path@digest or registry/path:tag.
	Reference string
	// ReferenceWithTag is registry/path:tag.
	ReferenceWithTag string
}

// Parse splits an image reference. docker.io/ is prepended when the part
// before the first "/" is not a host (no "." or ":", not "localhost", all
// lower case) or there is no "/"; there is no library/ normalisation.
// A first segment with "_" that is still not a domain becomes the registry.
func Parse(image string) (*Info, error) {
	full := withDefaultRegistry(image)
	ref, err := reference.Parse(full)
	if err != nil {
		return nil, fmt.Errorf("bad image: %s, defaultRegistry: %s, enableDefaultRegistryMutation: %t: %w", full, DefaultRegistry, true, err)
	}
	info := &Info{}
	if named, ok := ref.(reference.Named); ok {
		info.Registry = reference.Domain(named)
		info.Path = reference.Path(named)
		info.Name = info.Path[strings.LastIndex(info.Path, "/")+1:]
	}
	if tagged, ok := ref.(reference.Tagged); ok {
		info.Tag = tagged.Tag()
	}
	if digested, ok := ref.(reference.Digested); ok {
		info.Digest = digested.Digest().String()
	}
	if info.Digest == "" && info.Tag == "" {
		info.Tag = "latest"
	}
	if info.Registry != "" {
		info.ReferenceWithTag = fmt.Sprintf("%s/%s:%s", info.Registry, info.Path, info.Tag)
	} else {
		info.ReferenceWithTag = fmt.Sprintf("%s:%s", info.Path, info.Tag)
	}
	info.Reference = info.String()
	// A first segment the grammar refuses as a domain ("my_reg.io/app": "_"
	// is not allowed in a host name) leaves no registry; Kyverno then takes
	// a first segment holding "_" as the registry, after Reference and
	// ReferenceWithTag are made (kyverno #14632, in v1.18.0 and later).
	if parts := strings.Split(info.Path, "/"); len(parts) > 1 && info.Registry == "" && strings.Contains(parts[0], "_") {
		info.Registry = parts[0]
		info.Path = strings.Join(parts[1:], "/")
	}
	return info, nil
}

// String is registry/path followed by @digest, or by :tag without a digest.
func (i *Info) String() string {
	image := i.Path
	if i.Registry != "" {
		image = i.Registry + "/" + i.Path
	}
	if i.Digest != "" {
		return image + "@" + i.Digest
	}
	return image + ":" + i.Tag
}

func withDefaultRegistry(name string) string {
	i := strings.IndexRune(name, '/')
	if i == -1 {
		return DefaultRegistry + "/" + name
	}
	first := name[:i]
	if !strings.ContainsAny(first, ".:") && first != "localhost" && strings.ToLower(first) == first {
		return DefaultRegistry + "/" + name
	}
	return name
}
