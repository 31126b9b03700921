#!/usr/bin/env bash
# Copyright 2026 The apply-overrides Authors.
# SPDX-License-Identifier: Apache-2.0
#
# Builds the Kyverno CLI (kubectl-kyverno) that `make differential-kyverno`
# compares apply-overrides with, once, into .cache/kyverno/, and prints its
# path. The first build downloads the module (~400 MB with its dependencies)
# and takes several minutes; later runs only print the path.
set -euo pipefail

KYVERNO_VERSION="${KYVERNO_VERSION:-v1.19.1}"
GO="${GO:-go}"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out_dir="${root}/.cache/kyverno"
out="${out_dir}/kubectl-kyverno"
stamp="${out_dir}/version"

if [[ -x "${out}" && -f "${stamp}" && "$(cat "${stamp}")" == "${KYVERNO_VERSION}" ]]; then
  echo "${out}"
  exit 0
fi

mkdir -p "${out_dir}"
# The module's go.mod has replace directives, so `go install module@version`
# refuses it: download the module and build inside its directory instead.
dir="$(cd "${TMPDIR:-/tmp}" && "${GO}" mod download -json "github.com/kyverno/kyverno@${KYVERNO_VERSION}" |
  sed -n 's/^[[:space:]]*"Dir":[[:space:]]*"\(.*\)",\{0,1\}$/\1/p')"
if [[ -z "${dir}" || ! -d "${dir}" ]]; then
  echo "kyverno-cli.sh: could not find the module directory of github.com/kyverno/kyverno@${KYVERNO_VERSION}" >&2
  exit 1
fi

echo "kyverno-cli.sh: building kubectl-kyverno ${KYVERNO_VERSION} from ${dir} (takes minutes the first time)" >&2
tmp="${out}.tmp.$$"
trap 'rm -f "${tmp}"' EXIT
(cd "${dir}" && GOFLAGS=-mod=mod "${GO}" build -o "${tmp}" ./cmd/cli/kubectl-kyverno)
mv "${tmp}" "${out}"
echo "${KYVERNO_VERSION}" >"${stamp}"
echo "${out}"
