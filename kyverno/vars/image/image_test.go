// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package image

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	const digest = "sha256:128c6e3534b842a2eec139999b8ce8aa9a2af9907e2b9269550809d18cd832a3"
	cases := map[string]struct {
		in   string
		want Info
	}{
		"short name gets docker.io and latest": {in: "nginx", want: Info{Registry: "docker.io", Name: "nginx", Path: "nginx", Tag: "latest",
			Reference: "docker.io/nginx:latest", ReferenceWithTag: "docker.io/nginx:latest"}},
		"fe-smp-images-variable": {in: "bbbbbbbbbb-ccccc:1.28", want: Info{Registry: "docker.io", Name: "bbbbbbbbbb-ccccc", Path: "bbbbbbbbbb-ccccc", Tag: "1.28",
			Reference: "docker.io/bbbbbbbbbb-ccccc:1.28", ReferenceWithTag: "docker.io/bbbbbbbbbb-ccccc:1.28"}},
		"registry host kept, no library/": {in: "public.ecr.aws/docker/library/nginx:1.14.2", want: Info{Registry: "public.ecr.aws", Name: "nginx",
			Path: "docker/library/nginx", Tag: "1.14.2", Reference: "public.ecr.aws/docker/library/nginx:1.14.2",
			ReferenceWithTag: "public.ecr.aws/docker/library/nginx:1.14.2"}},
		"first segment without dot is a path": {in: "foo/bash:5.0", want: Info{Registry: "docker.io", Name: "bash", Path: "foo/bash", Tag: "5.0",
			Reference: "docker.io/foo/bash:5.0", ReferenceWithTag: "docker.io/foo/bash:5.0"}},
		"upper-case first segment is a host": {in: "Upper/app", want: Info{Registry: "Upper", Name: "app", Path: "app", Tag: "latest",
			Reference: "Upper/app:latest", ReferenceWithTag: "Upper/app:latest"}},
		"localhost is a host": {in: "localhost/app", want: Info{Registry: "localhost", Name: "app", Path: "app", Tag: "latest",
			Reference: "localhost/app:latest", ReferenceWithTag: "localhost/app:latest"}},
		"port is a host": {in: "reg:5000/team/app:v1", want: Info{Registry: "reg:5000", Name: "app", Path: "team/app", Tag: "v1",
			Reference: "reg:5000/team/app:v1", ReferenceWithTag: "reg:5000/team/app:v1"}},
		"digest wins in reference, no default tag": {in: "ghcr.io/a/b@" + digest, want: Info{Registry: "ghcr.io", Name: "b", Path: "a/b",
			Digest: digest, Reference: "ghcr.io/a/b@" + digest, ReferenceWithTag: "ghcr.io/a/b:"}},
		"first segment with _ and . is the registry, after the references": {in: "my_reg.io/team/app:1", want: Info{Registry: "my_reg.io",
			Name: "app", Path: "team/app", Tag: "1", Reference: "my_reg.io/team/app:1", ReferenceWithTag: "my_reg.io/team/app:1"}},
		"tag and digest": {in: "ghcr.io/a/b:1@" + digest, want: Info{Registry: "ghcr.io", Name: "b", Path: "a/b", Tag: "1",
			Digest: digest, Reference: "ghcr.io/a/b@" + digest, ReferenceWithTag: "ghcr.io/a/b:1"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := Parse(tc.in)
			require.NoError(t, err)
			assert.Equal(t, tc.want, *got)
		})
	}
}

func TestParseErrors(t *testing.T) {
	_, err := Parse("docker.io/Nginx")
	require.EqualError(t, err, "bad image: docker.io/Nginx, defaultRegistry: docker.io, enableDefaultRegistryMutation: true: repository name must be lowercase")
	_, err = Parse("a b")
	require.EqualError(t, err, "bad image: docker.io/a b, defaultRegistry: docker.io, enableDefaultRegistryMutation: true: invalid reference format")
}
